/// One row of a listing: what `statectl list` shows of a window, read without parsing its path.
public struct WindowSummary: Hashable, Sendable {
    /// The window's session.
    public var session: String
    /// The window's id.
    public var window: String
    /// The size class it was saved in.
    public var sizeClass: SizeClass
    /// The number of routes in the window's `path`.
    public var depth: Int
    /// The presented item, if any.
    public var item: Route?
    /// The window's current revision.
    public var revision: Int
    /// When that revision was written.
    public var updatedAt: Timestamp
}

extension WindowStore {
    /// The stored state of one window, or `nil` when there is none.
    public func window(session: String, window: String) throws(StateStoreError) -> WindowState? {
        try validateIdentifier(session, "session id")
        try validateIdentifier(window, "window id")
        return try withDatabase { database throws(StateStoreError) in
            try database.currentState(session: session, window: window)
        }
    }

    /// The stored states of a session's windows, sorted by window id; empty for an unknown session.
    public func windows(session: String) throws(StateStoreError) -> [WindowState] {
        try validateIdentifier(session, "session id")
        return try withDatabase { database throws(StateStoreError) in
            var states: [WindowState] = []
            try database.query(
                .windowsOfSession,
                bind: { statement throws(StateStoreError) in try statement.bind(1, session) },
                row: { statement throws(StateStoreError) in
                    states.append(try WindowRow.decode(statement, session: session))
                })
            return states
        }
    }

    /// Streams the windows of every session, or of one, sorted by session then window (UTF-8
    /// byte order), optionally only those of one size class. Rows are read one at a time, never
    /// the whole table.
    ///
    /// A throw from `body` stops the listing and reaches the caller unchanged. `body` runs with the
    /// store locked: a call it makes to this store on its thread fails with
    /// ``StateStoreError/reentrantCall(_:)``.
    public func forEachWindow(
        session: String? = nil, sizeClass: SizeClass? = nil, _ body: (WindowSummary) throws -> Void
    ) throws {
        try HostClosure.run { host throws(StateStoreError) in
            try summaries(session: session, sizeClass: sizeClass, call: #function) { summary throws(StateStoreError) in
                try host.call { try body(summary) }
            }
        }
    }

    /// Streams the windows ``forEachWindow(session:sizeClass:_:)`` streams, in the same order,
    /// each lent to `body` as it stands in SQLite's buffer: nothing is built that `body` does not
    /// ask for. For a listing that writes rows out or sums them, such as `statectl list --json`.
    ///
    /// Each row is checked before `body` sees it, as for ``forEachWindow(session:sizeClass:_:)``:
    /// a damaged row stops the listing with ``StateStoreError/damaged(_:)`` naming the window. A
    /// throw from `body` stops it and reaches the caller unchanged; `body` runs with the store
    /// locked, as there.
    public func forEachListedWindow(
        session: String? = nil, sizeClass: SizeClass? = nil, _ body: (borrowing ListedWindow) throws -> Void
    ) throws {
        var copies = LentCopies()
        try HostClosure.run { host throws(StateStoreError) in
            try listing(session: session, sizeClass: sizeClass, call: #function) { statement throws(StateStoreError) in
                let window = try ListedWindow(statement, copies: &copies)
                try host.call { try body(window) }
            }
        }
    }

    /// ``forEachWindow(session:sizeClass:_:)`` collected into an array.
    public func windowSummaries(
        session: String? = nil, sizeClass: SizeClass? = nil
    ) throws(StateStoreError)
        -> [WindowSummary]
    {
        var summaries: [WindowSummary] = []
        try self.summaries(session: session, sizeClass: sizeClass, call: #function) { summaries.append($0) }
        return summaries
    }

    /// The listing both of those read, row by row, built into summaries.
    private func summaries(
        session: String?, sizeClass: SizeClass?, call: String,
        _ body: (WindowSummary) throws(StateStoreError) -> Void
    ) throws(StateStoreError) {
        try listing(session: session, sizeClass: sizeClass, call: call) { statement throws(StateStoreError) in
            try body(try WindowRow.decodeSummary(statement))
        }
    }

    /// The listing's statement, on each of its rows.
    private func listing(
        session: String?, sizeClass: SizeClass?, call: String,
        _ row: (Statement) throws(StateStoreError) -> Void
    ) throws(StateStoreError) {
        if let session { try validateIdentifier(session, "session id") }
        let listing: HotStatement =
            switch (session, sizeClass) {
            case (nil, nil): .listing
            case (_?, nil): .listingOfSession
            case (nil, _?): .listingOfSizeClass
            case (_?, _?): .listingOfSessionAndSizeClass
            }
        try withDatabase(call) { database throws(StateStoreError) in
            do throws(StateStoreError) {
                try database.query(
                    listing,
                    bind: { statement throws(StateStoreError) in
                        if let session { try statement.bind(1, session) }
                        if let sizeClass { try statement.bind(2, sizeClass.rawValue) }
                    },
                    row: row)
            } catch {
                // SQLite counts each path's routes (`json_array_length`) and stops the listing at
                // the first path that is not JSON, with an error that names no row. The row is
                // found and named, as reading that window alone names it.
                guard case .damaged(let failure) = error, failure.code.primary == .error,
                    let named = try Self.damagedPath(database, session: session, sizeClass: sizeClass, failure)
                else { throw error }
                throw named
            }
        }
    }

    /// The first window a listing holds whose path is not JSON, as an error naming it; `nil`
    /// when there is none: the listing failed for another reason.
    private static func damagedPath(
        _ database: Database, session: String?, sizeClass: SizeClass?, _ failure: SQLiteFailure
    ) throws(StateStoreError) -> StateStoreError? {
        var named: StateStoreError?
        try database.query(
            """
            SELECT session, window, path FROM windows WHERE json_valid(path) = 0 \
            AND (?1 IS NULL OR session = ?1) AND (?2 IS NULL OR size_class = ?2) ORDER BY session, window LIMIT 1
            """,
            bind: { statement throws(StateStoreError) in
                try statement.bind(1, session)
                try statement.bind(2, sizeClass?.rawValue)
            },
            row: { statement throws(StateStoreError) in named = WindowRow.unreadablePath(statement, failure) })
        return named
    }

    /// What a host restoring the window now would present, in `sizeClass` (default: the saved
    /// one), or `nil` when there is no such window. Read-only: nothing is written.
    public func restore(
        session: String, window: String, into sizeClass: SizeClass? = nil
    ) throws(StateStoreError)
        -> Restoration?
    {
        guard let saved = try self.window(session: session, window: window) else { return nil }
        return saved.restored(into: sizeClass ?? saved.sizeClass)
    }

    /// ``restore(session:window:into:)`` for every window of a session, sorted by window id.
    public func restore(session: String, into sizeClass: SizeClass? = nil) throws(StateStoreError) -> [Restoration] {
        try windows(session: session).map { $0.restored(into: sizeClass ?? $0.sizeClass) }
    }

    /// The kept revisions of a window, newest (the current one) first; empty for an unknown window.
    public func history(session: String, window: String, limit: Int? = nil) throws(StateStoreError) -> [WindowState] {
        try validateIdentifier(session, "session id")
        try validateIdentifier(window, "window id")
        if let limit, limit < 1 { throw .invalidInput("history limit must be at least 1, not \(limit)") }
        return try withDatabase { database throws(StateStoreError) in
            var states: [WindowState] = []
            try database.query(
                "SELECT \(WindowRow.columns) FROM window_history WHERE session = ? AND window = ? ORDER BY revision DESC LIMIT ?",
                bind: { statement throws(StateStoreError) in
                    try statement.bind(1, session)
                    try statement.bind(2, window)
                    try statement.bind(3, limit ?? -1)
                },
                row: { statement throws(StateStoreError) in states.append(try WindowRow.decode(statement)) })
            return states
        }
    }
}

extension Database {
    func currentState(session: String, window: String) throws(StateStoreError) -> WindowState? {
        var state: WindowState?
        try query(.window, session: session, window: window) { statement throws(StateStoreError) in
            state = try WindowRow.decode(statement, session: session, window: window)
        }
        return consume state
    }
}
