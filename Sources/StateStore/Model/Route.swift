/// One element of a navigation stack: a type name and a JSON value, exactly one element of
/// SwiftUI's `NavigationPath.CodableRepresentation`.
///
/// The value is held as minified JSON text, so a host decodes it into its own `Codable` type and
/// the store never parses it again on the way in or out.
public struct Route: Hashable, Sendable, CustomStringConvertible {
    /// The UTF-8 the type and the value are read from: the route's own, for one made here; for
    /// the routes read from one of the store's rows, that row's, which they share (one
    /// allocation for all of them, and nothing built that is not asked for).
    private let text: [UInt8]
    /// Where the type's bytes and the value's stand in ``text``.
    private let typeStart: UInt32
    private let typeEnd: UInt32
    private let valueStart: UInt32
    private let valueEnd: UInt32

    /// The type name, e.g. `MailApp.Thread`: 1–256 bytes, no control characters.
    public var type: String { withTypeUTF8 { String(decoding: $0, as: UTF8.self) } }

    /// The value as minified JSON text; `null` when the route carries no value.
    /// ``withJSONUTF8(_:)`` lends its bytes without building a string.
    public var json: String { withJSONUTF8 { String(decoding: $0, as: UTF8.self) } }

    /// A route of `type` whose value is the JSON text `json`, minified. Throws
    /// ``StateStoreError/invalidInput(_:)`` for a bad type, bad JSON or a value over 64 KiB.
    public init(type: String, json: String = "null") throws(StateStoreError) {
        try validateIdentifier(type, "route type")
        let minified: String
        do {
            minified = try JSONSyntax.minify(json)
        } catch {
            throw .invalidInput("route '\(type)': invalid JSON value: \(error.description)")
        }
        guard minified.utf8.count <= Limits.routeValueBytes else {
            throw .invalidInput(
                "route '\(type)': value is \(minified.utf8.count) bytes of JSON; the limit is \(Limits.routeValueBytes)"
            )
        }
        self.init(validType: type, minifiedJSON: minified)
    }

    /// For text the store wrote itself, already validated and minified.
    init(validType type: String, minifiedJSON json: String) {
        var (type, json) = (type, json)
        self = type.withUTF8 { type in json.withUTF8 { Route(validTypeUTF8: type, minifiedJSONUTF8: $0) } }
    }

    /// ``init(validType:minifiedJSON:)`` from well-formed UTF-8, copied into one text.
    init(validTypeUTF8 type: UnsafeBufferPointer<UInt8>, minifiedJSONUTF8 json: UnsafeBufferPointer<UInt8>) {
        var text: [UInt8] = []
        text.reserveCapacity(type.count + json.count)
        text.append(contentsOf: type)
        text.append(contentsOf: json)
        self.init(sharing: text, type: 0..<type.count, value: type.count..<text.count)
    }

    /// For a type and a value the store wrote, already validated and minified, standing at `type`
    /// and `value` in `text`, which the route shares.
    init(sharing text: [UInt8], type: Range<Int>, value: Range<Int>) {
        self.text = text
        typeStart = UInt32(type.lowerBound)
        typeEnd = UInt32(type.upperBound)
        valueStart = UInt32(value.lowerBound)
        valueEnd = UInt32(value.upperBound)
    }

    /// Lends the type's UTF-8 to `body` and returns what it returns: the bytes ``type`` spells.
    public func withTypeUTF8<T, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T) throws(E) -> T {
        try bytes(Int(typeStart)..<Int(typeEnd), body)
    }

    /// Lends the value's minified JSON, as UTF-8, to `body` and returns what it returns: the bytes
    /// ``json`` spells, without building a string.
    public func withJSONUTF8<T, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T) throws(E) -> T {
        try bytes(Int(valueStart)..<Int(valueEnd), body)
    }

    private func bytes<T, E: Error>(
        _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T
    ) throws(E) -> T {
        var result: Result<T, E>?
        text.withUnsafeBufferPointer { text in
            result = Result { () throws(E) -> T in try body(UnsafeBufferPointer(rebasing: text[range])) }
        }
        return try result!.get()
    }

    /// The value's length in bytes of minified JSON.
    var jsonByteCount: Int { Int(valueEnd - valueStart) }

    /// Whether the route's type is `type`, told on the bytes, without building a string.
    public func hasType(_ type: String) -> Bool {
        var type = type
        return type.withUTF8 { expected in withTypeUTF8 { $0.hasSameBytes(as: expected) } }
    }

    /// Routes are equal when their types are the same bytes and their values the same bytes of
    /// minified JSON, wherever each is held. (Text that differs only in its Unicode normalization
    /// is not the same route: the store keeps and compares what was written, byte for byte.)
    public static func == (lhs: Route, rhs: Route) -> Bool {
        guard lhs.typeEnd - lhs.typeStart == rhs.typeEnd - rhs.typeStart, lhs.jsonByteCount == rhs.jsonByteCount
        else { return false }
        // Eight bytes at a time, and none for two copies of one route (the same bytes in the same
        // place), as a model's routes mostly are when it compares them.
        return lhs.withTypeUTF8 { left in rhs.withTypeUTF8 { left.hasSameBytes(as: $0) } }
            && lhs.withJSONUTF8 { left in rhs.withJSONUTF8 { left.hasSameBytes(as: $0) } }
    }

    /// Hashes what ``==(_:_:)`` compares: the type's bytes, then the value's.
    public func hash(into hasher: inout Hasher) {
        withTypeUTF8 { type in
            hasher.combine(type.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(type))
        }
        withJSONUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The command-line form, which `statectl` reads back as this route: `TYPE:JSON`, or
    /// `TYPE` when the value is `null`; the JSON object `{"type":…,"value":…}` when the type holds
    /// a `:` or starts with `{`, where the short form would be read otherwise.
    public var description: String {
        guard type.utf8.contains(UInt8(ascii: ":")) || type.utf8.first == UInt8(ascii: "{") else {
            return json == "null" ? type : "\(type):\(json)"
        }
        var writer = JSONWriter()
        write(to: &writer)
        return writer.text
    }

    /// Writes `{"type": ..., "value": ...}`.
    ///
    /// Package surface: statectl writes routes into its `--json` output with it, each value as the
    /// store holds it.
    package func write(to writer: inout JSONWriter) {
        withTypeUTF8 { type in withJSONUTF8 { writer.route(typeUTF8: type, jsonUTF8: $0) } }
    }
}

extension [Route] {
    /// Writes the routes as a JSON array of `{"type": ..., "value": ...}` objects.
    ///
    /// Package surface: statectl writes paths into its `--json` output with it.
    package func write(to writer: inout JSONWriter) {
        writer.beginArray()
        for route in self { route.write(to: &writer) }
        writer.endArray()
    }
}

extension JSONReader {
    /// Reads a `{"type": ..., "value": ...}` object, validating it as outside text: `value` may be
    /// absent (null); the type and the value's size are checked.
    mutating func readRoute() throws(Failure) -> Route {
        try readRouteObject(validating: true)
    }

    /// Reads a route object with any keys in any order; with `validating` false (text the store
    /// wrote) the type and size checks are skipped.
    mutating func readRouteObject(validating: Bool) throws(Failure) -> Route {
        var type: String?
        var json: String?
        let start = index
        try readObject { reader, key throws(Failure) in
            switch key {
            case "type" where type == nil:
                type = try reader.readString()
            case "value" where json == nil:
                json = try reader.readValueText()
            case "type", "value":
                throw Failure(message: "route has '\(key)' twice", offset: reader.index)
            default:
                throw Failure(message: "route has an unknown key '\(key)'", offset: reader.index)
            }
        }
        guard let type else { throw Failure(message: "route has no 'type'", offset: start) }
        guard validating else { return Route(validType: type, minifiedJSON: json ?? "null") }
        do {
            return try Route(type: type, json: json ?? "null")
        } catch {
            throw Failure(message: error.description, offset: start)
        }
    }

    /// Reads an array of route objects, validating each.
    mutating func readRoutes() throws(Failure) -> [Route] {
        var routes: [Route] = []
        try readArray { reader throws(Failure) in routes.append(try reader.readRoute()) }
        return routes
    }
}
