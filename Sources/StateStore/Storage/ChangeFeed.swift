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
    /// The window's session.
    public var session: String
    /// The window's id.
    public var window: String
    /// The revision written; `nil` when the window was deleted.
    public var revision: Int?
    /// The window's state at that revision; `nil` when the window was deleted.
    public var state: WindowState?
}

/// What a change feed reports, in commit order: a change, or news that some cannot be reported.
public enum ChangeEvent: Hashable, Sendable {
    /// A window was written or deleted.
    case change(WindowChange)
    /// Changes were committed here that the log no longer holds (the feed fell too far behind):
    /// what they wrote is in the store, so reload the windows that matter.
    case gap(ChangeGap)
    /// A change whose logged row cannot be read (written by another program); skipped.
    case unreadable(UnreadableChange)

    /// The change, for a `.change`; `nil` for the others.
    public var change: WindowChange? {
        if case .change(let change) = self { change } else { nil }
    }
}

/// Changes a feed cannot report: sequence numbers `first...last` of the log, of every session
/// (the log no longer says whose).
public struct ChangeGap: Hashable, Sendable {
    /// The first sequence number missed: the one after the feed's position.
    public var first: Int64
    /// The last sequence number missed: just before the first the log still holds.
    public var last: Int64

    /// How many changes were missed.
    public var count: Int64 { last - first + 1 }
}

/// A logged change the feed could not read, and why.
public struct UnreadableChange: Hashable, Sendable {
    /// The row's position in the change log.
    public var sequence: Int64
    /// The session id as stored (bytes that are not UTF-8 read as U+FFFD).
    public var session: String
    /// The window id as stored.
    public var window: String
    /// What is wrong with the row, as the store found it (no SQL).
    public var reason: String
}

/// Learns of changes that any process — a host, `statectl`, another connection — commits to a
/// store, in commit order.
///
/// A feed keeps its own read connection, so it sees its own store's writes too, and asks SQLite's
/// `PRAGMA data_version` before anything else: a poll when nothing changed reads no table. The
/// log keeps the last 1,000 changes and every change of the latest write; a feed that falls
/// further behind gets a ``ChangeEvent/gap(_:)`` where the changes it missed were.
///
/// A feed is `Sendable`: its connection and position are behind a lock, so it may be polled from
/// any thread or task. Polls take turns, and each change is reported once, to the poll that reads
/// it; to have every change, poll from one place.
public final class ChangeFeed: Sendable {
    /// What a poll reads and moves on: guarded by the lock.
    private struct Position {
        let database: Database
        var cursor: Int64
        var dataVersion: Int?
    }

    private let state: Lock<Position>
    private let session: String?

    /// A feed of the changes committed after `position` (nil: after this moment), to windows of
    /// `session` or of all.
    init(path: String, options: StateStore.Options, session: String?, after position: Int64?) throws(StateStoreError) {
        if let session { try validateIdentifier(session, "session id") }
        let database = try Database(
            path: path, create: false, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
        self.session = session
        let cursor: Int64
        if let position {
            cursor = max(0, position)
        } else {
            cursor = try database.changeLogHighWaterMark()
        }
        state = Lock(Position(database: database, cursor: cursor, dataVersion: nil))
    }

    /// The position after the last change reported (or, before any, when the feed started).
    public var position: Int64 {
        state.withLock { $0.cursor }
    }

    /// What was committed since the last poll, oldest first; empty, cheaply, when nothing was.
    /// Fails for good once the file was replaced or deleted.
    public func poll() throws(StateStoreError) -> [ChangeEvent] {
        try state.withLock { state throws(StateStoreError) in try poll(&state) }
    }

    private func poll(_ state: inout Position) throws(StateStoreError) -> [ChangeEvent] {
        let database = state.database
        // A replaced file's data_version never changes: without this, the feed would go quiet.
        try database.checkStillAtPath()
        let version = try database.integer("PRAGMA data_version")
        guard version != state.dataVersion else { return [] }
        // Recorded before the snapshot below begins: a commit racing this poll changes the version
        // again, so the next poll reads it (a change seen twice is skipped by the cursor).
        state.dataVersion = version
        var events: [ChangeEvent] = []
        do {
            try readChanges(&state, into: &events)
        } catch {
            state.dataVersion = nil  // read again next time
            throw error
        }
        return events
    }

    private func readChanges(_ state: inout Position, into events: inout [ChangeEvent]) throws(StateStoreError) {
        let database = state.database
        var cursor = state.cursor
        try database.readTransaction { () throws(StateStoreError) in
            let highWaterMark = try database.changeLogHighWaterMark()
            if let gap = try gap(database, after: cursor, before: highWaterMark) { events.append(.gap(gap)) }
            var last = cursor
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
                    last = statement.int64(0)
                    events.append(try Self.event(statement))
                })
            // Other sessions' changes advance the cursor too, so they are not read again.
            cursor = max(cursor, last, highWaterMark)
        }
        state.cursor = cursor
    }

    /// The changes after the cursor that the log no longer holds: those before its first row
    /// after the cursor, or, when it has none, up to its high-water mark (a log emptied by hand).
    private func gap(
        _ database: Database, after cursor: Int64, before highWaterMark: Int64
    ) throws(StateStoreError) -> ChangeGap? {
        guard highWaterMark > cursor else { return nil }
        let next = try database.integer("SELECT seq FROM changes WHERE seq > ? ORDER BY seq LIMIT 1") {
            statement throws(StateStoreError) in try statement.bind(1, cursor)
        }
        let end = next.map { Int64($0) - 1 } ?? highWaterMark
        return end > cursor ? ChangeGap(first: cursor + 1, last: end) : nil
    }

    /// The event for a row of the query above: a change, or, for a row the store cannot read, the
    /// reason, so that one row written by hand never stops a feed.
    private static func event(_ statement: Statement) throws(StateStoreError) -> ChangeEvent {
        let sequence = statement.int64(0)
        if statement.int(1) == 1 {
            return .change(
                WindowChange(
                    sequence: sequence, session: statement.text(2), window: statement.text(3), revision: nil,
                    state: nil))
        }
        do throws(StateStoreError) {
            let state = try WindowRow.decode(statement, from: 2)
            return .change(
                WindowChange(
                    sequence: sequence, session: state.session, window: state.window, revision: state.revision,
                    state: state))
        } catch .damaged(let failure) {
            return .unreadable(
                UnreadableChange(
                    sequence: sequence, session: statement.text(2), window: statement.text(3),
                    reason: failure.message))
        }
    }

    /// Polls every `interval` until something is reported or `timeout` has passed (nil: no limit).
    public func wait(
        timeout: Duration? = nil, interval: Duration = .milliseconds(50)
    ) throws(StateStoreError)
        -> [ChangeEvent]
    {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        while true {
            let events = try poll()
            if !events.isEmpty { return events }
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
    /// earlier feed reached, from there on (0: from the first change ever; what the log no longer
    /// holds is reported as a gap) — to windows of `session` or of every session. Needs a database
    /// file (an in-memory store has no other writers to observe).
    public func changeFeed(session: String? = nil, after position: Int64? = nil) throws(StateStoreError) -> ChangeFeed {
        guard path != ":memory:" else { throw .invalidInput("change feeds need a database file, not :memory:") }
        // Through the store's own connection first: the schema must be current.
        try withDatabase { _ throws(StateStoreError) in }
        return try ChangeFeed(path: path, options: options, session: session, after: position)
    }

    /// What is committed from now on, as an async sequence polled every `interval`: changes, and
    /// gaps and unreadable rows where they fall. The feed is made before this returns, so a write
    /// made right after the call is in the sequence. Ends with an error if the store fails; cancel
    /// the consuming task to stop.
    public func changes(
        session: String? = nil, interval: Duration = .milliseconds(50)
    ) throws(StateStoreError)
        -> AsyncThrowingStream<ChangeEvent, any Error>
    {
        let feed = try changeFeed(session: session)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    while !Task.isCancelled {
                        for event in try feed.poll() { continuation.yield(event) }
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
