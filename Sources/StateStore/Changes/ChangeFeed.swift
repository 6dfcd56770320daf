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
    /// The revision written; `nil` when the window was deleted — by this change, or since: a
    /// deleted window's states leave the change log with it, and its earlier changes then read as
    /// its deletion.
    public var revision: Int?
    /// The window's state at that revision; `nil` when the window was deleted (by this change, or
    /// since).
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
/// log keeps every change of the latest write and, before it, the last 1,000 changes within
/// ``WindowStore/Options/changeLogByteLimit`` bytes of state; a feed that falls further behind gets
/// a ``ChangeEvent/gap(_:)`` where the changes it missed were. A deleted window's states leave the
/// log with it: a feed behind reads its earlier changes as its deletion.
///
/// ``wait(timeout:)`` sleeps until the database's files change (``notification`` says how it
/// learns of that), then polls: an idle feed wakes every 2 seconds only, and a commit reaches it
/// within milliseconds.
///
/// A feed is `Sendable`: its connection and position are behind a lock, so it may be polled from
/// any thread or task. Polls take turns, and each change is reported once, to the poll that reads
/// it; to have every change, poll from one place. One thread at a time waits; ``interrupt()``
/// ends its wait from any other.
public final class ChangeFeed: Sendable {
    /// What a poll reads and moves on: guarded by the lock.
    private struct Position {
        /// `nil` while the feed waits for its database to be created.
        var database: Database?
        var cursor: Int64
        var dataVersion: Int?
    }

    /// When a wait polls anyway: guarded by its own lock, held for a whole wait, so that polls and
    /// ``notification`` do not wait for it.
    private struct Waiting {
        var schedule: WakeSchedule
        /// How the last wait ended, for the schedule: the poll after it has not been told yet.
        var lastWake: Wake?
        /// The armed source that was told the database exists (``WakeSource/databaseFound()``);
        /// weak, so that a source armed later at the same address is told too.
        weak var toldOfDatabase: (any WakeSource)?
    }

    /// What ``interrupt()``, ``pause()`` and ``resume()`` asked for: each sets its flag here, then
    /// kicks the interrupter, and a wait that the kick ended reads the flags to know why.
    private struct Control {
        var paused = false
        var interrupted = false
    }

    private let state: Lock<Position>
    private let waiting: Lock<Waiting>
    /// The source, armed on first use (the first wait, or ``notification``): arming watches a
    /// folder, which costs milliseconds on Linux that a host opening its store should not pay on
    /// its way to the first frame. Its wait runs only under `waiting`; a pause drops it.
    private let armed = Lock<(any WakeSource)?>(nil)
    /// How the armed source learns of changes; `nil` until it is armed.
    private let current = Lock<ChangeNotification?>(nil)
    private let counts = Lock(Activity())
    private let control = Lock(Control())
    private let sources: WakeSources
    private let interrupter: any WakeInterrupter
    private let session: String?
    private let path: String
    private let options: WindowStore.Options

    /// A feed of the changes committed after `position` (nil: after this moment), to windows of
    /// `session` or of all. With `awaitingCreation`, a missing file is waited for, and read from
    /// its first change once it exists; otherwise the file must exist.
    init(
        path: String, options: WindowStore.Options, session: String?, after position: Int64?,
        awaitingCreation: Bool = false
    ) throws(StateStoreError) {
        if let session { try validateIdentifier(session, "session id") }
        guard !path.isEmpty else { throw .invalidInput("database path is empty") }
        sources = options.wakeSources
        // The interrupter's pipe and the feed's connection (the database and its -wal).
        try DescriptorReserve.check(4, for: "follow the changes of \(path)", reserve: options.descriptorReserve)
        // Made now, so that an interrupt before the first wait ends that wait.
        interrupter = try sources.makeInterrupter()
        self.session = session
        self.path = path
        self.options = options
        var database: Database? = nil
        var exists = true
        if awaitingCreation { exists = try Self.openCreated(path, options) }
        if exists {
            database = try Database(
                path: path, create: false, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds, access: .readWrite,
                readsDescriptor: options.readsDescriptor, protection: options.fileProtection.sqliteOpenFlag)
        }
        let cursor: Int64
        if let position {
            cursor = max(0, position)
        } else if let database {
            cursor = try database.changeLogHighWaterMark()
        } else {
            cursor = 0  // a database created later: every change it has is after this moment
        }
        state = Lock(Position(database: database, cursor: cursor, dataVersion: nil))
        waiting = Lock(Waiting(schedule: options.changeSchedule, lastWake: nil))
    }

    /// The source, armed now if it is not yet. A wait arms it before its first poll, so that
    /// anything committed after that poll wakes the wait, and anything before it, back to the
    /// feed's position, that poll reads.
    ///
    /// A watch that would take descriptors the store leaves to the rest of the process
    /// (``DescriptorReserve``) is not made: the feed polls instead, which opens nothing, and this
    /// call throws the shortage once, so that the caller (a host's `lastError`) hears of it.
    private func source() throws(StateStoreError) -> any WakeSource {
        try armed.withLock { source throws(StateStoreError) in
            if let source { return source }
            var shortage: StateStoreError? = nil
            if !options.forcePolling {
                do throws(StateStoreError) {
                    try DescriptorReserve.check(
                        ChangeSignal.descriptorsPerWatch, for: "watch \(path) for changes",
                        reserve: options.descriptorReserve)
                } catch {
                    shortage = error
                }
            }
            let made = try sources.makeSource(
                WakeSources.Request(
                    path: path, watching: !options.forcePolling && shortage == nil,
                    notificationPrefix: options.notificationPrefix, interrupter: interrupter,
                    pollingReason: shortage.map(Self.reason)))
            source = made
            current.withLock { $0 = made.notification }
            if let shortage { throw shortage }
            return made
        }
    }

    /// An error's message alone, for a polling reason.
    private static func reason(_ error: StateStoreError) -> String {
        if case .io(let failure) = error { return failure.message }
        return "\(error)"
    }

    /// The position after the last change reported (or, before any, when the feed started).
    public var position: Int64 {
        state.withLock { $0.cursor }
    }

    /// Whether the feed waits for its database to be created (see
    /// ``StateStore/WindowStore/changeFeed(path:session:after:options:)``).
    ///
    /// Package surface: `statectl watch` asks it, to say that it waits for the file to be made.
    package var awaitsDatabase: Bool {
        state.withLock { $0.database == nil }
    }

    /// How the feed learns of changes now: file notifications on a folder, or polling and why.
    /// Notifications may turn to polling while the feed runs (when reading them fails).
    public var notification: ChangeNotification {
        if let known = current.withLock({ $0 }) { return known }
        do {
            return try source().notification
        } catch {
            return .polling(reason: "\(error)")
        }
    }

    /// What was committed since the last poll, oldest first; empty, cheaply, when nothing was.
    /// Fails for good once the file was replaced or deleted.
    public func poll() throws(StateStoreError) -> [ChangeEvent] {
        counts.withLock { $0.polls += 1 }
        return try state.withLock { state throws(StateStoreError) in try poll(&state) }
    }

    /// Blocks until something is committed and reports it, oldest first; returns empty when
    /// `timeout` passes first (nil: no limit) or ``interrupt()`` is called.
    ///
    /// It polls, then sleeps until the database's files change, a recheck is due (SQLite makes a
    /// commit visible just after the write that announces it, so a wake by that write is followed
    /// by polls 1, 2, 4 … 256 ms later on Linux, 1, 4 … 256 ms on Apple platforms, where a
    /// writer's notification after its commit needs none), or the safety net passes (2 seconds
    /// on Linux, 30 on Apple platforms); where there are no notifications, it polls every 50 ms.
    public func wait(timeout: Duration? = nil) throws(StateStoreError) -> [ChangeEvent] {
        // Capped so that the deadline's arithmetic cannot overflow (68 years is "no limit" too).
        let deadline = timeout.map { sources.now() + min(max($0, .zero), .seconds(Int64(Int32.max))) }
        return try waiting.withLock { waiting throws(StateStoreError) in
            while true {
                if control.withLock({ $0.paused }) {
                    guard try waitWhilePaused(until: deadline) else { return [] }
                    waiting.schedule.reset()
                    waiting.lastWake = nil
                    continue
                }
                let source = try source()
                let events = try poll()
                if waiting.toldOfDatabase !== source && !awaitsDatabase {
                    // Its folders may have come faster than the source has read of them.
                    source.databaseFound()
                    waiting.toldOfDatabase = source
                    current.withLock { $0 = source.notification }
                }
                let next = waiting.schedule.next(
                    after: waiting.lastWake, found: !events.isEmpty, mechanism: source.mechanism)
                waiting.lastWake = nil
                if !events.isEmpty { return events }
                var pause = next
                if let deadline {
                    let left = deadline - sources.now()
                    if left <= .zero { return [] }
                    pause = min(pause, left)
                }
                counts.withLock { $0.isWaiting = true }
                let wake = source.wait(timeout: pause)
                waiting.lastWake = wake
                current.withLock { $0 = source.notification }
                counts.withLock { $0.count(wake) }
                // A kick of the interrupter: an interrupt ends the wait; a pause or a resume is
                // seen at the top of the loop.
                if wake == .interrupted && takeInterrupt() { return [] }
            }
        }
    }

    /// A paused feed's wait: the armed source is dropped (nothing is watched, nothing wakes) and
    /// the thread blocks on the interrupter alone until ``resume()``, ``interrupt()`` or the
    /// deadline. True when resumed (the caller goes on: it arms a source and polls, catching up).
    private func waitWhilePaused(until deadline: Duration?) throws(StateStoreError) -> Bool {
        disarm()
        let idle = try sources.makeSource(
            WakeSources.Request(
                path: path, watching: false, notificationPrefix: nil, interrupter: interrupter,
                pollingReason: "the feed is paused"))
        counts.withLock { $0.isPaused = true }
        defer { counts.withLock { $0.isPaused = false } }
        while true {
            var left: Duration? = nil
            if let deadline {
                left = deadline - sources.now()
                if let remaining = left, remaining <= .zero { return false }
            }
            if idle.wait(timeout: left) == .interrupted {
                if takeInterrupt() { return false }
                if !control.withLock({ $0.paused }) {
                    counts.withLock { $0.resumes += 1 }
                    return true
                }
            }
        }
    }

    /// Whether ``interrupt()`` was called since the last wait it ended; clears it.
    private func takeInterrupt() -> Bool {
        control.withLock { control in
            defer { control.interrupted = false }
            return control.interrupted
        }
    }

    /// Stops watching until the next wait arms the watch again. A thread that waits on the feed
    /// calls it before it ends, so that closing the watch (on Linux, milliseconds spent waiting
    /// for the kernel) falls on that thread, not on whichever releases the feed last.
    ///
    /// Package surface: the host's feed loop (StateStoreHost's `FeedLoop`) calls it as its thread
    /// ends.
    package func disarm() {
        let source = armed.withLock { armed in
            defer { armed = nil }
            return armed
        }
        withExtendedLifetime(source) {}
    }

    /// Ends the current ``wait(timeout:)`` (it returns empty), or the next one if none is under
    /// way; callable from any thread or task.
    public func interrupt() {
        control.withLock { $0.interrupted = true }
        interrupter.interrupt()
    }

    /// Pauses the feed: from now until ``resume()`` its waits neither poll nor wake — the source
    /// is dropped (on Linux the inotify watch is closed; on Apple platforms the Darwin
    /// notification is cancelled and the kqueue closed) and a wait blocks until ``resume()``,
    /// ``interrupt()`` (it returns empty) or its timeout. A wait under way is moved to that state
    /// at once. Callable from any thread.
    ///
    /// Package surface: the host's session pauses its feed while none of its windows is active or
    /// the app paused it, so that a session in the background watches nothing.
    package func pause() {
        control.withLock { $0.paused = true }
        interrupter.interrupt()
    }

    /// Ends a pause: a wait blocked by it arms a source again and polls first, so that what was
    /// committed meanwhile is reported (what the log no longer holds, as a gap).
    ///
    /// Package surface: the host's session resumes its feed when a window is active again.
    package func resume() {
        control.withLock { $0.paused = false }
        interrupter.interrupt()
    }

    /// The wait of version 0.1.0, which polled every `interval`: now ``wait(timeout:)``, and
    /// `interval` is ignored (polling, where it is wanted, is ``StateStore/WindowStore/Options/forcePolling``).
    @available(
        *, deprecated, renamed: "wait(timeout:)", message: "the feed waits on file notifications; interval is ignored"
    )
    public func wait(
        timeout: Duration? = nil, interval: Duration = .milliseconds(50)
    ) throws(StateStoreError)
        -> [ChangeEvent]
    {
        try wait(timeout: timeout)
    }

    /// What the feed has done so far, for tests and benchmarks.
    ///
    /// Package surface: the host's feed loop reads whether its wait is paused from it, and hands it
    /// on to the host's tests.
    package var activity: Activity {
        counts.withLock { $0 }
    }

    /// How often a feed polled and how its waits ended.
    ///
    /// Package surface: what ``activity`` gives the host.
    package struct Activity: Hashable, Sendable {
        /// Polls, by ``poll()`` or inside a wait.
        package var polls = 0
        /// Waits ended by a change to the database's files.
        package var wakes = 0
        /// Waits that ran to their timeout: rechecks, the safety net, polling, a caller's timeout.
        package var timeouts = 0
        /// Waits ended by the interrupter: ``interrupt()``, ``pause()`` or ``resume()``.
        package var interrupts = 0
        /// Paused waits ended by ``resume()``.
        package var resumes = 0
        /// Whether a wait is paused now (``pause()``): nothing is watched, and it wakes only for
        /// ``resume()`` or ``interrupt()``.
        package var isPaused = false
        /// Whether a wait has polled and sleeps now: what happens to the files from here on,
        /// the kernel tells it.
        package var isWaiting = false

        fileprivate mutating func count(_ wake: Wake) {
            isWaiting = false
            switch wake {
            case .changed: wakes += 1
            case .timedOut: timeouts += 1
            case .interrupted: interrupts += 1
            }
        }
    }

    private func poll(_ state: inout Position) throws(StateStoreError) -> [ChangeEvent] {
        if state.database == nil {
            guard try Self.openCreated(path, options) else { return [] }
            state.database = try Database(
                path: path, create: false, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds, access: .readWrite,
                readsDescriptor: options.readsDescriptor, protection: options.fileProtection.sqliteOpenFlag)
        }
        guard let database = state.database else { return [] }
        // A replaced file's data_version never changes: without this, the feed would go quiet.
        try database.checkStillAtPath(reading: true)
        let version = try database.integer("PRAGMA data_version")
        guard version != state.dataVersion else { return [] }
        // Recorded before the snapshot below begins: a commit racing this poll changes the version
        // again, so the next poll reads it (a change seen twice is skipped by the cursor).
        state.dataVersion = version
        var events: [ChangeEvent] = []
        do {
            try readChanges(database, &state, into: &events)
        } catch {
            state.dataVersion = nil  // read again next time
            throw error
        }
        return events
    }

    /// Whether the file at `path` is a store now, opened as one once, creating and writing
    /// nothing: an empty file (zero length, as another process has only begun to create it) is
    /// not one yet, and is waited for like a missing one; one of an older schema is migrated
    /// when `options` say so.
    private static func openCreated(_ path: String, _ options: WindowStore.Options) throws(StateStoreError) -> Bool {
        var reading = options
        reading.createIfMissing = false
        reading.migrate = false
        do {
            let store = try WindowStore(path: path, options: reading)
            let version = try store.migrationStatus().schemaVersion
            if version == 0 { return false }
            if version < WindowStore.schemaVersion && options.migrate { try store.migrate() }
            return true
        } catch .notFound(.file) {
            return false
        }
    }

    private func readChanges(
        _ database: Database, _ state: inout Position, into events: inout [ChangeEvent]
    ) throws(StateStoreError) {
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
}

extension WindowStore {
    /// A feed of the changes committed from now on — or, given a ``ChangeFeed/position`` an
    /// earlier feed reached, from there on (0: from the first change ever; what the log no longer
    /// holds is reported as a gap) — to windows of `session` or of every session. Needs a database
    /// file (an in-memory store has no other writers to observe). The feed polls instead of
    /// waiting for notifications when ``Options/forcePolling`` is set.
    public func changeFeed(session: String? = nil, after position: Int64? = nil) throws(StateStoreError) -> ChangeFeed {
        try Self.checkHasFile(path)
        // Through the store's own connection first: the schema must be current.
        try withDatabase { _ throws(StateStoreError) in }
        return try ChangeFeed(path: path, options: options, session: session, after: position)
    }

    /// Fails for a store in memory, which has no file, and no other writers to observe. Internal,
    /// not private: the feeds of the package surface (Changes+PackageSurface.swift) check with it.
    static func checkHasFile(_ path: String) throws(StateStoreError) {
        guard DatabasePath.isFile(path) else { throw .invalidInput("change feeds need a database file, not :memory:") }
    }

    /// What is committed from now on, as an async sequence: changes, and gaps and unreadable rows
    /// where they fall. The feed is made before this returns, so a write made right after the call
    /// is in the sequence. Ends with an error if the store fails; cancel the consuming task to stop.
    ///
    /// The feed waits on a thread of its own (one per sequence, ended when the sequence is), never
    /// blocking Swift's cooperative pool, and wakes as ``ChangeFeed/wait(timeout:)`` does.
    public func changes(session: String? = nil) throws(StateStoreError) -> AsyncThrowingStream<ChangeEvent, any Error> {
        let feed = try changeFeed(session: session)
        let (stream, continuation) = AsyncThrowingStream<ChangeEvent, any Error>.makeStream()
        let ended = Lock(false)
        continuation.onTermination = { _ in
            ended.withLock { $0 = true }
            feed.interrupt()
        }
        try startThread {
            do throws(StateStoreError) {
                while !ended.withLock({ $0 }) {
                    for event in try feed.wait() { continuation.yield(event) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream
    }

    /// The sequence of version 0.1.0, which polled every `interval`: now ``changes(session:)``,
    /// and `interval` is ignored (polling, where it is wanted, is ``Options/forcePolling``).
    @available(
        *, deprecated, renamed: "changes(session:)",
        message: "the feed waits on file notifications; interval is ignored"
    )
    public func changes(
        session: String? = nil, interval: Duration = .milliseconds(50)
    ) throws(StateStoreError)
        -> AsyncThrowingStream<ChangeEvent, any Error>
    {
        try changes(session: session)
    }
}

/// Runs `body` on a new detached thread: a blocking wait kept off Swift's cooperative pool.
private func startThread(_ body: @escaping @Sendable () -> Void) throws(StateStoreError) {
    let code = startDetachedThread(body)
    guard code == 0 else {
        throw .io(
            SQLiteFailure(
                code: .ioErr, message: "cannot start the change feed's thread: " + String(cString: strerror(code))))
    }
}
