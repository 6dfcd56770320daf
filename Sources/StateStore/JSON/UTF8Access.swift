extension String {
    /// `withUTF8` keeping the closure's typed error, which the standard library's rethrows loses.
    mutating func withUTF8Bytes<T, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T) throws(E) -> T {
        var result: Result<T, E>?
        withUTF8 { bytes in
            result = Result { () throws(E) -> T in try body(bytes) }
        }
        return try result!.get()
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes spell `literal` exactly. Inlined, so that a literal's length is known
    /// where it is matched and the loops below unroll.
    @inline(__always)
    func spells(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        guard let base = baseAddress else { return true }  // both empty
        // Eight bytes at a time: the store reads a few of these on every row it lists.
        let (bytes, expected) = (UnsafeRawPointer(base), UnsafeRawPointer(literal.utf8Start))
        var offset = 0
        while offset + 8 <= count {
            guard
                bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < count {
            guard
                bytes.load(fromByteOffset: offset, as: UInt8.self)
                    == expected.load(fromByteOffset: offset, as: UInt8.self)
            else { return false }
            offset += 1
        }
        return true
    }
}
