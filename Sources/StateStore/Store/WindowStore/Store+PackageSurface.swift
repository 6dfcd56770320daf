// The Store room's package surface: declarations that exist for StateStoreHost and statectl,
// beyond the public API, each saying who uses it and why. Package declarations of this room
// that those two use and the engine is itself built on stay with the code they belong to, marked
// "Package surface:" in their documentation, as in every room: `grep -rn "Package surface"
// Sources/StateStore` lists the whole surface.

extension WindowStore {
    /// A window as a host restores it: its state and the tab it shows (the state's), and where the
    /// change log stood when they were read, so that a change the log reports at or before it is
    /// known to be old.
    ///
    /// Package surface: what ``restoredWindow(session:window:)`` and
    /// ``sessionAtOpen(session:budget:)`` give the host's session, which shows it in a window's
    /// first frame and then follows the change feed from its position.
    package struct RestoredWindow: Sendable {
        package var state: WindowState?
        package var selectedTab: String?
        package var position: Int64

        package init(state: WindowState? = nil, selectedTab: String? = nil, position: Int64 = 0) {
            self.state = state
            self.selectedTab = selectedTab
            self.position = position
        }
    }

    /// A window and its selected tab, for a host restoring it, with the change log's position, all
    /// read in one transaction.
    ///
    /// Package surface: the host's session reads with it a window that
    /// ``sessionAtOpen(session:budget:)`` did not hold.
    package func restoredWindow(session: String, window: String) throws(StateStoreError) -> RestoredWindow {
        try validateIdentifier(session, "session id")
        try validateIdentifier(window, "window id")
        return try withDatabase { database throws(StateStoreError) in
            try database.readTransaction { () throws(StateStoreError) in
                let state = try database.currentState(session: session, window: window)
                return RestoredWindow(
                    state: state, selectedTab: state?.selectedTab, position: try database.changeLogHighWaterMark())
            }
        }
    }

    /// What a host opening a session reads before its first frames, in one transaction.
    ///
    /// Package surface: what ``sessionAtOpen(session:budget:)`` gives the host's session.
    package struct SessionAtOpen: Sendable {
        /// Where the change log ended: a feed made ``changeFeed(session:after:)`` this position brings
        /// exactly what was committed since.
        package var position: Int64
        /// Windows of the session as ``restoredWindow(session:window:)`` gives them, sorted by id
        /// (UTF-8 byte order), up to the byte budget.
        package var windows: [(id: String, window: RestoredWindow)]
        /// Whether every window of the session is in ``windows``: a window that is not then has
        /// no state (else it must be read when asked for).
        package var isComplete: Bool
    }

    /// The change log's position and the session's windows, read in one transaction so that a feed
    /// made after that position misses nothing; windows are read in id order while their stored
    /// routes come to at most `budget` bytes, so that a large session does not sit in memory.
    ///
    /// Package surface: the host's session reads with it, as it opens, what its first frames show.
    package func sessionAtOpen(session: String, budget: Int) throws(StateStoreError) -> SessionAtOpen {
        try validateIdentifier(session, "session id")
        return try withDatabase { database throws(StateStoreError) in
            try database.readTransaction { () throws(StateStoreError) in
                let position = try database.changeLogHighWaterMark()
                var windows: [(id: String, window: RestoredWindow)] = []
                var spent = 0
                var complete = true
                try database.query(
                    .windowsOfSession, bind: { statement throws(StateStoreError) in try statement.bind(1, session) },
                    row: { statement throws(StateStoreError) in
                        guard complete else { return }
                        spent +=
                            statement.byteCount(WindowRow.pathColumn) + statement.byteCount(WindowRow.itemColumn)
                            + statement.byteCount(WindowRow.itemPathColumn)
                        guard spent <= budget else {
                            complete = false
                            return
                        }
                        let state = try WindowRow.decode(statement, session: session)
                        windows.append(
                            (
                                state.window,
                                RestoredWindow(state: state, selectedTab: state.selectedTab, position: position)
                            )
                        )
                    })
                return SessionAtOpen(position: position, windows: windows, isComplete: complete)
            }
        }
    }
}

extension WindowStore {
    /// Deletes the windows of `session` that `choose` picks from every window the session knows —
    /// with state or with scene facts only, each with the scene session that recorded it as its own
    /// (`nil`: none) — with their history and scene facts, in one write transaction. `choose` is
    /// asked once the write lock is had, so what it consults is as current as the delete: a window
    /// that gained a reason to stay while the delete waited for another process's lock is kept.
    /// Returns the deleted ids, sorted by their bytes.
    ///
    /// Package surface: the host's session discards with it the windows of scene sessions the
    /// system no longer keeps, and windows the app closed, sparing each one it made a model of
    /// meanwhile.
    package func deleteWindows(
        session: String, choosing choose: ([(window: String, sceneSession: String?)]) -> [String]
    ) throws(StateStoreError) -> [String] {
        try validateIdentifier(session, "session id")
        return try withDatabase { database throws(StateStoreError) in
            try database.changingWindows { () throws(StateStoreError) -> [String] in
                var known: [(window: String, sceneSession: String?)] = []
                try database.query(
                    """
                    SELECT known.window, scene.scene
                    FROM (SELECT window FROM windows WHERE session = ?1
                          UNION SELECT window FROM window_scenes WHERE session = ?1) AS known
                    LEFT JOIN window_scenes AS scene ON scene.session = ?1 AND scene.window = known.window
                    ORDER BY known.window
                    """,
                    bind: { statement throws(StateStoreError) in try statement.bind(1, session) },
                    row: { statement throws(StateStoreError) in
                        known.append((statement.text(0), statement.isNull(1) ? nil : statement.text(1)))
                    })
                var deleted: [String] = []
                for window in choose(known) {
                    deleted += try database.deleteWindows(session: session, window: window)
                }
                return deleted.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            }
        }
    }
}
