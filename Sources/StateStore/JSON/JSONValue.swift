/// A JSON value as a tree, for ``Route``'s `Codable` conformance, and for `statectl` to read what
/// another program prints (``init(document:)``).
///
/// Package surface: statectl reads the JSON that `xcrun simctl list devices -j` prints with
/// ``init(document:)``, and finds its way in it with ``Member``, the subscript and ``text``.
package enum JSONValue: Codable, Hashable {
    case null
    case bool(Bool)
    /// The number's text as written.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in their written order; duplicate keys kept.
    case object([Member])

    package struct Member: Hashable {
        package var key: String
        package var value: JSONValue
    }

    /// The one JSON value `bytes` hold, whitespace around it allowed; `nil` when they hold
    /// anything else.
    package init?(document bytes: [UInt8]) {
        let value = bytes.withUnsafeBufferPointer { buffer in
            try? { () throws(JSONReader.Failure) -> JSONValue in
                var reader = JSONReader(buffer)
                let value = try JSONValue(reading: &reader)
                try reader.expectEnd()
                return value
            }()
        }
        guard let value else { return nil }
        self = value
    }

    /// The value of the first member named `key`, for an object; `nil` otherwise.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The text of a string; `nil` for any other value.
    package var text: String? {
        if case .string(let text) = self { text } else { nil }
    }

    init(reading reader: inout JSONReader) throws(JSONReader.Failure) {
        switch reader.peek() {
        case UInt8(ascii: "{"):
            var members: [Member] = []
            try reader.readObject { reader, key throws(JSONReader.Failure) in
                members.append(Member(key: key, value: try JSONValue(reading: &reader)))
            }
            self = .object(members)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try reader.readArray { reader throws(JSONReader.Failure) in elements.append(try JSONValue(reading: &reader))
            }
            self = .array(elements)
        case UInt8(ascii: "\""):
            self = .string(try reader.readString())
        default:
            let text = try reader.readValueText()
            switch text {
            case "null": self = .null
            case "true": self = .bool(true)
            case "false": self = .bool(false)
            default: self = .number(text)
            }
        }
    }

    func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.bool(value)
        case .number(let text): writer.json(text)
        case .string(let value): writer.string(value)
        case .array(let elements):
            writer.beginArray()
            for element in elements { element.write(to: &writer) }
            writer.endArray()
        case .object(let members):
            writer.beginObject()
            for member in members {
                writer.key(member.key)
                member.value.write(to: &writer)
            }
            writer.endObject()
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            self = .object(
                try object.allKeys.map {
                    Member(key: $0.stringValue, value: try object.decode(JSONValue.self, forKey: $0))
                })
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let value = try? single.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? single.decode(Int64.self) {
                self = .number(String(value))
            } else if let value = try? single.decode(UInt64.self) {
                self = .number(String(value))
            } else if let value = try? single.decode(Double.self), value.isFinite {
                self = .number(String(value))
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let text):
            var single = encoder.singleValueContainer()
            if let value = Int64(text) {
                try single.encode(value)
            } else if let value = UInt64(text) {
                try single.encode(value)
            } else {
                try single.encode(Double(text) ?? 0)
            }
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let members):
            var object = encoder.container(keyedBy: AnyKey.self)
            for member in members { try object.encode(member.value, forKey: AnyKey(stringValue: member.key)) }
        }
    }
}
