/// A session `prune` removed, or would remove.
public struct PrunedSession: Hashable, Sendable {
    /// The session's id.
    public var session: String
    /// Its windows, sorted.
    public var windows: [String]
    /// The most recent write to any of its windows.
    public var lastWrite: Timestamp
}

extension WindowStore {
    /// Deletes the sessions none of whose windows was written within `age` of now (the store's
    /// clock), with their history and scene facts, in one transaction; with `dryRun`, only reports
    /// them. Sorted by session.
    ///
    /// The scene facts of a session that has no window with state go too when none of its windows
    /// was focused within `age` (or ever); they hold no state, and are not reported.
    @discardableResult
    public func prune(olderThan age: Duration, dryRun: Bool = false) throws(StateStoreError) -> [PrunedSession] {
        let before = try cutoff(olderThan: age)
        return try withDatabase { database throws(StateStoreError) in
            let body = { () throws(StateStoreError) -> [PrunedSession] in
                var pruned: [PrunedSession] = []
                try database.query(
                    "SELECT session, max(updated_at) FROM windows GROUP BY session HAVING max(updated_at) < ? ORDER BY session",
                    bind: { statement throws(StateStoreError) in try statement.bind(1, before) },
                    row: { statement throws(StateStoreError) in
                        pruned.append(
                            PrunedSession(
                                session: statement.text(0), windows: [],
                                lastWrite: Timestamp(millisecondsSince1970: statement.int64(1))))
                    })
                if !dryRun {
                    try database.run(
                        """
                        DELETE FROM window_scenes WHERE session IN (
                            SELECT session FROM window_scenes GROUP BY session
                            HAVING coalesce(max(focused_at) < ?1, 1)
                        ) AND session NOT IN (SELECT session FROM windows)
                        """
                    ) { statement throws(StateStoreError) in try statement.bind(1, before) }
                }
                for index in pruned.indices {
                    if dryRun {
                        try database.query(
                            """
                            SELECT window FROM windows WHERE session = ?1
                            UNION SELECT window FROM window_scenes WHERE session = ?1 ORDER BY window
                            """,
                            bind: { statement throws(StateStoreError) in try statement.bind(1, pruned[index].session) },
                            row: { statement throws(StateStoreError) in pruned[index].windows.append(statement.text(0))
                            })
                    } else {
                        pruned[index].windows = try database.deleteWindows(session: pruned[index].session, window: nil)
                    }
                }
                return pruned
            }
            // A dry run writes nothing, so it reads: a host writing at the time never makes it busy.
            return try dryRun ? database.readTransaction(body) : database.changingWindows(body)
        }
    }

    /// Deletes the windows of `session` not written within `age` of now, with their history and
    /// scene facts, in one transaction, except the windows named in `kept` (compared as bytes).
    /// A window known only by its scene facts goes when it was not focused within `age` (or
    /// ever). Returns the deleted window ids, sorted.
    @discardableResult
    public func pruneWindows(
        session: String, olderThan age: Duration, keeping kept: [String] = []
    ) throws(StateStoreError) -> [String] {
        let spared = Set(kept.map { Array($0.utf8) })
        return try pruneWindows(session: session, olderThan: age) { spared.contains(Array($0.utf8)) }
    }

    /// ``pruneWindows(session:olderThan:keeping:)`` sparing the windows `spares` says to, asked
    /// inside the transaction for each window about to go: a host asks whether a model of it was
    /// made meanwhile.
    ///
    /// Package surface: the host's session prunes with it, sparing a window it made a model of
    /// while the prune ran.
    @discardableResult
    package func pruneWindows(
        session: String, olderThan age: Duration, sparing spares: (String) -> Bool
    ) throws(StateStoreError) -> [String] {
        try validateIdentifier(session, "session id")
        let before = try cutoff(olderThan: age)
        return try withDatabase { database throws(StateStoreError) in
            try database.changingWindows { () throws(StateStoreError) -> [String] in
                var old: [String] = []
                try database.query(
                    """
                    SELECT window FROM windows WHERE session = ?1 AND updated_at < ?2
                    UNION SELECT window FROM window_scenes AS scene WHERE session = ?1
                        AND coalesce(focused_at < ?2, 1)
                        AND NOT EXISTS (SELECT 1 FROM windows WHERE session = ?1 AND window = scene.window)
                    ORDER BY window
                    """,
                    bind: { statement throws(StateStoreError) in
                        try statement.bind(1, session)
                        try statement.bind(2, before)
                    },
                    row: { statement throws(StateStoreError) in
                        old.append(statement.text(0))
                    })
                old.removeAll(where: spares)
                for window in old { try database.deleteWindows(session: session, window: window) }
                return old
            }
        }
    }

    /// The time stamp before which a write is older than `age`, by the store's clock; never traps.
    private func cutoff(olderThan age: Duration) throws(StateStoreError) -> Int64 {
        let (seconds, attoseconds) = age.components
        guard seconds >= 0, attoseconds >= 0 else { throw .invalidInput("prune age must not be negative") }
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        let withFraction = milliseconds.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        let ageMilliseconds = milliseconds.overflow || withFraction.overflow ? Int64.max : withFraction.partialValue
        let now = options.clock().millisecondsSince1970
        let cutoff = now.subtractingReportingOverflow(ageMilliseconds)
        return cutoff.overflow ? Int64.min : cutoff.partialValue
    }
}
