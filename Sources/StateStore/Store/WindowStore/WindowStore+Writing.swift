extension WindowStore {
    /// Writes `state`'s content (size class, routes, item, policy) as the window's next revision,
    /// creating the window if missing. `state.revision` and `state.updatedAt` are ignored; the
    /// stored state is returned. With `expectedRevision`, the write happens only if the window
    /// is at that revision (0: does not exist), else ``StateStoreError/conflict(session:window:expected:actual:)``.
    @discardableResult
    public func save(_ state: WindowState, expectedRevision: Int? = nil) throws(StateStoreError) -> WindowState {
        try state.validate()
        return try withDatabase { database throws(StateStoreError) in
            try database.changingWindows { () throws(StateStoreError) -> WindowState in
                let current = try database.currentRevision(session: state.session, window: state.window)
                try checkExpected(expectedRevision, current, state.session, state.window)
                return try database.write(state, after: current, options)
            }
        }
    }

    /// Reads, changes and writes one window under one write lock, so no other writer can come in
    /// between. `body` gets the current state (a new window, at revision 0, when missing); what it
    /// leaves is written as the next revision.
    ///
    /// A throw from `body` writes nothing and reaches the caller unchanged; the store's own
    /// failures are ``StateStoreError``. `body` runs with the store locked: a call it makes to this
    /// store on its thread fails with ``StateStoreError/reentrantCall(_:)``.
    @discardableResult
    public func update(
        session: String, window: String, expectedRevision: Int? = nil, _ body: (inout WindowState) throws -> Void
    ) throws -> WindowState {
        try validateIdentifier(session, "session id")
        try validateIdentifier(window, "window id")
        return try HostClosure.run { host throws(StateStoreError) in
            try withDatabase { database throws(StateStoreError) in
                try database.changingWindows { () throws(StateStoreError) -> WindowState in
                    try update(
                        in: database, session: session, window: window, expectedRevision: expectedRevision, host: host,
                        body)
                }
            }
        }
    }

    /// ``update(session:window:expectedRevision:_:)``'s read, change and write, in the write
    /// transaction under way on `database`.
    func update(
        in database: Database, session: String, window: String, expectedRevision: Int?, host: HostClosure,
        _ body: (inout WindowState) throws -> Void
    ) throws(StateStoreError) -> WindowState {
        var state =
            try database.currentState(session: session, window: window)
            ?? WindowState(session: session, window: window)
        try checkExpected(expectedRevision, state.revision, session, window)
        try host.call { try body(&state) }
        // Bytes, not Swift's `==`, which takes "é" and "e\u{301}" for one id.
        guard state.session.utf8.elementsEqual(session.utf8), state.window.utf8.elementsEqual(window.utf8) else {
            throw .invalidInput("an update cannot change a window's session or window id")
        }
        try state.validate()
        return try database.write(state, after: state.revision, options)
    }

    /// Writes kept revision `revision` of a window, as it was, as the window's next revision.
    @discardableResult
    public func revert(
        session: String, window: String, to revision: Int, expectedRevision: Int? = nil
    )
        throws(StateStoreError) -> WindowState
    {
        try validateIdentifier(session, "session id")
        try validateIdentifier(window, "window id")
        return try withDatabase { database throws(StateStoreError) in
            try database.changingWindows { () throws(StateStoreError) -> WindowState in
                let current = try database.currentRevision(session: session, window: window)
                guard current > 0 else { throw .notFound(.window(session: session, window: window)) }
                try checkExpected(expectedRevision, current, session, window)
                var old: WindowState?
                try database.query(
                    "SELECT \(WindowRow.columns) FROM window_history WHERE session = ? AND window = ? AND revision = ?",
                    bind: { statement throws(StateStoreError) in
                        try statement.bind(1, session)
                        try statement.bind(2, window)
                        try statement.bind(3, revision)
                    },
                    row: { statement throws(StateStoreError) in old = try WindowRow.decode(statement) })
                guard let old else {
                    // What is kept, as the history holds it: no arithmetic on stored revisions.
                    var kept: ClosedRange<Int>?
                    try database.query(
                        "SELECT min(revision), max(revision) FROM window_history WHERE session = ? AND window = ?",
                        bind: { statement throws(StateStoreError) in
                            try statement.bind(1, session)
                            try statement.bind(2, window)
                        },
                        row: { statement throws(StateStoreError) in
                            guard !statement.isNull(0) else { return }
                            let oldest = try WindowRow.revision(statement, 0, (session, window))
                            let newest = try WindowRow.revision(statement, 1, (session, window))
                            kept = oldest...max(oldest, newest)
                        })
                    throw .notFound(.revision(session: session, window: window, revision: revision, kept: kept))
                }
                return try database.write(old, after: current, options)
            }
        }
    }

    /// Deletes a window: its state, its history and its scene facts (``WindowScene``). Returns
    /// `false` when there was none of them. A window known only by its scene facts is at
    /// revision 0 for `expectedRevision`.
    @discardableResult
    public func deleteWindow(
        session: String, window: String, expectedRevision: Int? = nil
    ) throws(StateStoreError)
        -> Bool
    {
        try validateIdentifier(session, "session id")
        try validateIdentifier(window, "window id")
        return try withDatabase { database throws(StateStoreError) in
            try database.changingWindows { () throws(StateStoreError) -> Bool in
                let current = try database.currentRevision(session: session, window: window)
                try checkExpected(expectedRevision, current, session, window)
                guard current > 0 else { return try database.deleteScene(session: session, window: window) }
                try database.deleteWindows(session: session, window: window)
                return true
            }
        }
    }

    /// Deletes every window of a session: their state, history and scene facts. Returns the
    /// deleted window ids (those known only by their scene facts too), sorted; empty when the
    /// session had none.
    @discardableResult
    public func deleteSession(_ session: String) throws(StateStoreError) -> [String] {
        try validateIdentifier(session, "session id")
        return try withDatabase { database throws(StateStoreError) in
            try database.changingWindows { () throws(StateStoreError) -> [String] in
                try database.deleteWindows(session: session, window: nil)
            }
        }
    }

    private func checkExpected(
        _ expected: Int?, _ actual: Int, _ session: String, _ window: String
    )
        throws(StateStoreError)
    {
        guard let expected else { return }
        guard expected >= 0 else { throw .invalidInput("expected revision must not be negative, not \(expected)") }
        guard expected == actual else {
            throw .conflict(session: session, window: window, expected: expected, actual: actual)
        }
    }
}

extension Database {
    /// The window's revision, 0 when it does not exist.
    func currentRevision(session: String, window: String) throws(StateStoreError) -> Int {
        var revision = 0
        try query(.revision, session: session, window: window) { statement throws(StateStoreError) in
            revision = try WindowRow.revision(statement, 0, (session, window))
        }
        return revision
    }

    /// Writes `state`'s content as revision `previous + 1`, keeps it in the history and drops
    /// revisions past the history limit. Runs inside the caller's write transaction.
    func write(
        _ state: WindowState, after previous: Int, _ options: WindowStore.Options
    ) throws(StateStoreError)
        -> WindowState
    {
        let (next, overflow) = previous.addingReportingOverflow(1)
        guard !overflow else {
            throw .damaged(
                SQLiteFailure(
                    code: .corrupt,
                    message:
                        "window '\(state.session)' '\(state.window)' is damaged: its revision is \(previous), the largest there can be, so it cannot be written again (delete the window to start it at 1); nothing was written"
                ))
        }
        // Changed as a `var`, then read as a `let`: what the statements' closures and the content
        // read is then lent, not copied again.
        var written = state
        written.revision = next
        written.updatedAt = options.clock()
        let stored = written
        if previous == 0 {
            // A new window starts at revision 1 whatever history is left: a row deleted by hand
            // (sqlite3) leaves its history behind, whose revisions the new ones would collide with.
            try run(.clearHistory, session: stored.session, window: stored.window)
        }
        let content = WindowRow.Content(stored)
        try run(.upsertWindow, session: stored.session, window: stored.window, bytes: content.bytes) {
            statement, bytes throws(StateStoreError) in try content.bind(stored, bytes, to: statement)
        }
        try run(.keepInHistory, session: stored.session, window: stored.window)
        if stored.revision > options.historyLimit {
            try run(.dropOldHistory, session: stored.session, window: stored.window) {
                statement, _ throws(StateStoreError) in try statement.bind(3, stored.revision - options.historyLimit)
            }
        }
        return stored
    }

    /// Deletes the scene facts of a window without state; whether there were any.
    func deleteScene(session: String, window: String) throws(StateStoreError) -> Bool {
        var deleted = false
        try query(
            "DELETE FROM window_scenes WHERE session = ?1 AND window = ?2 RETURNING window",
            bind: { statement throws(StateStoreError) in
                try statement.bind(1, session)
                try statement.bind(2, window)
            },
            row: { _ throws(StateStoreError) in deleted = true })
        return deleted
    }
}

extension StoreConnection {
    /// Deletes one window, or all of a session's when `window` is nil, with their history and
    /// scene facts. Returns the deleted window ids, sorted: those with state, and those known
    /// only by their scene facts.
    @discardableResult
    func deleteWindows(session: String, window: String?) throws(StateStoreError) -> [String] {
        let filter = window == nil ? "session = ?1" : "session = ?1 AND window = ?2"
        deletedWindows = true
        let bind = { (statement: Statement) throws(StateStoreError) in
            try statement.bind(1, session)
            if let window { try statement.bind(2, window) }
        }
        var deleted: [String] = []
        let collect = { (statement: Statement) throws(StateStoreError) in deleted.append(statement.text(0)) }
        // A deleted window's states leave the change log with it: its rows keep their place, so a
        // feed behind reads each as the window's deletion, and never skips one.
        try run(
            """
            UPDATE changes SET size_class = NULL, path = NULL, item = NULL, item_path = NULL, policy = NULL,
                revision = NULL, updated_at = NULL, column_visibility = NULL, preferred_compact_column = NULL,
                selected_tab = NULL
            WHERE \(filter) AND path IS NOT NULL
            """, bind: bind)
        changeLogSizes = nil  // counted again at the next write
        // The trigger `windows_delete_scene` takes the scene facts of windows with state; what is
        // left are those of windows without, each deleted once.
        try query("DELETE FROM windows WHERE \(filter) RETURNING window", bind: bind, row: collect)
        try run("DELETE FROM window_history WHERE \(filter)", bind: bind)
        try query("DELETE FROM window_scenes WHERE \(filter) RETURNING window", bind: bind, row: collect)
        return deleted.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
