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
