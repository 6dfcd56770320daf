/// Converts a route stack to and from SwiftUI's `NavigationPath.CodableRepresentation` JSON: an
/// array of strings, two per element — the type name, then the element's JSON as a string — last
/// element first. A host hands the text to `NavigationPath(codable)` unchanged.
public enum NavigationPathCoding {
    /// The representation of `routes` (bottom first), e.g. `["App.Thread","{\"id\":42}","App.Folder","\"inbox\""]`.
    public static func json(for routes: [Route]) -> String {
        var writer = JSONWriter()
        writer.beginArray()
        for route in routes.reversed() {
            route.withTypeUTF8 { writer.string(utf8: $0) }
            route.withJSONUTF8 { writer.string(utf8: $0) }
        }
        writer.endArray()
        return writer.text
    }

    /// The routes (bottom first) of a representation. An odd count, a non-string entry, element
    /// JSON that does not parse or a bad type is ``StateStoreError/invalidInput(_:)``.
    public static func routes(from json: String) throws(StateStoreError) -> [Route] {
        var strings: [String] = []
        do {
            try JSONReader.read(json) { reader throws(JSONReader.Failure) in
                try reader.readArray { reader throws(JSONReader.Failure) in
                    guard reader.peek() == UInt8(ascii: "\"") else {
                        throw JSONReader.Failure(
                            message: "entry \(strings.count) is not a string", offset: reader.index)
                    }
                    strings.append(try reader.readString())
                }
                try reader.expectEnd()
            }
        } catch {
            throw .invalidInput("invalid NavigationPath representation: \(error.description)")
        }
        guard strings.count.isMultiple(of: 2) else {
            throw .invalidInput(
                "invalid NavigationPath representation: \(strings.count) entries; it needs a type and a value for each element"
            )
        }
        var routes: [Route] = []
        routes.reserveCapacity(strings.count / 2)
        for pair in stride(from: strings.count - 2, through: 0, by: -2) {
            do {
                routes.append(try Route(type: strings[pair], json: strings[pair + 1]))
            } catch {
                throw .invalidInput(
                    "invalid NavigationPath representation: element at entries \(pair)–\(pair + 1): \(error)")
            }
        }
        return routes
    }
}
