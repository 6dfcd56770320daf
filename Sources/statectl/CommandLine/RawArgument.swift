import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One command-line argument, decoded from the raw bytes the process received. An argument that
/// is not valid UTF-8 is kept (repaired, for messages) and marked, so that using it is bad data
/// (exit 65) while a usage error elsewhere still wins (exit 64).
struct RawArgument: Sendable, Equatable {
    /// The text; invalid bytes are replaced by U+FFFD.
    let text: String
    let isValidUTF8: Bool

    init(_ text: String) {
        self.text = text
        isValidUTF8 = true
    }

    init(bytes: UnsafeBufferPointer<UInt8>) {
        if let text = bytes.validatedUTF8String {
            self.text = text
            isValidUTF8 = true
        } else {
            text = String(decoding: bytes, as: UTF8.self)
            isValidUTF8 = false
        }
    }

    /// The arguments of this process, without the program name.
    static func ofProcess() -> [RawArgument] {
        let argv = CommandLine.unsafeArgv
        return (1..<Int(CommandLine.argc)).map { index in
            guard let pointer = argv[index] else { return RawArgument("") }
            return pointer.withMemoryRebound(to: UInt8.self, capacity: strlen(pointer) + 1) { bytes in
                RawArgument(bytes: UnsafeBufferPointer(start: bytes, count: strlen(pointer)))
            }
        }
    }
}
