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
    private static let reentrantName = function(
        "ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self)

    /// The slave's path, by `ptsname_r`: `ptsname` returns a buffer shared by every thread, which
    /// tests running at once overwrite under each other (and so open each other's terminals).
    public static func name(_ master: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 128)
        guard reentrantName(master, &buffer, buffer.count) == 0 else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
