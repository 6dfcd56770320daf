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
    /// Whether the bytes spell `literal` exactly.
    func spells(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        // An indexed loop: `elementsEqual` goes through iterators, several times slower here.
        let expected = literal.utf8Start
        for offset in 0..<count where self[offset] != expected[offset] { return false }
        return true
    }
}
