/// One window of a listing, lent to the closure of
/// ``StateStore/forEachListedWindow(session:sizeClass:_:)`` for the length of one call: the row
/// as SQLite holds it, checked, with nothing built that the caller does not ask for.
///
/// The ids and the item are SQLite's own bytes, lent by ``withSessionUTF8(_:)``,
/// ``withWindowUTF8(_:)`` and ``withItemJSON(_:)``; ``session``, ``window``, ``item`` and
/// ``summary`` build values to keep. Both give what ``WindowSummary`` gives for the same row, byte
/// for byte. The row is checked once, before the closure sees it, exactly as a summary's is: a row
/// damaged or written by hand is an error naming the window, never lent.
///
/// It cannot be copied, so it cannot outlive the call it is lent to; the bytes a `with…` method
/// lends are valid only inside that method's closure.
public struct ListedWindow: ~Copyable {
    /// The size class it was saved in.
    public let sizeClass: SizeClass
    /// The number of routes in the window's `path`.
    public let depth: Int
    /// The window's current revision.
    public let revision: Int
    /// When that revision was written.
    public let updatedAt: Timestamp
    // Inlinable where bytes are lent, so that a caller's closure is inlined into the call: a
    // listing lends three texts a row.
    @usableFromInline let sessionText: Text
    @usableFromInline let windowText: Text
    @usableFromInline let storedItem: Item?

    /// Text as lent: SQLite's bytes when they are well-formed UTF-8, else the string
    /// `String(decoding:as:)` repairs them into, as a summary holds it.
    @usableFromInline enum Text {
        case lent(UnsafeBufferPointer<UInt8>)
        case repaired(String)

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self = bytes.isValidUTF8 ? .lent(bytes) : .repaired(String(decoding: bytes, as: UTF8.self))
        }

        @inlinable func withUTF8<T, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T) throws(E) -> T {
            switch self {
            case .lent(let bytes): return try body(bytes)
            case .repaired(let string): return try Self.withUTF8(of: string, body)
            }
        }

        @usableFromInline static func withUTF8<T, E: Error>(
            of string: String, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T
        ) throws(E) -> T {
            var string = string
            return try string.withUTF8Bytes(body)
        }

        var string: String {
            switch self {
            case .lent(let bytes): String(decoding: bytes, as: UTF8.self)
            case .repaired(let string): string
            }
        }
    }

    /// The item column: in the store's own shape, `{"type":…,"value":…}` exactly as
    /// `Route.write(to:)` writes it, lent with where its type and value stand; in any other
    /// shape a stored route may take, the route read and written again in that shape.
    @usableFromInline enum Item {
        case lent(UnsafeBufferPointer<UInt8>, type: Range<Int>, value: Range<Int>)
        case rewritten(Route, json: String)

        var route: Route {
            switch self {
            case .lent(let bytes, let type, let value):
                Route(
                    validType: String(decoding: UnsafeBufferPointer(rebasing: bytes[type]), as: UTF8.self),
                    minifiedJSON: String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self))
            case .rewritten(let route, _): route
            }
        }
    }

    /// Reads and checks a row of the listing query: `session, window, size_class,
    /// json_array_length(path), item, revision, updated_at`; the path is counted by SQLite, not
    /// parsed. The bytes lent stay SQLite's until the statement steps on. The checks are
    /// ``WindowRow/decodeSummary(_:)``'s, through the same calls.
    init(_ statement: Statement) throws(StateStoreError) {
        let session = statement.withText(0, Text.init)
        let window = statement.withText(1, Text.init)
        // The ids as strings only for an error's message.
        func names() -> (session: String, window: String) {
            (session.string, window.string)
        }
        guard let sizeClass = statement.withText(2, SizeClass.init(utf8:)) else {
            throw WindowRow.damaged(
                "stored window '\(names().session)' '\(names().window)' has an unknown size class", statement)
        }
        let item: Item?
        do {
            item = try Self.item(statement, 4)
        } catch {
            throw WindowRow.unreadable(names().session, names().window, error, statement)
        }
        let revision = try WindowRow.revision(statement, 5, names())
        let updatedAt = try WindowRow.updatedAt(statement, 6, names())
        // Every property set at once, at the end: a value that cannot be copied is either
        // whole or not there on every path.
        (sessionText, windowText, self.sizeClass, depth, storedItem, self.revision, self.updatedAt) =
            (session, window, sizeClass, statement.int(3), item, revision, updatedAt)
    }

    /// The item column: the store's shape lent where its bytes are exactly what it writes, any
    /// other readable route rewritten in that shape, NULL none.
    private static func item(_ statement: Statement, _ column: Int32) throws(JSONReader.Failure) -> Item? {
        let lent = try statement.withText(column) { bytes throws(JSONReader.Failure) -> Item? in
            var reader = JSONReader(bytes)
            guard bytes.baseAddress != nil, let span = try reader.storedRouteSpan(), reader.isAtEnd, bytes.isValidUTF8
            else { return nil }
            return .lent(bytes, type: span.type, value: span.value)
        }
        if let lent { return lent }
        guard let route = try WindowRow.item(statement, column) else { return nil }
        var writer = JSONWriter()
        route.write(to: &writer)
        return .rewritten(route, json: writer.text)
    }

    /// Lends the session id's UTF-8 to `body`.
    @inlinable public func withSessionUTF8<T, E: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T
    ) throws(E) -> T {
        try sessionText.withUTF8(body)
    }

    /// Lends the window id's UTF-8 to `body`.
    @inlinable public func withWindowUTF8<T, E: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T
    ) throws(E) -> T {
        try windowText.withUTF8(body)
    }

    /// Lends the presented item as minified JSON, `{"type":…,"value":…}` — the bytes the store
    /// writes ``item`` as, and `statectl list --json` prints — to `body` and returns what it returns;
    /// `nil`, without calling `body`, when there is no item.
    @inlinable public func withItemJSON<T, E: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T
    ) throws(E) -> T? {
        switch storedItem {
        case nil: return nil
        case .lent(let bytes, _, _): return try body(bytes)
        case .rewritten(_, let json): return try Text.withUTF8(of: json, body)
        }
    }

    /// Whether the window presents an item.
    public var hasItem: Bool { storedItem != nil }

    /// The window's session, built.
    public var session: String {
        sessionText.string
    }

    /// The window's id, built.
    public var window: String {
        windowText.string
    }

    /// The presented item, built; `nil` when there is none.
    public var item: Route? {
        storedItem?.route
    }

    /// The whole row, built: what ``StateStore/forEachWindow(session:sizeClass:_:)`` passes.
    public var summary: WindowSummary {
        WindowSummary(
            session: sessionText.string, window: windowText.string, sizeClass: sizeClass, depth: depth,
            item: storedItem?.route, revision: revision, updatedAt: updatedAt)
    }
}
