import Foundation
import StateStore
import StateStoreHost
import Testing

/// What the system does to an app, run here as scripted events into a real session over a real
/// file: launches in the foreground and the background, scenes recorded and discarded, a device
/// restored from a backup, background time that expires, a quit.
@MainActor
struct SceneLifeTests {
    // MARK: Discards

    @Test func aFixedIdWindowAndAnExtensionsWindowSurviveLaunchAndDiscards() async throws {
        let fixture = HostFixture()
        var options = fixture.options()
        options.pruneAfter = nil
        // The first launch: a scene's window, and a window the app opens by a fixed id.
        let first = try await fixture.open(options: options)
        let sceneWindow = first.window("scene-window", as: Mail.self)
        first.handle(.windowShown(window: "scene-window", sceneSession: "S-old"))
        sceneWindow.push(.folder("inbox"))
        sceneWindow.tab("inbox").push(.thread(1))
        let fixed = first.window("scene-1", as: Mail.self)
        fixed.push(.folder("fixed"))
        #expect(await first.flush())
        // An extension writes a window of its own.
        try fixture.store().save(WindowState(session: "app", window: "from-extension", path: [stored(.folder("x"))]))

        // The next launch: the system keeps another scene session only.
        let next = try await fixture.open(options: options)
        let live = next.window("scene-1", as: Mail.self)  // made before its view appears
        next.handle(.sceneSessionsKept(["S-new"]))
        #expect(await next.flush())
        let left = try fixture.store().windowSummaries(session: "app").map(\.window)
        #expect(left == ["from-extension", "scene-1"], "only the scene session's window and its tab went")
        #expect(live.path == [.folder("fixed")])
    }

    @Test func aLaunchWithNoSceneSessionDeletesNothing() async throws {
        let fixture = HostFixture()
        let first = try await fixture.open()
        first.handle(.windowShown(window: "a", sceneSession: "S1"))
        first.window("a", as: Mail.self).push(.folder("inbox"))
        #expect(await first.flush())

        // A device restored from a backup keeps no scene session at all.
        let restored = try await fixture.open()
        restored.handle(.sceneSessionsKept([]))
        restored.handle(.sceneSessionsKept(["S1"]))  // and the first word counts, once a launch
        #expect(await restored.flush())
        #expect(try fixture.store().windowSummaries(session: "app").map(\.window) == ["a"])
    }

    @Test func scenesTheSystemDiscardsWhileTheAppRunsTakeTheirWindows() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        for (window, scene) in [("a", "S1"), ("b", "S2")] {
            session.handle(.windowShown(window: window, sceneSession: scene))
            session.window(window, as: Mail.self).push(.folder(window))
        }
        #expect(await session.flush())
        try await session.discard(windows: ["a"])  // the app dropped its model first
        session.handle(.sceneSessionsDiscarded(["S1", "S2"]))
        #expect(await session.flush())
        #expect(try fixture.store().windowSummaries(session: "app").map(\.window) == ["b"], "b has a live model")
    }

    /// A discard waits for the file behind another process's lock; a model made meanwhile keeps
    /// its window.
    @Test func aDiscardSparesAWindowWhoseModelWasMadeWhileItWaited() async throws {
        let fixture = HostFixture()
        let first = try await fixture.open()
        first.handle(.windowShown(window: "late", sceneSession: "S-old"))
        first.window("late", as: Mail.self).push(.folder("inbox"))
        #expect(await first.flush())

        var options = fixture.options()
        options.store.busyTimeoutMilliseconds = 30_000
        let session = try await fixture.open(options: options)
        let lock = try WriteLock(fixture.database)
        session.handle(.sceneSessionsKept(["S-new"]))  // the discard is queued, and waits for the lock
        let model = session.window("late", as: Mail.self)  // a scene restored while the discard waits
        #expect(model.path == [.folder("inbox")])
        lock.release()
        #expect(await session.flush())
        #expect(model.path == [.folder("inbox")])
        #expect(try fixture.store().window(session: "app", window: "late")?.path == [stored(.folder("inbox"))])
    }

    // MARK: Background time

    @Test func aBackgroundLaunchRunsNoTransactionOutsideAnActivityAndItsFeedWaitsPaused() async throws {
        let fixture = HostFixture()
        try copyFirstSchemaFixture(to: fixture.database)  // the open migrates and vacuums
        let activity = FakeActivity()
        var options = fixture.options()
        options.activity = activity.activity
        options.duringJob = { activity.jobRan() }
        // A background launch: the app's `@State` makes the session, and no scene connects.
        let session = WindowSession(path: fixture.database, session: "app", options: options)
        await waitUntil("the open") { !session.isOpening }
        #expect(session.recovery == .none)
        await activity.waitUntilIdle()
        #expect(activity.jobs >= 1)
        #expect(activity.outside == 0, "every job ran inside an activity")
        #expect(activity.begun == 1 && activity.ended == 1, "one activity, ended when the writer drained")
        #expect(!session.isObserving)
        #expect(session.waitUntilObservingIsParked(), "the feed neither polls nor wakes")
        #expect(try rawQuery(fixture.database, "PRAGMA user_version") == [String(WindowStore.schemaVersion)])
    }

    @Test func oneActivityCoversTheWorkQueuedTogether() async throws {
        let fixture = HostFixture()
        let activity = FakeActivity()
        var options = fixture.options()
        options.activity = activity.activity
        options.duringJob = { activity.jobRan() }
        let session = try await fixture.open(options: options)
        await activity.waitUntilIdle()
        let (begunBefore, jobsBefore) = (activity.begun, activity.jobs)
        activity.holdNextBegin()  // everything below is queued before the writer starts on it
        let models = (0..<5).map { session.window("w\($0)", as: Mail.self) }
        for (index, model) in models.enumerated() { model.push(.message(index)) }
        let flushed = Task { await session.flush() }
        while !session.isFlushing { await Task.yield() }
        activity.release()
        #expect(await flushed.value)
        await activity.waitUntilIdle()
        #expect(activity.outside == 0)
        #expect(activity.jobs - jobsBefore >= 6, "five writes, the focus record and the flush's mark")
        #expect(activity.begun - begunBefore == 1, "one activity for the work queued together")
        #expect(activity.begun == activity.ended)
    }

    @Test func anActivityThatExpiresMidWriteRollsBackKeepsTheChangeAndWritesItAfterResume() async throws {
        let fixture = HostFixture()
        let activity = FakeActivity()
        let expiring = NSLockedFlag(true)
        var options = fixture.options()
        options.activity = activity.activity
        options.duringWrite = { if expiring.value { activity.expire() } }
        let session = try await fixture.open(options: options)
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        model.push(.folder("inbox"))
        model.environmentChanged(sizeClass: .regular, isActive: false)  // the app goes to the background
        #expect(await session.flush(timeout: .seconds(30)) == false, "the time ran out: nothing committed")
        #expect(try fixture.store().window(session: "app", window: "main") == nil, "rolled back")
        #expect(model.path == [.folder("inbox")], "kept")
        #expect(model.lastError == nil, "no failure: it waits")

        expiring.value = false
        model.environmentChanged(sizeClass: .regular, isActive: true)  // back in the foreground
        await waitUntil("written after the resume") { model.revision == 1 }
        #expect(try fixture.store().window(session: "app", window: "main")?.path == [stored(.folder("inbox"))])
    }

    // MARK: Flush and quit

    @Test func anotherConnectionReadsTheNewFocusRightAfterFlush() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let reader = try fixture.store()
        let a = session.window("a", as: Mail.self, kind: "mail")
        let b = session.window("b", as: Mail.self, kind: "mail")
        b.push(.folder("b"))
        a.push(.folder("a"))
        #expect(await session.flush())
        #expect(try reader.focusedWindow(session: "app") == "a", "the focus is written when flush returns")
        b.environmentChanged(sizeClass: .regular, isActive: true)  // a focus change, and nothing to write
        #expect(await session.flush())
        #expect(try reader.focusedWindow(session: "app") == "b", "the focus is written when flush returns")
        let other = try fixture.statectl(["show", "app", "--focused", "--json"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.stdout.contains(#""window":"b""#) || other.stdout.contains(#""window" : "b""#), "\(other.stdout)")
    }

    @Test func aQuitWritesWhatIsPendingBeforeItReturns() async throws {
        #expect(
            TerminationWatch.names.map(\.rawValue) == [
                "NSApplicationWillTerminateNotification", "UIApplicationWillTerminateNotification",
            ], "AppKit's and UIKit's will-terminate")
        let fixture = HostFixture()
        let quit = Notification.Name("aQuitWritesWhatIsPendingBeforeItReturns")  // this session's only
        var options = fixture.options()
        options.terminationNotifications = [quit]
        let session = try await fixture.open(options: options)
        let model = session.window("main", as: Mail.self)
        model.push(.folder("inbox"))  // in flight
        model.push(.thread(1))  // behind it
        // Posted on the main thread, as AppKit posts it (a test's main actor need not run there).
        await withCheckedContinuation { (posted: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async {
                NotificationCenter.default.post(name: quit, object: nil)
                posted.resume()
            }
        }
        #expect(
            try fixture.store().window(session: "app", window: "main")?.path == [
                stored(.folder("inbox")), stored(.thread(1)),
            ],
            "written before the notification returned")
        #expect(try fixture.store().focusedWindow(session: "app") == "main", "its time had not come")
    }

    @Test func aScenesGoingToTheBackgroundWritesAPendingSizeClassChange() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        fixture.clock.advance(by: .seconds(1))
        model.environmentChanged(sizeClass: .compact, isActive: true)  // settling, the clock stands still
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "main")?.sizeClass != .compact)
        fixture.clock.advance(by: .seconds(1))
        session.handle(.enteredBackground)
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "main")?.sizeClass == .compact)
    }

    // MARK: Helpers

    private func copyFirstSchemaFixture(to path: String) throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(
                atPath: fixtures.appendingPathComponent("schema1.db" + suffix).path, toPath: path + suffix)
        }
    }
}

/// A background activity the test grants, counts and takes back.
final class FakeActivity: @unchecked Sendable {
    private let lock = NSLock()
    private var held = false
    private var gate: DispatchSemaphore?
    private var expiry: (@Sendable () -> Void)?
    private(set) var begun = 0
    private(set) var ended = 0
    private(set) var jobs = 0
    /// Jobs that ran with no activity held.
    private(set) var outside = 0

    var activity: BackgroundActivity {
        BackgroundActivity { [self] expired in
            lock.withLock { gate }?.wait()
            lock.withLock {
                gate = nil
                begun += 1
                held = true
                expiry = expired
            }
            return { [self] in
                lock.withLock {
                    ended += 1
                    held = false
                    expiry = nil
                }
            }
        }
    }

    /// The next activity begun waits until ``release()``: what the writer has to do meanwhile
    /// waits with it.
    func holdNextBegin() {
        lock.withLock { gate = DispatchSemaphore(value: 0) }
    }

    /// Lets the activity held by ``holdNextBegin()`` begin.
    func release() {
        lock.withLock { gate }?.signal()
    }

    /// A job of the writer runs now.
    func jobRan() {
        lock.withLock {
            jobs += 1
            if !held { outside += 1 }
        }
    }

    /// The system takes the time back.
    func expire() {
        lock.withLock { expiry }?()
    }

    /// Waits until every activity begun has ended (the writer drained), at most ten seconds.
    func waitUntilIdle() async {
        let deadline = ContinuousClock.now + .seconds(10)
        while lock.withLock({ begun != ended }) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}

/// An app extension's one write (`WindowStore.perform`): inside one background activity, the store
/// closed before it ends; nothing opened when the system gives no time; a transaction the system
/// takes the time back from rolls back.
struct ExtensionWriteTests {
    @Test func aWriteRunsInsideOneActivity() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let activity = FakeActivity()
        let revision = try WindowStore.perform(at: path, activity: activity.activity) { store in
            activity.jobRan()
            return try store.update(session: "main", window: "w") { $0.push(route("Compose")) }.revision
        }
        #expect(revision == 1)
        #expect(activity.begun == 1 && activity.ended == 1 && activity.outside == 0)
        #expect(try WindowStore(path: path).window(session: "main", window: "w")?.path == [route("Compose")])
    }

    @Test func noTimeOpensNothing() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let refused = BackgroundActivity { _ in nil }
        #expect(throws: StateStoreError.self) {
            try WindowStore.perform(at: path, activity: refused) { _ in Issue.record("ran without time") }
        }
        #expect(!FileManager.default.fileExists(atPath: path), "nothing opened, nothing made")
    }

    @Test func timeTakenBackRollsTheTransactionBack() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let activity = FakeActivity()
        #expect(throws: StateStoreError.self) {
            try WindowStore.perform(at: path, activity: activity.activity) { store in
                try store.update(session: "main", window: "w") { state in
                    state.push(route("Compose"))
                    activity.expire()
                }
            }
        }
        #expect(activity.begun == activity.ended)
        #expect(try WindowStore(path: path).window(session: "main", window: "w") == nil, "rolled back")
    }

    @Test func anErrorOfTheBodyEndsTheActivityAndReachesTheCaller() throws {
        struct Mine: Error {}
        let activity = FakeActivity()
        #expect(throws: Mine.self) {
            try WindowStore.perform(at: TemporaryFolder().file("state.db"), activity: activity.activity) { _ in
                throw Mine()
            }
        }
        #expect(activity.begun == 1 && activity.ended == 1)
    }
}
