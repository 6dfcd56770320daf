/// One window of a listing, lent to the closure of
/// ``StateStore/WindowStore/forEachListedWindow(session:sizeClass:_:)`` for the length of one call: the row
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
    // Only bytes, ranges and numbers: a row is lent, and let go of, with nothing to release.
    // Inlinable where bytes are lent, so that a caller's closure is inlined into the call: a
    // listing lends three texts a row.
    @usableFromInline let sessionUTF8: UnsafeBufferPointer<UInt8>
    @usableFromInline let windowUTF8: UnsafeBufferPointer<UInt8>
    /// The item as `{"type":…,"value":…}`; `nil` for none.
    @usableFromInline let itemJSON: UnsafeBufferPointer<UInt8>?
    /// Where the item's type and value stand in ``itemJSON``; `nil` where the type has escapes,
    /// which only the general reader reads.
    private let itemSpan: JSONReader.StoredRouteSpan?

    /// Reads and checks a row of the listing query: `session, window, size_class,
    /// json_array_length(path), item, revision, updated_at`; the path is counted by SQLite, not
    /// parsed. The bytes lent are SQLite's, valid until the statement steps on, or, for text
    /// that had to be repaired or rewritten, copies in `copies`, valid until it is cleared. The
    /// checks are ``WindowRow/decodeSummary(_:)``'s, through the same calls.
    init(_ statement: borrowing Statement, copies: inout LentCopies) throws(StateStoreError) {
        copies.removeAll()
        let session = statement.withText(0) { Self.text($0, &copies) }
        let window = statement.withText(1) { Self.text($0, &copies) }
        // The ids as strings only for an error's message.
        func names() -> (session: String, window: String) {
            (String(decoding: session, as: UTF8.self), String(decoding: window, as: UTF8.self))
        }
        guard let sizeClass = statement.withText(2, SizeClass.init(utf8:)) else {
            throw WindowRow.damaged(
                "stored window '\(names().session)' '\(names().window)' has an unknown size class", statement)
        }
        let item: (json: UnsafeBufferPointer<UInt8>, span: JSONReader.StoredRouteSpan?)?
        do {
            item = try Self.item(statement, 4, &copies)
        } catch {
            throw WindowRow.unreadable(names().session, names().window, error, statement)
        }
        let revision = try WindowRow.revision(statement, 5, names())
        let updatedAt = try WindowRow.updatedAt(statement, 6, names())
        (sessionUTF8, windowUTF8, self.sizeClass, depth, itemJSON, itemSpan, self.revision, self.updatedAt) =
            (session, window, sizeClass, statement.int(3), item?.json, item?.span, revision, updatedAt)
    }

    /// Text as lent: SQLite's bytes when they are well-formed UTF-8, else those of the string
    /// `String(decoding:as:)` repairs them into, as a summary holds it.
    private static func text(
        _ bytes: UnsafeBufferPointer<UInt8>, _ copies: inout LentCopies
    ) -> UnsafeBufferPointer<UInt8> {
        bytes.isValidUTF8 ? bytes : copies.keep(String(decoding: bytes, as: UTF8.self))
    }

    /// The item column: the store's shape lent where its bytes are exactly what it writes, any
    /// other readable route written again in that shape, NULL none.
    private static func item(
        _ statement: Statement, _ column: Int32, _ copies: inout LentCopies
    ) throws(JSONReader.Failure) -> (json: UnsafeBufferPointer<UInt8>, span: JSONReader.StoredRouteSpan?)? {
        let lent = try statement.withText(column) {
            bytes throws(JSONReader.Failure) -> (json: UnsafeBufferPointer<UInt8>, span: JSONReader.StoredRouteSpan?)?
            in
            var reader = JSONReader(bytes)
            // The scan covers the whole text: what it saw tells ASCII, the rest is checked.
            var seen: UInt64 = 0
            guard bytes.baseAddress != nil, let span = try reader.storedRouteSpan(seen: &seen), reader.isAtEnd,
                JSONSyntax.isASCII(seen) || bytes.isValidUTF8
            else { return nil }
            return (bytes, span)
        }
        if let lent { return lent }
        guard let route = try WindowRow.item(statement, column) else { return nil }
        var writer = JSONWriter()
        route.write(to: &writer)
        let json = copies.keep(writer.text)
        var reader = JSONReader(json)
        var seen: UInt64 = 0
        return (json, try reader.storedRouteSpan(seen: &seen))
    }

    /// Lends the session id's UTF-8 to `body`.
    @inlinable public func withSessionUTF8<T, E: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T
    ) throws(E) -> T {
        try body(sessionUTF8)
    }

    /// Lends the window id's UTF-8 to `body`.
    @inlinable public func withWindowUTF8<T, E: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T
    ) throws(E) -> T {
        try body(windowUTF8)
    }

    /// Lends the presented item as minified JSON, `{"type":…,"value":…}` — the bytes the store
    /// writes ``item`` as, and `statectl list --json` prints — to `body` and returns what it returns;
    /// `nil`, without calling `body`, when there is no item.
    @inlinable public func withItemJSON<T, E: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T
    ) throws(E) -> T? {
        guard let itemJSON else { return nil }
        return try body(itemJSON)
    }

    /// Whether the window presents an item.
    public var hasItem: Bool { itemJSON != nil }

    /// The window's session, built.
    public var session: String {
        String(decoding: sessionUTF8, as: UTF8.self)
    }

    /// The window's id, built.
    public var window: String {
        String(decoding: windowUTF8, as: UTF8.self)
    }

    /// The presented item, built; `nil` when there is none.
    public var item: Route? {
        guard let itemJSON else { return nil }
        // Lent only when well-formed UTF-8: one copy, which the route reads its type and value from.
        if let itemSpan { return Route(sharing: Array(itemJSON), type: itemSpan.type, value: itemSpan.value) }
        // A type with escapes, which the store wrote as its writer escapes them.
        var reader = JSONReader(itemJSON)
        guard let route = try? reader.readStoredRoute() else {
            preconditionFailure("an item the store wrote itself cannot be read back")
        }
        return route
    }

    /// The whole row, built: what ``StateStore/WindowStore/forEachWindow(session:sizeClass:_:)`` passes.
    public var summary: WindowSummary {
        WindowSummary(
            session: session, window: window, sizeClass: sizeClass, depth: depth, item: item, revision: revision,
            updatedAt: updatedAt)
    }
}

/// The bytes a listing lends in place of SQLite's where a row's text had to be repaired (text
/// that is not UTF-8) or its item written again in the store's shape: copies that stay until the
/// next row, and the last row's until the listing lets go of them. Rows the store wrote need none.
struct LentCopies: ~Copyable {
    private var copies: [UnsafeMutableBufferPointer<UInt8>] = []

    deinit {
        for copy in copies { copy.deallocate() }
    }

    /// Lets go of every copy.
    @inline(__always) mutating func removeAll() {
        if !copies.isEmpty { deallocateAll() }
    }

    private mutating func deallocateAll() {
        for copy in copies { copy.deallocate() }
        copies.removeAll(keepingCapacity: true)
    }

    /// A copy of `text`'s UTF-8, kept until ``removeAll()``.
    mutating func keep(_ text: String) -> UnsafeBufferPointer<UInt8> {
        let utf8 = text.utf8
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: Swift.max(utf8.count, 1))
        _ = copy.initialize(from: utf8)
        copies.append(copy)
        return UnsafeBufferPointer(rebasing: copy[..<utf8.count])
    }
}
