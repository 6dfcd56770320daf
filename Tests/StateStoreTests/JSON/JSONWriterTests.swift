import Foundation
import StateStore
import Testing

/// The writer the store writes its columns with: strings escaped exactly where JSON needs it,
/// wherever a special byte falls among the eight read at a time, and a route written in one call
/// as the general calls write it.
struct JSONWriterTests {
    /// Strings with `"`, `\` and control characters at every place in and around an eight-byte
    /// word, non-ASCII text, and none at all.
    static let strings: [String] = {
        var strings = ["", "plain", "MailApp.Thread", "é🪟ü", String(repeating: "x", count: 40)]
        for special in ["\"", "\\", "\n", "\u{1}", "\u{1F}"] {
            for place in 0..<18 {
                strings.append(
                    String(repeating: "a", count: place) + special + String(repeating: "b", count: 17 - place))
            }
            strings.append(special + special + "é" + special)
        }
        return strings
    }()

    /// JSON's escapes, one byte at a time: what the writer must agree with.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    @Test(arguments: strings)
    func aStringIsEscapedWhereJSONNeedsIt(_ text: String) throws {
        var writer = JSONWriter()
        writer.string(text)
        #expect(writer.text == "\"" + Self.escaped(text) + "\"")
        let decoded = try JSONSerialization.jsonObject(with: Data(writer.bytes), options: .fragmentsAllowed)
        #expect(decoded as? String == text)
    }

    @Test(arguments: strings.filter { !$0.isEmpty && !$0.unicodeScalars.contains { $0.value < 0x20 } })
    func aRouteInOneCallIsWhatTheGeneralCallsWrite(_ type: String) throws {
        let route = try Route(type: type, json: #"{"id":42,"name":"a\"b"}"#)
        var fast = JSONWriter()
        fast.beginArray()
        route.write(to: &fast)
        route.write(to: &fast)
        fast.endArray()

        var general = JSONWriter()
        general.beginArray()
        for _ in 0..<2 {
            general.beginObject()
            general.key("type")
            general.string(route.type)
            general.key("value")
            general.json(route.json)
            general.endObject()
        }
        general.endArray()
        #expect(fast.text == general.text)
        #expect(fast.text == "[" + Array(repeating: route.jsonObject, count: 2).joined(separator: ",") + "]")
    }

    /// Commas at every depth, below, at and past the 64 levels the writer keeps without
    /// allocating: each array holds its level, the next array, and its level again, and the
    /// innermost holds an object of two keys.
    @Test(arguments: [1, 2, 63, 64, 65, 66, 130])
    func commasAreRightAtEveryDepth(_ depth: Int) throws {
        var writer = JSONWriter()
        for level in 0..<depth {
            writer.beginArray()
            writer.integer(level)
        }
        writer.beginObject()
        writer.key("a")
        writer.integer(1)
        writer.key("b")
        writer.bool(true)
        writer.endObject()
        for level in (0..<depth).reversed() {
            writer.integer(level)
            writer.endArray()
        }
        func expected(_ level: Int) -> String {
            let inner = level + 1 < depth ? expected(level + 1) : #"{"a":1,"b":true}"#
            return "[\(level),\(inner),\(level)]"
        }
        #expect(writer.text == expected(0))
        #expect(try JSONSerialization.jsonObject(with: Data(writer.bytes)) is [Any])

        // Emptied, the writer starts again at the top level, with no comma left over.
        writer.removeAll()
        writer.beginArray()
        writer.integer(7)
        writer.endArray()
        #expect(writer.text == "[7]")
    }
}

extension Route {
    /// The route as `{"type":…,"value":…}`, spelled out by hand.
    fileprivate var jsonObject: String {
        #"{"type":""# + JSONWriterTests.escaped(type) + #"","value":"# + json + "}"
    }
}
