import Foundation
import StateStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// A change feed woken by file notifications, not by polling. Nothing is timed: the feeds here have
// a safety net of an hour, so a wait that returns a change within its (generous) timeout was woken
// by a notification; a wait that must not return is ended by an interrupt, never by the clock.

/// A folder, the database path in it, and other processes that write to it.
private struct NotificationFixture {
    let folder = TemporaryFolder(prefix: "statestore-notification-")
    var database: String { folder.file("state.db") }
    var wal: String { database + "-wal" }

    /// Settings whose feeds only a notification wakes: their safety net is an hour.
    static var notifiedOnly: WindowStore.Options {
        var options = WindowStore.Options()
        options.changeSchedule = WakeSchedule(safetyNet: .seconds(3600))
        return options
    }

    /// A store holding window `s`/`w`, left open for as long as it is held.
    func openStore(_ options: WindowStore.Options = notifiedOnly) throws -> WindowStore {
        let store = try WindowStore(path: database, options: options)
        try store.save(WindowState(session: "s", window: "w"))
        return store
    }

    /// Starts `executable arguments...` in another process, its output discarded.
    func start(_ executable: String, _ arguments: [String]) throws -> SpawnedChild {
        var environment = ProcessInfo.processInfo.environment
        environment["STATECTL_DB"] = nil
        return try SpawnedChild(executable, arguments, environment: environment)
    }

    /// Starts `statectl set s WINDOW --push Folder` on `path` in another process: one commit,
    /// made after the caller has begun to wait (starting a process takes far longer than that).
    func startSet(_ window: String, database path: String? = nil) throws -> SpawnedChild {
        try start(
            builtBinary("statectl", environment: "STATECTL_BIN"),
            ["--db", path ?? database, "set", "s", window, "--push", "Folder"])
    }

    /// Runs that write in another process to the end.
    func set(_ window: String, database path: String? = nil) throws {
        let process = try startSet(window, database: path)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}

private let generous = Duration.seconds(30)

private func resolved(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
}

/// The windows of `events`, which must all be changes, with their revisions (`-` for a deletion).
private func changes(_ events: [ChangeEvent]) -> [String] {
    events.map { event in
        guard let change = event.change else { return "not a change: \(event)" }
        return "\(change.window)@\(change.revision.map(String.init) ?? "-")"
    }
}

/// Runs `feed.wait(timeout:)` on another thread and, once that wait has polled and sleeps,
/// `action` on this one: what the action does to the files reaches the wait only through the
/// kernel's notifications (the safety net being an hour), which it expects to have woken the
/// wait (or, for a polling feed, not). Returns what the wait returned.
private func whileWaiting(
    _ feed: ChangeFeed, woken: Bool = true, timeout: Duration = generous,
    sourceLocation: SourceLocation = #_sourceLocation, _ action: () throws -> Void
) throws -> Result<[ChangeEvent], StateStoreError> {
    let wakes = feed.activity.wakes
    defer {
        // A wait that ran to its timeout still polls once before it returns: only the count of
        // wakes tells a notification from that last look.
        #expect((feed.activity.wakes > wakes) == woken, "woken by a notification", sourceLocation: sourceLocation)
    }
    final class Outcome: @unchecked Sendable {
        var result: Result<[ChangeEvent], StateStoreError>?
        let done = DispatchSemaphore(value: 0)
    }
    let outcome = Outcome()
    Thread {
        outcome.result = Result { () throws(StateStoreError) in try feed.wait(timeout: timeout) }
        outcome.done.signal()
    }.start()
    // The flag is set before the wait's poll(2) begins; events of the action, queued by the
    // kernel, wake it even if that call is a moment late. A wait that returned without sleeping
    // (its first poll found something, or failed) is left to say so.
    let deadline = ContinuousClock.now + timeout
    while !feed.activity.isWaiting && ContinuousClock.now < deadline {
        if outcome.done.wait(timeout: .now()) == .success {
            outcome.done.signal()
            break
        }
        usleep(200)
    }
    try action()
    outcome.done.wait()
    return outcome.result!
}

/// Waits until `process` has exited and says whether it succeeded.
/// `ChangeFeed.wait(timeout:interval:)` of version 0.1.0, called as a client built against it
/// calls it (through a protocol, so that this test uses no deprecated declaration itself).
private protocol FeedOfVersion010 {
    func wait(timeout: Duration?, interval: Duration) throws(StateStoreError) -> [ChangeEvent]
}

extension ChangeFeed: FeedOfVersion010 {}

/// `WindowStore.changes(session:interval:)` of version 0.1.0, likewise.
private protocol StoreOfVersion010 {
    func changes(
        session: String?, interval: Duration
    ) throws(StateStoreError)
        -> AsyncThrowingStream<ChangeEvent, any Error>
}

extension WindowStore: StoreOfVersion010 {}

private func succeeded(_ process: SpawnedChild) -> Bool {
    process.waitUntilExit()
    return process.terminationStatus == 0
}

#if canImport(Glibc)
    @Suite struct ChangeNotificationTests {
        @Test func aWriteByAnotherProcessWakesTheFeed() throws {
            let fixture = NotificationFixture()
            let store = try fixture.openStore()
            let feed = try store.changeFeed(session: "s")
            #expect(feed.notification == .notifications(folder: resolved(fixture.folder.path)))
            #expect(feed.notification.description == "file notifications on \(resolved(fixture.folder.path))")

            let events = try whileWaiting(feed) { try fixture.set("other") }.get()
            #expect(changes(events) == ["other@1"])
            // The feed's own connection keeps the WAL when the writer, closing, leaves.
            #expect(exists(fixture.wal))
        }

        @Test(arguments: ["PASSIVE", "FULL", "RESTART", "TRUNCATE"])
        func aCheckpointAndTheWALResetAfterItLoseNothing(mode: String) throws {
            let fixture = NotificationFixture()
            let store = try fixture.openStore()
            let feed = try store.changeFeed(session: "s")
            #expect(changes(try whileWaiting(feed) { try fixture.set("before") }.get()) == ["before@1"])

            // Another connection copies the WAL into the file; TRUNCATE and RESTART make the next
            // writer start the WAL over from its beginning.
            try rawSQL(fixture.database, "PRAGMA wal_checkpoint(\(mode))")
            #expect(try feed.poll().isEmpty, "a checkpoint is no change")
            #expect(changes(try whileWaiting(feed) { try fixture.set("after") }.get()) == ["after@1"])
            #expect(try store.windows(session: "s").map(\.window) == ["after", "before", "w"])
        }

        @Test func aDatabaseCreatedAfterTheFeedStartedIsReportedFromItsFirstChange() throws {
            let fixture = NotificationFixture()
            let path = fixture.folder.file("a/b/state.db")
            let feed = try WindowStore.changeFeed(path: path, session: "s", options: NotificationFixture.notifiedOnly)
            #expect(feed.awaitsDatabase)
            #expect(feed.notification == .notifications(folder: resolved(fixture.folder.path)))
            #expect(try feed.poll().isEmpty)
            #expect(!exists(fixture.folder.file("a")), "a feed creates nothing")

            let events = try whileWaiting(feed) { try fixture.set("w", database: path) }.get()
            #expect(changes(events) == ["w@1"])
            #expect(!feed.awaitsDatabase)
            #expect(feed.notification == .notifications(folder: resolved(fixture.folder.file("a/b"))))

            #expect(changes(try whileWaiting(feed) { try fixture.set("x", database: path) }.get()) == ["x@1"])
        }

        /// A feed whose poll finds its database watches the database's folder from then on, even
        /// while the creation of a folder on the way is still queued unread behind that poll: the
        /// order a full run under load once met, `a` and `a/b` made in quick succession and the
        /// first change reported while the feed still named `a`. Made here step by step: the
        /// feed's watch moves down to `a`; then `b`, the database and its first change come before
        /// the next wait, whose first poll finds the change.
        @Test func aFeedThatFindsItsDatabaseWatchesItsFolderAtOnce() throws {
            let fixture = NotificationFixture()
            let path = fixture.folder.file("a/b/state.db")
            let feed = try WindowStore.changeFeed(path: path, session: "s", options: NotificationFixture.notifiedOnly)
            #expect(feed.notification == .notifications(folder: resolved(fixture.folder.path)))
            try FileManager.default.createDirectory(
                atPath: fixture.folder.file("a"), withIntermediateDirectories: false)
            // The wait reads of `a` (queued before it began) and moves its watch there; nothing is
            // committed, so it ends at its timeout, however long it takes to get there.
            #expect(try feed.wait(timeout: .milliseconds(20)).isEmpty)
            #expect(feed.notification == .notifications(folder: resolved(fixture.folder.file("a"))))

            try fixture.set("w", database: path)
            #expect(changes(try feed.wait(timeout: generous)) == ["w@1"])
            #expect(feed.notification == .notifications(folder: resolved(fixture.folder.file("a/b"))))
            #expect(changes(try whileWaiting(feed) { try fixture.set("x", database: path) }.get()) == ["x@1"])
        }

        @Test func theWALDeletedByTheLastConnectionToCloseLosesNothing() throws {
            let fixture = NotificationFixture()
            let feed = try WindowStore.changeFeed(
                path: fixture.database, session: "s", options: NotificationFixture.notifiedOnly)
            // Created, written and closed by another process before the feed looks: the last
            // connection to close copies the WAL into the file and deletes it.
            try fixture.set("w")
            #expect(exists(fixture.database))
            #expect(!exists(fixture.wal))
            #expect(changes(try feed.wait(timeout: generous)) == ["w@1"])

            // The feed's connection has made the WAL again; the next writer appends to it.
            #expect(changes(try whileWaiting(feed) { try fixture.set("x") }.get()) == ["x@1"])
        }

        @Test func aFileReplacedUnderAWaitingFeedEndsItsWaitWithAnError() throws {
            let fixture = NotificationFixture()
            let store = try fixture.openStore()
            let copy = fixture.folder.file("copy.db")
            _ = try store.backup(to: copy)
            let feed = try store.changeFeed()

            let outcome = try whileWaiting(feed) { #expect(rename(copy, fixture.database) == 0) }
            #expect(throws: StateStoreError.replaced(path: fixture.database)) { try outcome.get() }
            #expect(throws: StateStoreError.replaced(path: fixture.database)) { try feed.wait(timeout: .zero) }
        }

        @Test func aFileThatIsNotADatabaseCreatedWhereTheFeedWaitsStopsIt() throws {
            let fixture = NotificationFixture()
            let feed = try WindowStore.changeFeed(path: fixture.database, options: NotificationFixture.notifiedOnly)
            let outcome = try whileWaiting(feed) {
                #expect(
                    FileManager.default.createFile(atPath: fixture.database, contents: Data("not SQLite at all\n".utf8))
                )
            }
            #expect(throws: StateStoreError.notADatabase(path: fixture.database)) { try outcome.get() }
            #expect(try String(contentsOfFile: fixture.database, encoding: .utf8) == "not SQLite at all\n")
        }

        @Test func forcedPollingFindsAnotherProcessesWriteWithoutNotifications() throws {
            let fixture = NotificationFixture()
            var options = NotificationFixture.notifiedOnly
            options.forcePolling = true
            let store = try fixture.openStore(options)
            let feed = try store.changeFeed(session: "s")
            #expect(feed.notification == .polling(reason: "polling was asked for"))
            #expect(feed.notification.description == "polling (polling was asked for)")

            let events = try whileWaiting(feed, woken: false) { try fixture.set("other") }.get()
            #expect(changes(events) == ["other@1"])
            #expect(feed.activity.timeouts >= 1)
            #expect(feed.activity.wakes == 0, "found by polling: no notification was waited for")
        }

        /// The feed watches its folder only from its first wait (or ``ChangeFeed/notification``):
        /// what was committed before that, from the feed's position on, the wait's first poll reads;
        /// an interrupt given before it ends it.
        @Test(.timeLimit(.minutes(1))) func aFeedArmedAtItsFirstWaitMissesNothingBeforeIt() throws {
            let fixture = NotificationFixture()
            let store = try fixture.openStore()
            let feed = try store.changeFeed(session: "s")
            feed.interrupt()
            #expect(try feed.wait(timeout: nil).isEmpty)
            #expect(feed.activity.interrupts == 1)

            let later = try store.changeFeed(session: "s")
            try fixture.set("before")
            #expect(changes(try later.wait(timeout: generous)) == ["before@1"])
            #expect(later.activity.wakes == 0)
            #expect(later.notification == .notifications(folder: resolved(fixture.folder.path)))
        }

        @Test(.timeLimit(.minutes(1))) func anInterruptEndsAWaitWithoutALimit() throws {
            let fixture = NotificationFixture()
            let store = try fixture.openStore()
            let feed = try store.changeFeed()
            Thread { feed.interrupt() }.start()
            #expect(try feed.wait(timeout: nil).isEmpty)
            #expect(feed.activity.interrupts == 1)
            // One given while nothing waits ends the next wait.
            feed.interrupt()
            #expect(try feed.wait(timeout: nil).isEmpty)
            #expect(feed.activity.interrupts == 2)
            // And a change waiting to be read comes first.
            try store.save(WindowState(session: "s", window: "x"))
            feed.interrupt()
            #expect(changes(try feed.wait(timeout: nil)) == ["x@1"])
        }

        @Test(.timeLimit(.minutes(1))) func theStreamWakesForAnotherProcessesWriteAndACancelledConsumerEnds()
            async throws
        {
            let fixture = NotificationFixture()
            let store = try fixture.openStore()
            let stream = try store.changes(session: "s")
            let writer = try fixture.startSet("other")
            var first: WindowChange?
            for try await event in stream {
                first = event.change
                break
            }
            #expect(first?.window == "other")
            #expect(succeeded(writer))

            // A consumer cancelled while its stream's thread waits with no limit ends (the thread
            // is interrupted).
            let consumer = Task {
                for try await _ in try store.changes(session: "s") {}
            }
            consumer.cancel()
            _ = await consumer.result
        }

        @Test(.timeLimit(.minutes(1))) func theFormsOfVersion010WithAnIntervalWaitOnNotifications() async throws {
            let fixture = NotificationFixture()
            let store = try fixture.openStore()
            let feed: any FeedOfVersion010 = try store.changeFeed(session: "s")
            // An interval of an hour is ignored: the write, made after the first poll, wakes both.
            let writer = try fixture.startSet("other")
            #expect(changes(try feed.wait(timeout: generous, interval: .seconds(3600))) == ["other@1"])
            #expect(succeeded(writer))

            let stream = try (store as any StoreOfVersion010).changes(session: "s", interval: .seconds(3600))
            let second = try fixture.startSet("another")
            var first: WindowChange?
            for try await event in stream {
                first = event.change
                break
            }
            #expect(first?.window == "another")
            #expect(succeeded(second))
        }

        @Test func aFeedOfAMissingPathNeedsAPath() {
            #expect(throws: StateStoreError.invalidInput("database path is empty")) {
                try WindowStore.changeFeed(path: "")
            }
            #expect(throws: StateStoreError.invalidInput("change feeds need a database file, not :memory:")) {
                try WindowStore.changeFeed(path: ":memory:")
            }
        }
    }
#endif
