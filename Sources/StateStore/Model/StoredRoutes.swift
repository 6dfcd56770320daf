/// Reading what the store wrote, fast: a row is read for every window listed or restored, so the
/// shapes the store writes are matched on their bytes, without building keys or strings, and
/// anything else goes through the general reader.

extension JSONReader {
    /// Reads a route the store wrote, not validated again. The store writes every route as
    /// `{"type":…,"value":…}`, minified and in that order, so that shape is read directly; any
    /// other goes through the general reader.
    mutating func readStoredRoute() throws(Failure) -> Route {
        let start = index
        var seen: UInt64 = 0
        guard let span = try storedRouteSpan(seen: &seen) else { return try readRouteObject(validating: false) }
        // A route that is the whole text (an item column) shares it; one of many (a stack in
        // another shape, read route by route) copies only its own bytes.
        return route(at: span, in: start == 0 && isAtEnd ? sharedText(seen: seen) : nil)
    }

    /// Reads an array of routes the store wrote. The store's own shape is checked whole first, in
    /// place, recording where each route stands (in a list reused from row to row), and only then
    /// built, into an array of exactly its length (one allocation); any other shape goes through
    /// ``readStoredRoute()`` element by element.
    mutating func readStoredRoutes(_ spans: inout [StoredRouteSpan]) throws(Failure) -> [Route] {
        if consume("[]") { return [] }
        spans.removeAll(keepingCapacity: true)
        let start = index
        let checked = try backtracking { reader throws(Failure) -> [Route]? in
            var seen: UInt64 = 0
            guard try reader.storedRouteSpans(into: &spans, seen: &seen) else { return nil }
            // What the scan saw tells the UTF-8 only where it covered the whole text.
            if start != 0 || !reader.isAtEnd { seen = ~0 }
            guard let text = reader.sharedText(seen: seen) else {
                return spans.map { reader.route(at: $0, in: nil) }
            }
            return Self.routes(at: spans, sharing: text)
        }
        if let checked { return checked }
        var routes: [Route] = []
        try readArray { reader throws(Failure) in routes.append(try reader.readStoredRoute()) }
        return routes
    }

    /// The reader's bytes, to share between its routes, when they are well-formed UTF-8 (ASCII
    /// by `seen`, what a scan of all of them saw, or by a check); `nil` when not, and each
    /// route's text is repaired on its own.
    private func sharedText(seen: UInt64) -> [UInt8]? {
        JSONSyntax.isASCII(seen) || bytes.isValidUTF8 ? Array(bytes) : nil
    }

    /// The route at `span` in `text`, which it shares; with no text, its own bytes copied out of
    /// the reader's into a text of its own, repaired as `String(decoding:as:)` repairs them where
    /// they are not well-formed UTF-8.
    private func route(at span: StoredRouteSpan, in text: [UInt8]?) -> Route {
        if let text { return Route(sharing: text, type: span.type, value: span.value) }
        let (type, value) = (
            UnsafeBufferPointer(rebasing: bytes[span.type]), UnsafeBufferPointer(rebasing: bytes[span.value])
        )
        guard type.isValidUTF8 && value.isValidUTF8 else {
            return Route(
                validType: String(decoding: type, as: UTF8.self), minifiedJSON: String(decoding: value, as: UTF8.self))
        }
        return Route(validTypeUTF8: type, minifiedJSONUTF8: value)
    }

    /// The routes at `spans` in `text`, which they share, in an array of exactly their count (one
    /// allocation).
    private static func routes(at spans: [StoredRouteSpan], sharing text: [UInt8]) -> [Route] {
        // Reserved, not `init(unsafeUninitializedCapacity:)`: that allocates through the
        // standard library's unspecialized code (a type-metadata lookup, about 500
        // instructions a row), this through code specialized for `Route`.
        var routes: [Route] = []
        routes.reserveCapacity(spans.count)
        for span in spans { routes.append(Route(sharing: text, type: span.type, value: span.value)) }
        return routes
    }
}

/// A route column's text read as a row's is, and as the general reader reads it, for the tests
/// and the fuzzer that check the fast paths against the general ones.
package enum StoredColumn {
    /// The routes a `path` or `item_path` column holding `text` reads as; throws for text a row
    /// could not hold.
    package static func routes(_ text: String) throws(StateStoreError) -> [Route] {
        var spans: [JSONReader.StoredRouteSpan] = []
        return try read(text) { reader throws(JSONReader.Failure) in try reader.readStoredRoutes(&spans) }
    }

    /// The same text through the general reader alone, which every other shape goes through.
    package static func routesByTheGeneralReader(_ text: String) throws(StateStoreError) -> [Route] {
        try read(text) { reader throws(JSONReader.Failure) in
            var routes: [Route] = []
            try reader.readArray { reader throws(JSONReader.Failure) in
                routes.append(try reader.readRouteObject(validating: false))
            }
            return routes
        }
    }

    /// Where a value at the start of `bytes` ends by the minified scan (`nil`: it leaves the
    /// value to the general one) and whether that scan saw only ASCII, and where it ends by the
    /// general scan, with whether that found whitespace.
    package static func valueEnds(
        _ bytes: [UInt8]
    ) -> (minified: Int?, sawOnlyASCII: Bool, general: (end: Int, hasWhitespace: Bool)?) {
        bytes.withUnsafeBufferPointer { bytes in
            var end = 0
            let general = try? JSONSyntax.scanValue(bytes, from: &end)
            var seen: UInt64 = 0
            let minified = JSONSyntax.scanMinifiedValue(bytes, from: 0, seen: &seen)
            return (minified, JSONSyntax.isASCII(seen), general.map { (end, $0.hasWhitespace) })
        }
    }

    private static func read(
        _ text: String, _ body: (inout JSONReader) throws(JSONReader.Failure) -> [Route]
    ) throws(StateStoreError) -> [Route] {
        do {
            return try JSONReader.read(text) { reader throws(JSONReader.Failure) in
                let routes = try body(&reader)
                try reader.expectEnd()
                return routes
            }
        } catch {
            throw .invalidInput("stored routes cannot be read: \(error.description)")
        }
    }
}
