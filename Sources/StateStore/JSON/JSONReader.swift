/// Reads JSON documents piece by piece: the store's columns, import documents and
/// `NavigationPath` representations. Values that are kept as text are passed over with
/// ``JSONSyntax`` and sliced out, never rebuilt.
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    typealias Failure = JSONSyntax.Failure

    var isAtEnd: Bool { index >= bytes.count }

    mutating func skipWhitespace() {
        index = JSONSyntax.skipWhitespace(bytes, from: index)
    }

    /// The next non-whitespace byte, not consumed.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
        guard peek() == byte else { throw Failure(message: "expected \(what)", offset: index) }
        index += 1
    }

    /// Steps over a UTF-8 byte order mark at the reader's position, if there is one: editors on
    /// some systems start a text file with it, and it is not part of the JSON text.
    mutating func skipByteOrderMark() {
        if bytes.count - index >= 3, bytes[index] == 0xEF, bytes[index + 1] == 0xBB, bytes[index + 2] == 0xBF {
            index += 3
        }
    }

    /// Fails unless only whitespace is left.
    mutating func expectEnd() throws(Failure) {
        skipWhitespace()
        guard isAtEnd else { throw Failure(message: "unexpected text after the JSON value", offset: index) }
    }

    mutating func consumeNull() throws(Failure) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try JSONSyntax.scanLiteral("null", bytes, from: &index)
        return true
    }

    /// Calls `element` for each element of an array, the reader standing on it.
    mutating func readArray(_ element: (inout JSONReader) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "["), "an array")
        if peek() == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try element(&self)
            guard let next = peek() else { throw Failure(message: "expected ',' or ']'", offset: index) }
            index += 1
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { throw Failure(message: "expected ',' or ']'", offset: index - 1) }
        }
    }

    /// Calls `member` with each key of an object, the reader standing on its value.
    mutating func readObject(_ member: (inout JSONReader, String) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "{"), "an object")
        if peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            let key = try readString()
            try expect(UInt8(ascii: ":"), "':'")
            try member(&self, key)
            guard let next = peek() else { throw Failure(message: "expected ',' or '}'", offset: index) }
            index += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw Failure(message: "expected ',' or '}'", offset: index - 1) }
        }
    }

    /// Reads a string, decoding its escapes. A lone surrogate escape is refused: it is not text.
    mutating func readString() throws(Failure) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw Failure(message: "expected a string", offset: index) }
        let start = index
        try JSONSyntax.scanString(bytes, from: &index)
        let body = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(index - 1)])
        guard body.contains(UInt8(ascii: "\\")) else {
            return String(decoding: body, as: UTF8.self)
        }
        return try Self.unescape(body, offset: start + 1)
    }

    /// Passes over any value and returns its text, minified.
    mutating func readValueText() throws(Failure) -> String {
        skipWhitespace()
        let start = index
        let scan = try JSONSyntax.scanValue(bytes, from: &index)
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        return scan.hasWhitespace
            ? String(decoding: JSONSyntax.stripWhitespace(slice), as: UTF8.self)
            : String(decoding: slice, as: UTF8.self)
    }

    /// Consumes a string with no escapes at the reader (no whitespace skipped) and gives where its
    /// bytes stand, quotes excluded; `nil`, consuming nothing, for anything else. Its bytes are
    /// OR-ed into `seen`, as ``JSONSyntax/scanMinifiedValue(_:from:seen:)`` does.
    mutating func consumePlainStringRange(seen: inout UInt64) -> Range<Int>? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let end = JSONSyntax.firstSpecialByte(bytes, from: index + 1, seen: &seen)
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
        defer { index = end + 1 }
        return (index + 1)..<end
    }

    /// Consumes a value with no whitespace in it at the reader and gives where it stands; `nil`,
    /// consuming nothing, for a value with whitespace. Throws for text that is not a value. Its
    /// strings are OR-ed into `seen`, as ``JSONSyntax/scanMinifiedValue(_:from:seen:)`` does.
    mutating func consumeMinifiedValueRange(seen: inout UInt64) throws(Failure) -> Range<Int>? {
        if let end = JSONSyntax.scanMinifiedValue(bytes, from: index, seen: &seen) {
            defer { index = end }
            return index..<end
        }
        // The general scan does not track bytes: the caller checks them all.
        seen = ~0
        var end = index
        guard try !JSONSyntax.scanValue(bytes, from: &end).hasWhitespace else { return nil }
        defer { index = end }
        return index..<end
    }

    /// Runs `body`, putting the reader back where it was when `body` returns `nil`.
    mutating func backtracking<T>(_ body: (inout JSONReader) throws(Failure) -> T?) throws(Failure) -> T? {
        let start = index
        if let result = try body(&self) { return result }
        index = start
        return nil
    }

    /// Consumes `literal` when the bytes at the reader spell it exactly (no whitespace skipped).
    @inline(__always)
    mutating func consume(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        // From the base address, not a slice: no range checks beyond the one here.
        guard bytes.count - index >= count, let base = bytes.baseAddress,
            UnsafeBufferPointer(start: base + index, count: count).spells(literal)
        else { return count == 0 }
        index += count
        return true
    }

    private static func unescape(_ body: UnsafeBufferPointer<UInt8>, offset: Int) throws(Failure) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var index = 0
        func hex4(_ at: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 << 4 | (JSONSyntax.hexValue(body[at + $1]) ?? 0) }
        }
        while index < body.count {
            let byte = body[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            let escape = body[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var value = hex4(index)
                index += 4
                if (0xD800..<0xDC00).contains(value), index + 6 <= body.count, body[index] == UInt8(ascii: "\\"),
                    body[index + 1] == UInt8(ascii: "u")
                {
                    let low = hex4(index + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    }
                }
                guard let scalar = Unicode.Scalar(value) else {
                    throw Failure(message: "\\u escape of a lone surrogate", offset: offset + index - 6)
                }
                UTF8.encode(scalar) { out.append($0) }
            default: out.append(escape)  // " \ /
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension JSONReader {
    /// Runs `body` with a reader over `text`'s UTF-8.
    static func read<T>(_ text: String, _ body: (inout JSONReader) throws(Failure) -> T) throws(Failure) -> T {
        var text = text
        return try text.withUTF8Bytes { utf8 throws(Failure) in
            var reader = JSONReader(utf8)
            return try body(&reader)
        }
    }
}
