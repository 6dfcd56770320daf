/// Reading what the store wrote, fast: a row is read for every window listed or restored, so the
/// shapes the store writes are matched on their bytes, without building keys or strings, and
/// anything else goes through the general reader.

extension JSONReader {
    /// Where a route the store wrote stands in a column's bytes: its type's and its value's.
    struct StoredRouteSpan {
        var type: Range<Int>
        var value: Range<Int>
    }

    /// Reads a route the store wrote, not validated again. The store writes every route as
    /// `{"type":…,"value":…}`, minified and in that order, so that shape is read directly; any
    /// other goes through the general reader.
    mutating func readStoredRoute() throws(Failure) -> Route {
        if let span = try storedRouteSpan() { return route(at: span) }
        return try readRouteObject(validating: false)
    }

    /// Reads an array of routes the store wrote. The store's own shape is checked whole first, in
    /// place, and only then built, into an array of exactly its length (one allocation); any other
    /// shape, or a stack longer than ``inlineSpans``, goes through ``readStoredRoute()`` element by
    /// element.
    mutating func readStoredRoutes() throws(Failure) -> [Route] {
        if consume("[]") { return [] }
        let checked = try backtracking { reader throws(Failure) -> [Route]? in
            try withUnsafeTemporaryAllocation(of: StoredRouteSpan.self, capacity: Self.inlineSpans) { spans in
                Result { () throws(Failure) -> [Route]? in
                    guard let count = try reader.storedRouteSpans(into: spans) else { return nil }
                    return [Route](unsafeUninitializedCapacity: count) { routes, initialized in
                        for offset in 0..<count {
                            (routes.baseAddress! + offset).initialize(to: reader.route(at: spans[offset]))
                        }
                        initialized = count
                    }
                }
            }.get()
        }
        if let checked { return checked }
        var routes: [Route] = []
        try readArray { reader throws(Failure) in routes.append(try reader.readStoredRoute()) }
        return routes
    }

    /// How many routes ``readStoredRoutes()`` checks in place before it builds them: a window's
    /// stack is rarely deeper.
    static let inlineSpans = 16

    /// Checks `[{"type":…,"value":…},…]` in the store's shape, recording each route's span; the
    /// count, or `nil` (the reader anywhere) for another shape or more routes than `spans` holds.
    /// Throws only for a value that is not JSON, which no shape would make readable.
    private mutating func storedRouteSpans(
        into spans: UnsafeMutableBufferPointer<StoredRouteSpan>
    ) throws(Failure) -> Int? {
        guard consume("[") else { return nil }
        var count = 0
        while true {
            guard count < spans.count, let span = try storedRouteSpan() else { return nil }
            (spans.baseAddress! + count).initialize(to: span)
            count += 1
            if consume("]") { return count }
            guard consume(",") else { return nil }
        }
    }

    /// Checks one route in the store's shape at the reader and passes over it; `nil`, the reader
    /// where it was, for any other shape.
    private mutating func storedRouteSpan() throws(Failure) -> StoredRouteSpan? {
        try backtracking { reader throws(Failure) -> StoredRouteSpan? in
            guard reader.consume(#"{"type":"#), let type = reader.consumePlainStringRange(),
                reader.consume(#","value":"#), let value = try reader.consumeMinifiedValueRange(), reader.consume("}")
            else { return nil }
            return StoredRouteSpan(type: type, value: value)
        }
    }

    private func route(at span: StoredRouteSpan) -> Route {
        Route(
            validType: String(decoding: UnsafeBufferPointer(rebasing: bytes[span.type]), as: UTF8.self),
            minifiedJSON: String(decoding: UnsafeBufferPointer(rebasing: bytes[span.value]), as: UTF8.self))
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
