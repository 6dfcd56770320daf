/// Writes minified JSON into a byte buffer, placing commas itself.
///
/// The store writes its columns with it and `statectl` renders with it, so a route's value, kept
/// as JSON text, goes out exactly as it was stored.
///
/// Package surface: statectl writes all of its `--json` output with it (the writer and each of its
/// methods), so that it writes what the store writes, in the same spelling.
package struct JSONWriter: Sendable {
    /// The JSON written so far, as UTF-8.
    package private(set) var bytes: [UInt8] = []
    // Whether each open container already holds an element: bit `d` for the container at depth
    // `d + 1`, for the first 64 levels, which need no allocation; deeper ones in `deepHolds`.
    private var depth = 0
    private var shallowHolds: UInt64 = 0
    private var deepHolds: [Bool] = []
    private var afterKey = false

    /// A writer with an empty buffer.
    package init(reservingCapacity capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its storage, so a writer can be reused line after line.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        depth = 0
        shallowHolds = 0
        deepHolds.removeAll(keepingCapacity: true)
        afterKey = false
    }

    /// Hands over the bytes written so far and empties the buffer, keeping the writer's place
    /// inside open arrays and objects: a long document goes out in chunks.
    package mutating func takeBytes() -> [UInt8] {
        let taken = bytes
        bytes.removeAll(keepingCapacity: true)
        return taken
    }

    /// The text written so far.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    package mutating func beginObject() {
        open(UInt8(ascii: "{"))
    }

    package mutating func endObject() {
        close(UInt8(ascii: "}"))
    }

    package mutating func beginArray() {
        open(UInt8(ascii: "["))
    }

    package mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        depth += 1
        if depth <= 64 {
            shallowHolds &= ~(1 << UInt64(depth - 1))
        } else {
            deepHolds.append(false)
        }
    }

    private mutating func close(_ bracket: UInt8) {
        if depth > 64 { deepHolds.removeLast() }
        depth -= 1
        bytes.append(bracket)
    }

    /// An object key; the next write is its value.
    package mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    package mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A string given as its UTF-8, which must be well-formed, such as an id a listing lends.
    package mutating func string(utf8 value: UnsafeBufferPointer<UInt8>) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(utf8: value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A route as `{"type":…,"value":…}`, its value as stored: what ``beginObject()``, the two
    /// keys, ``string(_:)``, ``json(_:)`` and ``endObject()`` write, in one call. A save writes
    /// one for every route of a window.
    package mutating func route(type: String, json: String) {
        var (type, json) = (type, json)
        type.withUTF8 { type in json.withUTF8 { route(typeUTF8: type, jsonUTF8: $0) } }
    }

    /// ``route(type:json:)`` with both given as their UTF-8, as a route lends them.
    package mutating func route(typeUTF8 type: UnsafeBufferPointer<UInt8>, jsonUTF8 json: UnsafeBufferPointer<UInt8>) {
        separate()
        append(#"{"type":""#)
        appendEscaped(utf8: type)
        append(#"","value":"#)
        bytes.append(contentsOf: json)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// The UTF-8 of `value`, each byte JSON must escape escaped.
    private mutating func appendEscaped(_ value: String) {
        var value = value
        value.withUTF8 { appendEscaped(utf8: $0) }
    }

    /// `utf8`, each byte JSON must escape escaped; runs between them copied whole.
    private mutating func appendEscaped(utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        while true {
            let special = JSONSyntax.firstSpecialByte(utf8, from: runStart)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<special]))
            guard special < utf8.count else { return }
            appendEscape(utf8[special])
            runStart = special + 1
        }
    }

    package mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    package mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// A string whose characters `append` adds to the buffer as they are, none of them one JSON
    /// escapes (a timestamp's digits and punctuation): written in place, with no string made.
    package mutating func string(appendingPlain append: (inout [UInt8]) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        append(&bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A value that is already valid, minified JSON text, such as ``Route/json``.
    package mutating func json(_ text: String) {
        var text = text
        text.withUTF8 { json(utf8: $0) }
    }

    /// A value that is already valid, minified JSON text, given as its UTF-8, such as the item a
    /// listing lends.
    package mutating func json(utf8 text: UnsafeBufferPointer<UInt8>) {
        separate()
        bytes.append(contentsOf: text)
    }

    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        if depth <= 64 {
            let bit: UInt64 = 1 << UInt64(depth - 1)
            if shallowHolds & bit != 0 { bytes.append(UInt8(ascii: ",")) }
            shallowHolds |= bit
        } else {
            if deepHolds[depth - 65] { bytes.append(UInt8(ascii: ",")) }
            deepHolds[depth - 65] = true
        }
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: bytes.append(UInt8(ascii: "\""))
        case 0x5C: bytes.append(UInt8(ascii: "\\"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }
}
