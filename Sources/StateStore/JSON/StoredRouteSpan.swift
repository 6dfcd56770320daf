/// The shape the store writes every route in, `{"type":…,"value":…}` minified and in that order,
/// found in place: where each route's type and value stand, checked, nothing built (the routes are
/// built in Model/StoredRoutes.swift); any other shape goes through the general reader.

extension JSONReader {
    /// Where a route the store wrote stands in a column's bytes: its type's and its value's.
    struct StoredRouteSpan {
        var type: Range<Int>
        var value: Range<Int>
    }

    /// Checks `[{"type":…,"value":…},…]` in the store's shape, recording each route's span;
    /// `false` (the reader anywhere) for another shape. Throws only for a value that is not JSON,
    /// which no shape would make readable. The routes' bytes are OR-ed into `seen`, as
    /// ``storedRouteSpan(seen:)`` does.
    mutating func storedRouteSpans(
        into spans: inout [StoredRouteSpan], seen: inout UInt64
    ) throws(Failure) -> Bool {
        guard consume("[") else { return false }
        while true {
            guard let span = try storedRouteSpan(seen: &seen) else { return false }
            spans.append(span)
            if consume("]") { return true }
            guard consume(",") else { return false }
        }
    }

    /// Checks one route in the store's shape at the reader and passes over it; `nil`, the reader
    /// where it was, for any other shape. Every byte of the route that is not ASCII stands in a
    /// string, and its strings' bytes are OR-ed into `seen` (all bits where it has escapes): a
    /// caller that read a whole text so tells it is ASCII without a pass of its own.
    mutating func storedRouteSpan(seen: inout UInt64) throws(Failure) -> StoredRouteSpan? {
        try backtracking { reader throws(Failure) -> StoredRouteSpan? in
            guard reader.consume(#"{"type":"#), let type = reader.consumePlainStringRange(seen: &seen),
                reader.consume(#","value":"#), let value = try reader.consumeMinifiedValueRange(seen: &seen),
                reader.consume("}")
            else { return nil }
            return StoredRouteSpan(type: type, value: value)
        }
    }
}
