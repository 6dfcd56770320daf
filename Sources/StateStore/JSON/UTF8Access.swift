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
        return sameBytes(UnsafeRawPointer(base), UnsafeRawPointer(literal.utf8Start), count: count)
    }

    /// Whether the bytes are the same as `other`'s, compared eight at a time (`elementsEqual`
    /// takes them one by one, through an iterator).
    @inline(__always)
    func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard let base = baseAddress, let otherBase = other.baseAddress else { return true }  // both empty
        return base == otherBase || sameBytes(UnsafeRawPointer(base), UnsafeRawPointer(otherBase), count: count)
    }
}

/// Whether `count` bytes at `bytes` and at `expected` are the same: eight at a time, then one by one.
@inline(__always)
private func sameBytes(_ bytes: UnsafeRawPointer, _ expected: UnsafeRawPointer, count: Int) -> Bool {
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
            bytes.load(fromByteOffset: offset, as: UInt8.self) == expected.load(fromByteOffset: offset, as: UInt8.self)
        else { return false }
        offset += 1
    }
    return true
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes are well-formed UTF-8, exactly as `String(validating:as:)` decides it,
    /// without building a string. ASCII, as nearly every id and stored value is, is told in one
    /// pass eight bytes at a time; a listing lends bytes only when this holds.
    var isValidUTF8: Bool {
        guard let base = baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var high: UInt64 = 0
        if count >= 8 {
            // Two words a turn (a listed item is 50–100 bytes), then one, then the last eight
            // bytes, overlapping what was read: no byte-by-byte tail.
            var offset = 0
            while offset + 16 < count {
                high |=
                    raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
                offset += 16
            }
            if offset + 8 < count { high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
            high |= raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else {
            high = shortWord(raw)
        }
        return high & 0x8080_8080_8080_8080 == 0 || hasValidMultibyteUTF8
    }

    /// The bytes as a string when they are well-formed UTF-8, else `nil`: what
    /// `String(validating:as:)` returns, which Apple platforms have only from iOS 18 and macOS 15
    /// (the package's floor is iOS 17 and macOS 14).
    ///
    /// Package surface: statectl reads its arguments' bytes with it, to tell an argument that is
    /// not UTF-8.
    package var validatedUTF8String: String? {
        isValidUTF8 ? String(decoding: self, as: UTF8.self) : nil
    }

    /// Whether every byte is printable ASCII, 0x20–0x7E: no control character, nothing past ASCII.
    /// Eight bytes at a time, as ``isValidUTF8``: every call of the store checks its ids so.
    var isPrintableASCII: Bool {
        guard let base = baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        // Whether no byte of `word` is below 0x20 or above 0x7E. Each test is exact for the word
        // as a whole: a borrow or carry into a byte comes only from a byte that failed already.
        func printable(_ word: UInt64) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let below = (word &- ones &* 0x20) & ~word
            let above = (word &+ ones) | word
            return (below | above) & 0x8080_8080_8080_8080 == 0
        }
        guard count >= 8 else {
            // The bytes, then spaces, which are printable, to fill the word.
            let spaces: UInt64 = 0x2020_2020_2020_2020
            return printable(shortWord(raw) | spaces << UInt64(8 * count))
        }
        var offset = 0
        while offset + 8 < count {
            guard printable(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) else { return false }
            offset += 8
        }
        return printable(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }

    /// The bytes, fewer than eight, as one little-endian word, zero above them: four, two and one
    /// at a time, as the count's bits say, not byte by byte.
    private func shortWord(_ raw: UnsafeRawPointer) -> UInt64 {
        var word: UInt64 = 0
        var offset = 0
        if count & 4 != 0 {
            word = UInt64(raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
            offset = 4
        }
        if count & 2 != 0 {
            word |= UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) << UInt64(8 * offset)
            offset += 2
        }
        if count & 1 != 0 { word |= UInt64(raw.load(fromByteOffset: offset, as: UInt8.self)) << UInt64(8 * offset) }
        return word
    }

    /// ``isValidUTF8`` for bytes that are not all ASCII: sequence by sequence.
    private var hasValidMultibyteUTF8: Bool {
        var index = 0
        while index < count {
            let lead = self[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The length the lead byte gives, and the range the second byte must fall in (which
            // rules out overlong forms, surrogates and scalars past U+10FFFF); the rest are
            // plain continuation bytes.
            let length: Int
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, second) = (3, 0xA0...0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, second) = (3, 0x80...0x9F)
            case 0xF0: (length, second) = (4, 0x90...0xBF)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, second) = (4, 0x80...0x8F)
            default: return false
            }
            guard index + length <= count, second.contains(self[index + 1]) else { return false }
            for offset in 2..<length where self[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }
}
