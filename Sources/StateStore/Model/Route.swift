/// One element of a navigation stack: a type name and a JSON value, exactly one element of
/// SwiftUI's `NavigationPath.CodableRepresentation`.
///
/// The value is held as minified JSON text, so a host decodes it into its own `Codable` type and
/// the store never parses it again on the way in or out.
public struct Route: Hashable, Sendable, CustomStringConvertible {
    /// The type name, e.g. `MailApp.Thread`: 1–256 bytes, no control characters.
    public let type: String
    /// The value as minified JSON text; `null` when the route carries no value.
    public let json: String

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

    /// A route from the command-line form `TYPE` (value `null`) or `TYPE:JSON`, split at the
    /// first `:`, such as `Folder:"inbox"` or `Thread:{"id":42}`; or, for an argument starting
    /// with `{`, the JSON object `{"type": …, "value": …}` (`value` optional), which any type
    /// can be written in (`{"type":"(a: Swift.Int, b: Swift.Int)","value":[1,2]}`).
    package init(parsing argument: String) throws(StateStoreError) {
        if argument.utf8.first == UInt8(ascii: "{") {
            do {
                self = try JSONReader.read(argument) { reader throws(JSONReader.Failure) in
                    let route = try reader.readRoute()
                    try reader.expectEnd()
                    return route
                }
            } catch {
                throw .invalidInput("route written as a JSON object: \(error.description)")
            }
            return
        }
        guard let colon = argument.utf8.firstIndex(of: UInt8(ascii: ":")) else {
            try self.init(type: argument)
            return
        }
        let type = String(argument[..<colon])
        let json = String(argument[argument.index(after: colon)...])
        guard !json.isEmpty else {
            throw .invalidInput("route '\(argument)': nothing after ':' (write TYPE for a null value, or TYPE:JSON)")
        }
        try self.init(type: type, json: json)
    }

    /// For text the store wrote itself, already validated and minified.
    init(validType type: String, minifiedJSON json: String) {
        self.type = type
        self.json = json
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
    package func write(to writer: inout JSONWriter) {
        writer.route(type: type, json: json)
    }
}

extension [Route] {
    /// Writes the routes as a JSON array of `{"type": ..., "value": ...}` objects.
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
