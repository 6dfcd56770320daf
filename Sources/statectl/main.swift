import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The version `statectl --version` prints.
let version = "0.1.0"

if CommandLine.arguments.dropFirst() == ["--version"] {
    print("statectl \(version) (schema \(StateStore.schemaVersion))")
    exit(0)
}
let message = "Error: only --version is available in this build\n"
_ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
exit(64)
