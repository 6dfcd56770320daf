import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// libc's pseudo-terminal calls, which the Glibc module does not import (they need
/// `_XOPEN_SOURCE`), looked up at run time.
public enum PseudoTerminal {
    private static func function<T>(_ name: String, as type: T.Type) -> T {
        unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), name), to: type)
    }

    /// `posix_openpt(flags)`: a new master, or -1.
    public static let open = function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    /// `grantpt(master)`.
    public static let grant = function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    /// `unlockpt(master)`.
    public static let unlock = function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    /// `ptsname(master)`: the slave's path (static storage: copy it at once).
    public static let name = function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
}
