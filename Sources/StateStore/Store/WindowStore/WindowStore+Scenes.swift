extension WindowStore {
    /// Records that `window` is now the focused window of its session, and its kind when `kind`
    /// is given (`nil` keeps a kind recorded before). One statement: no revision, no history, no
    /// change-log row, whether or not the window has state yet.
    ///
    /// The time is the store's clock (``Options/clock``), or a millisecond past the session's
    /// latest focus when the clock has not moved past it, so the latest call always wins
    /// ``focusedWindow(session:kind:)``, across processes too.
    public func focus(session: String, window: String, kind: String? = nil) throws(StateStoreError) {
        try validateIdentifier(session, "session id")
        try validateIdentifier(window, "window id")
        if let kind { try WindowScene.validate(kind: kind) }
        try withDatabase { database throws(StateStoreError) in
            try database.writeTransaction { () throws(StateStoreError) in
                try database.run(Self.focusSQL) { statement throws(StateStoreError) in
                    try statement.bind(1, session)
                    try statement.bind(2, window)
                    try statement.bind(3, kind)
                    try statement.bind(4, options.clock().millisecondsSince1970)
                }
            }
        }
    }

    /// Records a window's kind (`mail`, `settings`) without focusing it; `nil` clears it. Like
    /// ``focus(session:window:kind:)``, it writes no revision.
    public func setKind(_ kind: String?, session: String, window: String) throws(StateStoreError) {
        if let kind { try WindowScene.validate(kind: kind) }
        try setSceneFact("kind", kind, session: session, window: window)
    }

    /// Records the tab a window's tab view shows, as the app names its tabs (1–256 bytes of UTF-8,
    /// no control characters); `nil` clears it.
    ///
    /// The tab is part of the window's state (``WindowState/selectedTab``): this is
    /// ``update(session:window:expectedRevision:_:)`` setting it, which writes the window's next
    /// revision (creating the window when it has no state) — and nothing when the window already
    /// shows that tab, or when `nil` clears the tab of a window without state. New code sets
    /// ``WindowState/selectedTab`` in its own update, with whatever else changes.
    public func setSelectedTab(_ tab: String?, session: String, window: String) throws(StateStoreError) {
        try validateIdentifier(session, "session id")
        try validateIdentifier(window, "window id")
        if let tab { try WindowState.validate(selectedTab: tab) }
        try withDatabase { database throws(StateStoreError) in
            try database.changingWindows { () throws(StateStoreError) in
                let current = try database.currentState(session: session, window: window)
                // Bytes, not Swift's `==`, which takes "é" and "e\u{301}" for one tab.
                let unchanged =
                    switch (current?.selectedTab, tab) {
                    case (nil, nil): true
                    case (let stored?, let tab?): stored.utf8.elementsEqual(tab.utf8)
                    default: false
                    }
                guard !unchanged else { return }
                var state = current ?? WindowState(session: session, window: window)
                state.selectedTab = tab
                try state.validate()
                _ = try database.write(state, after: current?.revision ?? 0, options)
            }
        }
    }

    /// Records that the system's scene session `scene` (on iOS, its `persistentIdentifier`) shows
    /// `window`, so that the window is deleted when the system discards that scene session
    /// (``deleteWindows(session:choosing:)`` is shown it). Like ``focus(session:window:kind:)``, it writes no
    /// revision. A window no scene recorded is never discarded with one.
    ///
    /// Package surface: the host's session records a window's scene session with it when a scene
    /// shows the window.
    package func recordSceneSession(_ scene: String, session: String, window: String) throws(StateStoreError) {
        try validateIdentifier(scene, "scene session id")
        try setSceneFact("scene", scene, session: session, window: window)
    }

    /// The session's most recently focused window, or of those of `kind` the most recently
    /// focused one; `nil` when none was focused (a window deleted since is forgotten with it).
    /// Two windows stamped alike (written so by hand) are told apart by their ids' bytes, the
    /// lesser first.
    public func focusedWindow(session: String, kind: String? = nil) throws(StateStoreError) -> String? {
        try validateIdentifier(session, "session id")
        if let kind { try WindowScene.validate(kind: kind) }
        return try withDatabase { database throws(StateStoreError) in
            try database.focusedWindow(session: session, kind: kind)
        }
    }

    /// ``update(session:window:expectedRevision:_:)`` of the session's most recently focused
    /// window (of `kind`, when given), found and written under one write lock, so that another
    /// process cannot come in between: a window deleted before the lock was had is no longer
    /// focused, and is never made again. `nil`, and nothing written, when the session has no
    /// focused window (of the kind). A focused window without state yet is created, as `update`
    /// creates a missing one; `expectedRevision` is the focused window's.
    @discardableResult
    public func updateFocusedWindow(
        session: String, kind: String? = nil, expectedRevision: Int? = nil, _ body: (inout WindowState) throws -> Void
    ) throws -> WindowState? {
        try validateIdentifier(session, "session id")
        if let kind { try WindowScene.validate(kind: kind) }
        return try HostClosure.run { host throws(StateStoreError) in
            try withDatabase { database throws(StateStoreError) in
                try database.changingWindows { () throws(StateStoreError) -> WindowState? in
                    guard let window = try database.focusedWindow(session: session, kind: kind) else { return nil }
                    return try update(
                        in: database, session: session, window: window, expectedRevision: expectedRevision, host: host,
                        body)
                }
            }
        }
    }

    /// A window's scene facts, or `nil` when the store knows nothing of the window: neither state
    /// nor scene facts. A window with state and no scene facts has all of them `nil`.
    public func scene(session: String, window: String) throws(StateStoreError) -> WindowScene? {
        try validateIdentifier(session, "session id")
        try validateIdentifier(window, "window id")
        return try scenes(session: session, window: window, call: #function).first
    }

    /// The scene facts of every window of a session that has state or scene facts, sorted by
    /// window id (UTF-8 byte order); empty for an unknown session. What a host compares with the
    /// scenes the system still keeps.
    public func scenes(session: String) throws(StateStoreError) -> [WindowScene] {
        try validateIdentifier(session, "session id")
        return try scenes(session: session, window: nil, call: #function)
    }

    /// The statement of ``focus(session:window:kind:)``: the time is `?4`, or one past the
    /// session's latest focus (found at the head of `window_scenes_focus`), never past the
    /// largest integer, which would make SQLite's sum a real.
    private static let focusSQL = """
        INSERT INTO window_scenes (session, window, kind, focused_at)
        VALUES (?1, ?2, ?3, max(?4, coalesce((
            SELECT min(focused_at, 9223372036854775806) + 1 FROM window_scenes
            WHERE session = ?1 AND focused_at IS NOT NULL ORDER BY focused_at DESC LIMIT 1), ?4)))
        ON CONFLICT (session, window) DO UPDATE SET kind = coalesce(excluded.kind, kind), focused_at = excluded.focused_at
        """

    /// Sets one column of a window's scene facts; clearing one of a window with none writes no row.
    private func setSceneFact(
        _ column: String, _ value: String?, session: String, window: String, call: String = #function
    ) throws(StateStoreError) {
        try validateIdentifier(session, "session id")
        try validateIdentifier(window, "window id")
        let sql =
            value == nil
            ? "UPDATE window_scenes SET \(column) = NULL WHERE session = ?1 AND window = ?2"
            : """
            INSERT INTO window_scenes (session, window, \(column)) VALUES (?1, ?2, ?3)
            ON CONFLICT (session, window) DO UPDATE SET \(column) = excluded.\(column)
            """
        try withDatabase(call) { database throws(StateStoreError) in
            try database.writeTransaction { () throws(StateStoreError) in
                try database.run(sql) { statement throws(StateStoreError) in
                    try statement.bind(1, session)
                    try statement.bind(2, window)
                    if let value { try statement.bind(3, value) }
                }
            }
        }
    }

    /// The scene facts of a session's windows, or of one of them, in one statement: every window
    /// with state or a scene row, sorted by id.
    private func scenes(session: String, window: String?, call: String) throws(StateStoreError) -> [WindowScene] {
        let only = window == nil ? "" : " AND window = ?2"
        let sql = """
            SELECT known.window, scene.kind, scene.focused_at, stored.selected_tab, stored.window IS NOT NULL
            FROM (SELECT window FROM windows WHERE session = ?1\(only)
                  UNION SELECT window FROM window_scenes WHERE session = ?1\(only)) AS known
            LEFT JOIN window_scenes AS scene ON scene.session = ?1 AND scene.window = known.window
            LEFT JOIN windows AS stored ON stored.session = ?1 AND stored.window = known.window
            ORDER BY known.window
            """
        return try withDatabase(call) { database throws(StateStoreError) in
            var scenes: [WindowScene] = []
            try database.query(
                sql,
                bind: { statement throws(StateStoreError) in
                    try statement.bind(1, session)
                    if let window { try statement.bind(2, window) }
                },
                row: { statement throws(StateStoreError) in
                    scenes.append(
                        WindowScene(
                            session: session, window: statement.text(0),
                            kind: statement.isNull(1) ? nil : statement.text(1),
                            focusedAt: statement.isNull(2)
                                ? nil : Timestamp(millisecondsSince1970: statement.int64(2)),
                            selectedTab: statement.isNull(3) ? nil : statement.text(3),
                            hasState: statement.int(4) != 0))
                })
            return scenes
        }
    }
}

extension Database {
    /// ``WindowStore/focusedWindow(session:kind:)``, in the transaction under way (or its own).
    func focusedWindow(session: String, kind: String?) throws(StateStoreError) -> String? {
        let sql =
            "SELECT window FROM window_scenes WHERE session = ?1 \(kind == nil ? "" : "AND kind = ?2 ")"
            + "AND focused_at IS NOT NULL ORDER BY focused_at DESC, window LIMIT 1"
        var window: String?
        try query(
            sql,
            bind: { statement throws(StateStoreError) in
                try statement.bind(1, session)
                if let kind { try statement.bind(2, kind) }
            },
            row: { statement throws(StateStoreError) in window = statement.text(0) })
        return window
    }
}
