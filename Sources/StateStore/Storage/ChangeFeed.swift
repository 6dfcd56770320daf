#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One committed change to a window, by any process.
public struct WindowChange: Hashable, Sendable {
    /// The change's position in the store's change log; increases with every commit.
    public var sequence: Int64
    public var session: String
    public var window: String
    /// The revision written; `nil` when the window was deleted.
    public var revision: Int?
    /// The window's state at that revision; `nil` when the window was deleted.
    public var state: WindowState?
}

/// Learns of changes that any process — a host, `statectl`, another connection — commits to a
/// store, in commit order.
///
/// A feed keeps its own read connection, so it sees its own store's writes too, and asks SQLite's
/// `PRAGMA data_version` before anything else: a poll when nothing changed reads no table. The
/// store logs the last 1,000 changes; a feed that falls further behind skips the oldest.
public final class ChangeFeed {
    private let database: Database
    private let session: String?
    private var cursor: Int64
    private var dataVersion: Int?

    /// A feed of the changes committed after `position` (nil: after this moment), to windows of
    /// `session` or of all.
    init(path: String, options: StateStore.Options, session: String?, after position: Int64?) throws(StateStoreError) {
        if let session { try validateIdentifier(session, "session id") }
        database = try Database(path: path, create: false, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
        self.session = session
        if let position {
            cursor = max(0, position)
        } else {
            cursor = Int64(try database.integer("SELECT coalesce(max(seq), 0) FROM changes") ?? 0)
        }
    }

    /// The position after the last change reported (or, before any, when the feed started).
    public var position: Int64 { cursor }

    /// The changes committed since the last poll, oldest first; empty, cheaply, when there are none.
    /// Fails for good once the file was replaced or deleted.
    public func poll() throws(StateStoreError) -> [WindowChange] {
        // A replaced file's data_version never changes: without this, the feed would go quiet.
        try database.checkStillAtPath()
        let version = try database.integer("PRAGMA data_version")
        guard version != dataVersion else { return [] }
        // Recorded before the snapshot below begins: a commit racing this poll changes the version
        // again, so the next poll reads it (a change seen twice is skipped by the cursor).
        dataVersion = version
        var changes: [WindowChange] = []
        do {
            try readChanges(into: &changes)
        } catch {
            dataVersion = nil  // read again next time
            throw error
        }
        return changes
    }

    private func readChanges(into changes: inout [WindowChange]) throws(StateStoreError) {
        try database.readTransaction { () throws(StateStoreError) in
            try database.query(
                """
                SELECT seq, revision IS NULL, \(WindowRow.columns) FROM changes
                WHERE seq > ?1 AND (?2 IS NULL OR session = ?2) ORDER BY seq
                """,
                bind: { statement throws(StateStoreError) in
                    try statement.bind(1, cursor)
                    try statement.bind(2, session)
                },
                row: { statement throws(StateStoreError) in
                    let sequence = statement.int64(0)
                    if statement.int(1) == 1 {
                        changes.append(
                            WindowChange(
                                sequence: sequence, session: statement.text(2), window: statement.text(3),
                                revision: nil, state: nil))
                    } else {
                        let state = try WindowRow.decode(statement, from: 2)
                        changes.append(
                            WindowChange(
                                sequence: sequence, session: state.session, window: state.window,
                                revision: state.revision, state: state))
                    }
                })
            // Other sessions' changes advance the cursor too, so they are not read again.
            cursor = max(
                cursor, changes.last?.sequence ?? 0, Int64(try database.integer("SELECT max(seq) FROM changes") ?? 0))
        }
    }

    /// Polls every `interval` until changes arrive or `timeout` has passed (nil: no limit).
    public func wait(
        timeout: Duration? = nil, interval: Duration = .milliseconds(50)
    ) throws(StateStoreError)
        -> [WindowChange]
    {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        while true {
            let changes = try poll()
            if !changes.isEmpty { return changes }
            var pause = interval
            if let deadline {
                let left = deadline - clock.now
                if left <= .zero { return [] }
                pause = min(pause, left)
            }
            let (seconds, attoseconds) = pause.components
            var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            var remaining = timespec()
            while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
        }
    }
}

extension StateStore {
    /// A feed of the changes committed from now on — or, given a ``ChangeFeed/position`` an
    /// earlier feed reached, from there on (as far back as the log keeps: the last 1,000 changes;
    /// 0: all it keeps) — to windows of `session` or of every session. Needs a database file (an
    /// in-memory store has no other writers to observe).
    public func changeFeed(session: String? = nil, after position: Int64? = nil) throws(StateStoreError) -> ChangeFeed {
        guard path != ":memory:" else { throw .invalidInput("change feeds need a database file, not :memory:") }
        // Through the store's own connection first: the schema must be current.
        try withDatabase { _ throws(StateStoreError) in }
        return try ChangeFeed(path: path, options: options, session: session, after: position)
    }

    /// The changes committed from now on, as an async sequence polled every `interval`. Ends
    /// with an error if the store fails; cancel the consuming task to stop.
    public func changes(
        session: String? = nil, interval: Duration = .milliseconds(50)
    )
        -> AsyncThrowingStream<WindowChange, any Error>
    {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let feed = try changeFeed(session: session)
                    while !Task.isCancelled {
                        for change in try feed.poll() { continuation.yield(change) }
                        try await Task.sleep(for: interval)
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
