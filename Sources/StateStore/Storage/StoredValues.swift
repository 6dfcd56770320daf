/// Reading what the store wrote, fast: a row is read for every window listed or restored, so the
/// shapes the store writes are matched on their bytes, without building keys or strings, and
/// anything else goes through the general reader.

extension JSONReader {
    /// Reads a route the store wrote, not validated again. The store writes every route as
    /// `{"type":…,"value":…}`, minified and in that order, so that shape is read directly; any
    /// other goes through the general reader.
    mutating func readStoredRoute() throws(Failure) -> Route {
        let route = try backtracking { reader throws(Failure) -> Route? in
            guard reader.consume(#"{"type":"#), let type = reader.consumePlainString(), reader.consume(#","value":"#),
                let value = try reader.consumeMinifiedValue(), reader.consume("}")
            else { return nil }
            return Route(
                validType: String(decoding: type, as: UTF8.self), minifiedJSON: String(decoding: value, as: UTF8.self))
        }
        if let route { return route }
        return try readRouteObject(validating: false)
    }

    /// Reads an array of routes the store wrote.
    mutating func readStoredRoutes() throws(Failure) -> [Route] {
        var routes: [Route] = []
        try readArray { reader throws(Failure) in routes.append(try reader.readStoredRoute()) }
        return routes
    }
}

extension SizeClass {
    /// The size class a stored column spells, without building a string.
    init?(utf8 text: UnsafeBufferPointer<UInt8>) {
        switch text.first {
        case UInt8(ascii: "c") where text.spells("compact"): self = .compact
        case UInt8(ascii: "r") where text.spells("regular"): self = .regular
        case UInt8(ascii: "u") where text.spells("unspecified"): self = .unspecified
        default: return nil
        }
    }
}

extension SizeChangePolicy {
    /// The policy a stored column spells, without building a string.
    init?(utf8 text: UnsafeBufferPointer<UInt8>) {
        switch text.first {
        case UInt8(ascii: "m") where text.spells("migrate"): self = .migrate
        case UInt8(ascii: "d") where text.spells("dismiss"): self = .dismiss
        default: return nil
        }
    }
}
