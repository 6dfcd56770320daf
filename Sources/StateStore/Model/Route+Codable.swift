/// `Codable` for a route goes through a JSON tree, so that the value nests as JSON in any
/// encoder's output rather than as a string. The store and `statectl` never take this path: they
/// keep the value's text as written. Through `Codable`, numbers keep their value, not their spelling,
/// and an object's keys may come back in another order (decoders do not keep it).
extension Route: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, value
    }

    /// Reads `{"type": …, "value": …}`, the value nested as JSON (`value` absent: `null`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        let value = try container.decodeIfPresent(JSONValue.self, forKey: .value) ?? .null
        var writer = JSONWriter()
        value.write(to: &writer)
        try self.init(type: type, json: writer.text)
    }

    /// Writes `{"type": …, "value": …}`, the value nested as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        let value = try JSONReader.read(json) { reader throws(JSONReader.Failure) in try JSONValue(reading: &reader) }
        try container.encode(value, forKey: .value)
    }
}
