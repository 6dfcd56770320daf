/// RFC 8259 validation and minification over UTF-8 bytes, without building a tree.
///
/// Route values are kept as the JSON text a user wrote, minus whitespace between tokens, so this
/// scanner only has to find where a value ends and whether it held whitespace. It is iterative,
/// so nesting is bounded by ``maximumDepth``, not by the call stack.
enum JSONSyntax {
    /// The deepest nesting of arrays and objects a value may have.
    static let maximumDepth = 512

    /// A syntax error: what was expected and the byte offset where it was not found.
    struct Failure: Error, Hashable, CustomStringConvertible {
        var message: String
        var offset: Int

        var description: String { "\(message) at byte \(offset)" }
    }

    /// Validates `text` as exactly one JSON value and returns it without insignificant whitespace.
    static func minify(_ text: String) throws(Failure) -> String {
        var text = text
        return try text.withUTF8Bytes { bytes throws(Failure) in
            var index = skipWhitespace(bytes, from: 0)
            let start = index
            let scan = try scanValue(bytes, from: &index)
            let end = index
            index = skipWhitespace(bytes, from: index)
            guard index == bytes.count else {
                throw Failure(message: "unexpected text after the JSON value", offset: index)
            }
            if !scan.hasWhitespace && start == 0 && end == bytes.count {
                return String(decoding: bytes, as: UTF8.self)
            }
            return String(decoding: stripWhitespace(UnsafeBufferPointer(rebasing: bytes[start..<end])), as: UTF8.self)
        }
    }

    /// What ``scanValue(_:from:)`` learnt about the value it passed over.
    struct Scan {
        /// Whitespace stood between the value's tokens, so it is not minified.
        var hasWhitespace: Bool
    }

    /// Passes over one JSON value starting at `index` (no leading whitespace), validating it, and
    /// leaves `index` just after it.
    static func scanValue(_ bytes: UnsafeBufferPointer<UInt8>, from index: inout Int) throws(Failure) -> Scan {
        var open = OpenContainers()
        var hasWhitespace = false
        func whitespace(_ index: inout Int) {
            let next = skipWhitespace(bytes, from: index)
            if next != index { hasWhitespace = true }
            index = next
        }
        func key(_ index: inout Int) throws(Failure) {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw Failure(message: "expected a string key", offset: index)
            }
            try scanString(bytes, from: &index)
            whitespace(&index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw Failure(message: "expected ':'", offset: index)
            }
            index += 1
        }

        while true {
            // A value is expected at `index`, possibly after whitespace.
            whitespace(&index)
            guard index < bytes.count else { throw Failure(message: "expected a JSON value", offset: index) }
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard open.depth < maximumDepth else {
                    throw Failure(message: "JSON nested deeper than \(maximumDepth) levels", offset: index)
                }
                let opener = bytes[index]
                open.push(opener)
                index += 1
                whitespace(&index)
                let closer = opener == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if index < bytes.count && bytes[index] == closer {
                    open.pop()
                    index += 1
                } else if opener == UInt8(ascii: "{") {
                    try key(&index)
                    continue
                } else {
                    continue
                }
            case UInt8(ascii: "\""):
                try scanString(bytes, from: &index)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try scanNumber(bytes, from: &index)
            case UInt8(ascii: "t"):
                try scanLiteral("true", bytes, from: &index)
            case UInt8(ascii: "f"):
                try scanLiteral("false", bytes, from: &index)
            case UInt8(ascii: "n"):
                try scanLiteral("null", bytes, from: &index)
            default:
                throw Failure(message: "expected a JSON value", offset: index)
            }
            // After a value: close containers or move to the next element.
            while true {
                guard let container = open.last else { return Scan(hasWhitespace: hasWhitespace) }
                whitespace(&index)
                guard index < bytes.count else {
                    throw Failure(
                        message: container == UInt8(ascii: "[") ? "expected ',' or ']'" : "expected ',' or '}'",
                        offset: index)
                }
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") {
                    index += 1
                    if container == UInt8(ascii: "{") {
                        whitespace(&index)
                        try key(&index)
                    }
                    break
                }
                let closer = container == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
                guard byte == closer else {
                    throw Failure(
                        message: container == UInt8(ascii: "[") ? "expected ',' or ']'" : "expected ',' or '}'",
                        offset: index)
                }
                open.pop()
                index += 1
            }
        }
    }

    /// ``scanValue(_:from:)`` for text the store wrote, which has no whitespace between tokens: one
    /// tight pass that returns where a valid, minified value starting at `start` ends, and `nil`
    /// for anything else — whitespace, an error, nesting deeper than 64 — which ``scanValue(_:from:)``
    /// then decides. Every row a restore or a listing reads holds a few values.
    ///
    /// Every byte of the value that is not ASCII must stand in a string, and every string's bytes
    /// are OR-ed into `seen` (with some after them, and all bits where a string has escapes), so
    /// that a caller can tell ASCII from `seen` without a pass of its own: see ``isASCII(_:)``.
    static func scanMinifiedValue(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, seen: inout UInt64) -> Int? {
        let count = bytes.count
        var index = start
        // One bit a level, set for an object.
        var objects: UInt64 = 0
        var depth = 0
        // No nested functions: capturing `index` would cost an exclusivity check on every access.

        value: while true {
            guard index < count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard let end = stringEnd(bytes, from: index, seen: &seen) else { return nil }
                index = end
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < 64 else { return nil }
                let isObject = bytes[index] == UInt8(ascii: "{")
                let bit: UInt64 = 1 << UInt64(depth)
                objects = isObject ? objects | bit : objects & ~bit
                depth += 1
                index += 1
                guard index < count else { return nil }
                if bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    depth -= 1
                    index += 1
                } else {
                    if isObject {
                        guard let end = keyEnd(bytes, from: index, seen: &seen) else { return nil }
                        index = end
                    }
                    continue value
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < count, isDigit(bytes[index]) else { return nil }
                if bytes[index] == UInt8(ascii: "0") {
                    index += 1
                } else {
                    while index < count, isDigit(bytes[index]) { index += 1 }
                }
                if index < count, bytes[index] == UInt8(ascii: ".") {
                    index += 1
                    guard index < count, isDigit(bytes[index]) else { return nil }
                    while index < count, isDigit(bytes[index]) { index += 1 }
                }
                if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                    index += 1
                    if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                        index += 1
                    }
                    guard index < count, isDigit(bytes[index]) else { return nil }
                    while index < count, isDigit(bytes[index]) { index += 1 }
                }
            case UInt8(ascii: "t"):
                guard let end = literalEnd("true", bytes, from: index) else { return nil }
                index = end
            case UInt8(ascii: "f"):
                guard let end = literalEnd("false", bytes, from: index) else { return nil }
                index = end
            case UInt8(ascii: "n"):
                guard let end = literalEnd("null", bytes, from: index) else { return nil }
                index = end
            default:
                return nil
            }
            // After a value: close containers, or go on to the next element.
            while true {
                guard depth > 0 else { return index }
                guard index < count else { return nil }
                let isObject = objects & (1 << UInt64(depth - 1)) != 0
                switch bytes[index] {
                case UInt8(ascii: ","):
                    index += 1
                    if isObject {
                        guard let end = keyEnd(bytes, from: index, seen: &seen) else { return nil }
                        index = end
                    }
                    continue value
                case UInt8(ascii: "}") where isObject, UInt8(ascii: "]") where !isObject:
                    depth -= 1
                    index += 1
                default:
                    return nil
                }
            }
        }
    }

    /// Whether the bytes a scan OR-ed into `seen` are all ASCII.
    static func isASCII(_ seen: UInt64) -> Bool { seen & 0x8080_8080_8080_8080 == 0 }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// The index after `text` when it stands at `start`.
    private static func literalEnd(_ text: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let end = start + text.utf8CodeUnitCount
        guard end <= bytes.count, UnsafeBufferPointer(rebasing: bytes[start..<end]).spells(text) else { return nil }
        return end
    }

    /// The index after a valid key and its colon at `start`.
    @inline(__always)
    private static func keyEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, seen: inout UInt64) -> Int? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "\""),
            let end = stringEnd(bytes, from: start, seen: &seen),
            end < bytes.count, bytes[end] == UInt8(ascii: ":")
        else { return nil }
        return end + 1
    }

    /// The index after the valid string whose opening quote is at `start`; `nil` for one that is
    /// not. Its bytes are OR-ed into `seen`, all bits where it has escapes.
    @inline(__always)
    private static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, seen: inout UInt64) -> Int? {
        let index = firstSpecialByte(bytes, from: start + 1, seen: &seen)
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return index + 1
        case UInt8(ascii: "\\"):
            // Rare in stored text: the general scanner checks the escapes, and the caller the UTF-8.
            seen = ~0
            var end = start
            return (try? scanString(bytes, from: &end)) == nil ? nil : end
        default:
            return nil  // a control character
        }
    }

    /// The index of the first `"`, `\\` or control character (below 0x20) from `start` on, or the
    /// end: what ends the plain run of a string. Eight bytes at a time, since ids, types and
    /// values are read this way on every row.
    @inline(__always)
    static func firstSpecialByte(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var seen: UInt64 = 0
        return firstSpecialByte(bytes, from: start, seen: &seen)
    }

    /// ``firstSpecialByte(_:from:)``, OR-ing into `seen` every byte it passes over, and those of
    /// the word it stops in.
    @inline(__always)
    static func firstSpecialByte(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, seen: inout UInt64) -> Int {
        var index = start
        #if _endian(little)  // the lowest byte of a loaded word is the first
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while index + 8 <= bytes.count {
                    let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    seen |= word
                    // A byte of `x` is zero where the high bit of `(x - 0x01…) & ~x & 0x80…` is set
                    // (exact for the lowest such byte, which is the one found).
                    let lows: UInt64 = 0x0101_0101_0101_0101
                    let highs: UInt64 = 0x8080_8080_8080_8080
                    func zeroBytes(_ x: UInt64) -> UInt64 { (x &- lows) & ~x & highs }
                    let quote = zeroBytes(word ^ (lows &* 0x22))
                    let backslash = zeroBytes(word ^ (lows &* 0x5C))
                    let control = (word &- lows &* 0x20) & ~word & highs
                    let found = quote | backslash | control
                    if found != 0 { return index + found.trailingZeroBitCount / 8 }
                    index += 8
                }
            }
        #endif
        while index < bytes.count {
            let byte = bytes[index]
            seen |= UInt64(byte)
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return index }
            index += 1
        }
        return index
    }

    /// The containers a scan is inside, innermost last: one bit each in a word while the nesting
    /// is shallow, as nearly every value's is, so that a scan allocates nothing.
    private struct OpenContainers {
        private var objects: UInt64 = 0
        private var deeper: [Bool] = []
        private(set) var depth = 0

        /// `[` or `{`.
        mutating func push(_ opener: UInt8) {
            let isObject = opener == UInt8(ascii: "{")
            if depth < 64 {
                let bit: UInt64 = 1 << UInt64(depth)
                objects = isObject ? objects | bit : objects & ~bit
            } else {
                deeper.append(isObject)
            }
            depth += 1
        }

        mutating func pop() {
            depth -= 1
            if depth >= 64 { deeper.removeLast() }
        }

        /// The innermost container's opener, `nil` when the scan is inside none.
        var last: UInt8? {
            guard depth > 0 else { return nil }
            let isObject = depth > 64 ? deeper[deeper.count - 1] : objects & (1 << UInt64(depth - 1)) != 0
            return isObject ? UInt8(ascii: "{") : UInt8(ascii: "[")
        }
    }

    static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return index
            }
        }
        return index
    }

    /// Passes over a string starting at its opening quote.
    static func scanString(_ bytes: UnsafeBufferPointer<UInt8>, from index: inout Int) throws(Failure) {
        let start = index
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    index += 1
                    for _ in 0..<4 {
                        guard index < bytes.count, hexValue(bytes[index]) != nil else {
                            throw Failure(message: "expected four hex digits after \\u", offset: index)
                        }
                        index += 1
                    }
                default:
                    throw Failure(message: "invalid escape in string", offset: index - 1)
                }
            case 0x00..<0x20:
                throw Failure(message: "unescaped control character in string", offset: index)
            default:
                index += 1
            }
        }
        throw Failure(message: "unterminated string", offset: start)
    }

    static func scanNumber(_ bytes: UnsafeBufferPointer<UInt8>, from index: inout Int) throws(Failure) {
        func digits(_ index: inout Int) -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            return index - start
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else {
            throw Failure(message: "expected a digit", offset: index)
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            _ = digits(&index)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&index) > 0 else { throw Failure(message: "expected a digit after '.'", offset: index) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&index) > 0 else { throw Failure(message: "expected a digit in the exponent", offset: index) }
        }
    }

    static func scanLiteral(
        _ literal: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, from index: inout Int
    ) throws(Failure) {
        let start = index
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard index < bytes.count, bytes[index] == byte else {
                throw Failure(message: "expected a JSON value", offset: start)
            }
            index += 1
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Copies valid JSON without the whitespace outside its strings.
    static func stripWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                out.append(byte)
            } else {
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D: continue
                case UInt8(ascii: "\""): inString = true
                default: break
                }
                out.append(byte)
            }
        }
        return out
    }
}
