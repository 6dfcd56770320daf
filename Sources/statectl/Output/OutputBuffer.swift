import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes bound for one file descriptor, written in large chunks. Standard output goes through
/// one of these, flushed when it holds ``capacity`` bytes and at exit, so a listing of a million
/// windows costs a few thousand `write(2)` calls and no more memory than the buffer.
final class OutputBuffer {
    let descriptor: Int32
    let capacity: Int
    private var bytes: [UInt8] = []
    /// The `errno` of the first write that failed; what follows it is dropped.
    private(set) var failure: Int32?

    init(descriptor: Int32, capacity: Int = 64 * 1024) {
        self.descriptor = descriptor
        self.capacity = capacity
        bytes.reserveCapacity(capacity)
    }

    func write(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        if bytes.count >= capacity { flush() }
    }

    func write(_ data: [UInt8]) {
        bytes.append(contentsOf: data)
        if bytes.count >= capacity { flush() }
    }

    func write(byte: UInt8) {
        bytes.append(byte)
        if bytes.count >= capacity { flush() }
    }

    /// Writes everything held, retrying short and interrupted writes.
    func flush() {
        defer { bytes.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
    }
}

extension OutputBuffer {
    /// Drops what is held and not yet written: a command that fails midway discards its
    /// unfinished output, so a small listing prints only the error, never half a document.
    func discard() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes one JSON document and its newline.
    func writeJSON(_ body: (inout JSONWriter) -> Void) {
        var writer = JSONWriter()
        body(&writer)
        write(writer.bytes)
        write(byte: UInt8(ascii: "\n"))
    }
}

/// `write(2)`, out of the way of ``OutputBuffer``'s own `write` methods.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
