import Foundation
import StateStore
import StateStoreHost
import Testing

/// What an app no longer writes: code every app wrote again, the package's now. A session made
/// synchronously, in memory, in its default home; storage trouble apart from mistakes; a policy per
/// presentation; one edit for a deep link; route types across modules; observing only while a
/// window is active; time the system refuses or takes back.
@MainActor
struct NoGlueTests {
    // MARK: A session without waiting

    @Test func aSessionMadeSynchronouslyKeepsWhatTheUserDoesWhileItOpens() async throws {
        let fixture = HostFixture()
        try fixture.store().save(WindowState(session: "app", window: "main", path: [stored(.folder("inbox"))]))
        let activity = FakeActivity()
        activity.holdNextBegin()  // the open waits, as behind a slow disk
        var options = fixture.options()
        options.activity = activity.activity
        let session = WindowSession(path: fixture.database, session: "app", options: options)
        #expect(session.isOpening, "it opens in the background")
        let model = session.window("main", as: Mail.self)
        #expect(model.isRestoring, "its windows fill in once the file is open")
        #expect(model.path == [])
        model.push(.thread(1))
        #expect(model.path == [.thread(1)], "what the user does shows at once")
        activity.release()

        await waitUntil("the window restored") { !model.isRestoring }
        #expect(!session.isOpening)
        #expect(session.recovery == .none)
        #expect(model.path == [.folder("inbox"), .thread(1)], "made again on top of what was stored")
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "main")?.path.count == 2)
        #expect(try fixture.store().window(session: "app", window: "main")?.revision == 2)
    }

    @Test func aFileASessionCannotUseIsReportedNeverThrown() async throws {
        let fixture = HostFixture()
        try rawSQL(fixture.database, "CREATE TABLE notes (text TEXT)")
        let before = try #require(contents(fixture.database))
        let session = WindowSession(path: fixture.database, session: "app", options: fixture.options())
        await waitUntil("opened") { !session.isOpening }
        guard case .inMemory(.notOurs) = session.recovery else {
            Issue.record("the session runs in memory, not \(session.recovery)")
            return
        }
        #expect(session.storageIssue?.kind == .runningInMemory)
        let model = session.window("main", as: Mail.self)
        model.push(.folder("inbox"))
        #expect(model.path == [.folder("inbox")], "the app works on")
        #expect(await session.flush() == false, "nothing is durable in memory")
        #expect(contents(fixture.database) == before)

        session.storageIssue = nil
        #expect(session.storageIssue == nil, "the app clears what it showed")
    }

    @Test(arguments: ["", "bad\u{1}id"])
    func aSessionIdOrPathTheStoreRefusesRunsInMemory(_ bad: String) async throws {
        let fixture = HostFixture()
        let session =
            bad.isEmpty
            ? WindowSession(path: "", session: "app", options: fixture.options())
            : WindowSession(path: fixture.database, session: bad, options: fixture.options())
        #expect(!session.isOpening)
        guard case .inMemory(.invalidInput) = session.recovery else {
            Issue.record("the session runs in memory, not \(session.recovery)")
            return
        }
        #expect(session.storageIssue?.kind == .runningInMemory)
        #expect(!exists(fixture.database))
    }

    @Test func anURLThatIsNotAFileRunsInMemory() async throws {
        let session = WindowSession(url: URL(string: "https://example.com/state.db")!, session: "app")
        guard case .inMemory(.invalidInput) = session.recovery else {
            Issue.record("the session runs in memory, not \(session.recovery)")
            return
        }
        let file = WindowSession(url: URL(fileURLWithPath: HostFixture().database), session: "app")
        await waitUntil("opened") { !file.isOpening }
        #expect(file.recovery == .none)
    }

    @Test func anInMemorySessionWorksWithoutAFileOrAFeed() async throws {
        let session = WindowSession.inMemory()
        #expect(session.path == ":memory:")
        #expect(!session.isOpening)
        #expect(session.changeNotification == nil)
        let model = session.window("preview", as: Mail.self)
        model.present(.compose(draft: 1))
        model.environmentChanged(sizeClass: .compact, isActive: true)
        #expect(model.sheet?.route == .compose(draft: 1))
        #expect(await session.flush() == false, "in memory: nothing is durable")
        #expect(model.lastError == nil)
        #expect(session.storageIssue == nil, "asked for, not a trouble")
    }

    @Test func aModelForPreviewsNeedsNoSession() async throws {
        let clock = TestClock()
        var options = WindowSession.Options()
        options.clock = clock
        let model = WindowModel<Mail>(
            previewing: [.folder("inbox")], item: .message(2), sizeClass: .compact, options: options)
        model.presentationReady()  // as the view does once its stack has appeared
        #expect(model.sheet?.route == .message(2))
        #expect(model.stack == [.folder("inbox")])
        model.environmentChanged(sizeClass: .regular, isActive: true)
        #expect(model.stack == [.folder("inbox"), .message(2)], "laid out for the new class at once")
        model.push(.attachment("a"))
        #expect(model.itemPath == [.attachment("a")])
        #expect(model.revision == 0, "nothing is stored")
        #expect(model.lastError == nil)
    }

    @Test func theDefaultHomeIsWhereStatectlLooks() {
        #expect(
            WindowSession.defaultPath(environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/u"])
                == .success("/state/statectl/state.db"))
        #expect(
            WindowSession.defaultPath(environment: ["HOME": "/home/u"])
                == .success("/home/u/.local/state/statectl/state.db"))
        #expect(
            WindowSession.defaultPath(environment: ["STATECTL_DB": "/x/y.db", "HOME": "/home/u"]) == .success("/x/y.db")
        )
        #expect(WindowSession.defaultPath().map { !$0.isEmpty } == .success(true))
    }

    // MARK: Errors an app can show

    @Test func aProgrammersMistakeIsNoStorageIssueAndCanBeCleared() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.pop(1)
        guard case .invalidEdit? = model.lastError else {
            Issue.record("an over-pop is named, not \(String(describing: model.lastError))")
            return
        }
        #expect(model.lastError?.isStorageTrouble == false)
        #expect(session.storageIssue == nil, "the user hears nothing of the app's mistake")
        model.lastError = nil
        #expect(model.lastError == nil)
        #expect(WindowError.store(.busy(SQLiteFailure(code: .busy, message: "busy"))).isStorageTrouble)
    }

    // MARK: A policy belongs to its presentation

    @Test func aPolicyGivenToOnePresentationDoesNotStickToTheNext() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.present(.compose(draft: 1), policy: .dismiss)
        #expect(model.policy == .dismiss)
        model.dismiss()
        #expect(model.policy == .migrate, "the default again")
        model.present(.message(2))
        #expect(model.policy == .migrate, "the next presentation has its own")
        model.present(.compose(draft: 3), policy: .dismiss)
        model.present(.message(4))
        #expect(model.policy == .migrate, "replacing a presentation does not inherit its policy")
        model.policy = .dismiss
        #expect(model.policy == .dismiss, "set, it governs the presentation now")
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "main")?.policy == .dismiss)
    }

    @Test func theSessionsDefaultPolicyGovernsPresentationsMadeWithoutOne() async throws {
        let fixture = HostFixture()
        var options = fixture.options()
        options.defaultPolicy = .dismiss
        let session = try await fixture.open(options: options)
        let model = session.window("main", as: Mail.self)
        model.present(.message(1))
        #expect(model.policy == .dismiss)
        model.present(.message(2), policy: .migrate)
        #expect(model.policy == .migrate)
    }

    // MARK: One edit for a deep link

    @Test func aDeepLinkIsOneEditAndOneRevision() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.present(.compose(draft: 1))
        model.push(.attachment("x"))
        #expect(await session.flush())
        let before = model.revision

        model.navigate(to: [.folder("work"), .thread(9)], presenting: .message(3), itemPath: [.attachment("y")])
        #expect(model.path == [.folder("work"), .thread(9)])
        #expect(model.item == .message(3))
        #expect(model.itemPath == [.attachment("y")])
        #expect(await session.flush())
        #expect(model.revision == before + 1, "one revision")

        model.navigate(to: [.folder("inbox")])
        #expect(model.item == nil, "no item: whatever was presented is dismissed")
        #expect(await session.flush())
        #expect(model.revision == before + 2)
        let stored = try #require(try fixture.store().window(session: "app", window: "main"))
        #expect(stored.path == [StateStoreHostTests.stored(.folder("inbox"))])
        #expect(stored.item == nil)
    }

    // MARK: Route types across modules

    @Test func aRouteWrittenUnderAnotherModulesNameIsRead() async throws {
        let fixture = HostFixture()
        // What the app's share extension, which compiles the same route file, writes.
        let other = try Route(type: "ShareExtension.Mail", json: #"{"thread":{"_0":5}}"#)
        let mine = try Mail(route: try #require(try? Mail.thread(5).route()))
        #expect(mine == .thread(5))
        #expect(Mail.routeType == "StateStoreHostTests.Mail")
        let set = try fixture.statectl(["set", "app", "main", "--push", other.description])
        #expect(set.status == 0, "\(set.stderr)")
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        #expect(model.path == [.thread(5)], "read with no app code")
        #expect(model.lastError == nil)
        model.push(.message(1))
        #expect(await session.flush())
        let stored = try #require(try fixture.store().window(session: "app", window: "main"))
        #expect(stored.path.first == other, "an element the app did not change keeps its stored text")
        #expect(stored.path.last?.type == "StateStoreHostTests.Mail", "written under SwiftUI's name")

        #expect(throws: RouteConversionError.self, "a name of another type still is not ours") {
            try Mail(route: Route(type: "ShareExtension.Other", json: #"{"thread":{"_0":5}}"#))
        }
        #expect(throws: RouteConversionError.self, "a name with no module is not ours") {
            try Mail(route: Route(type: "Mail", json: #"{"thread":{"_0":5}}"#))
        }
    }

    // MARK: Observing only while a window is active

    @Test func theSessionStopsObservingWhileNoWindowIsActive() async throws {
        let fixture = HostFixture()
        var options = fixture.options()
        options.store.changeSchedule = WakeSchedule(safetyNet: .seconds(3600))
        let session = try await fixture.open(options: options)
        let first = session.window("first", as: Mail.self)
        let second = session.window("second", as: Mail.self)
        #expect(!session.isObserving, "no window is active yet: a launch in the background observes nothing")
        first.environmentChanged(sizeClass: .regular, isActive: true)
        second.environmentChanged(sizeClass: .compact, isActive: false)
        #expect(session.isObserving, "one window is active")
        first.environmentChanged(sizeClass: .regular, isActive: false)
        #expect(!session.isObserving, "none is: the app may be suspended")
        #expect(session.waitUntilObservingIsParked(), "nothing polls, wakes or reads")

        let set = try fixture.statectl(["set", "app", "second", "--push", stored(.folder("inbox")).description])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(second.path == [])
        second.environmentChanged(sizeClass: .compact, isActive: true)
        #expect(session.isObserving)
        await waitUntil("caught up") { second.path == [.folder("inbox")] }
        #expect(session.focusedWindow == "second", "the window that became active is the focused one")
    }

    @Test func anAppPauseHoldsWhileAWindowBecomesActive() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        session.pauseObserving()
        session.window("main", as: Mail.self).environmentChanged(sizeClass: .regular, isActive: true)
        #expect(!session.isObserving)
        session.resumeObserving()
        #expect(session.isObserving)
    }

    // MARK: Time the system refuses or takes back

    @Test func aWriteTheSystemGivesNoTimeForWaitsForAnActiveWindow() async throws {
        let fixture = HostFixture()
        let allowed = NSLockedFlag(true)
        var options = fixture.options()
        options.activity = BackgroundActivity { _ in
            guard allowed.value else { return nil }
            return {}
        }
        options.pruneAfter = nil
        let session = try await fixture.open(options: options)
        allowed.value = false  // the app is being suspended
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: false)
        model.push(.folder("inbox"))
        #expect(await session.flush(timeout: .seconds(5)) == false, "refused: not written, not lost")
        #expect(model.path == [.folder("inbox")])
        #expect(try fixture.store().window(session: "app", window: "main") == nil)
        #expect(model.lastError == nil, "postponed is not a failure")

        allowed.value = true
        model.environmentChanged(sizeClass: .regular, isActive: true)
        await waitUntil("written once a window is active") { model.revision == 1 }
        #expect(await session.flush())
    }

    @Test func aTransactionWhoseTimeRunsOutIsInterruptedAndItsChangeKept() async throws {
        let fixture = HostFixture()
        let expiry = ExpiryBox()
        let expiring = NSLockedFlag(true)
        var options = fixture.options()
        options.activity = BackgroundActivity { expired in
            expiry.set(expired)
            return {}
        }
        options.duringWrite = { if expiring.value { expiry.fire() } }
        options.pruneAfter = nil
        let session = try await fixture.open(options: options)
        let model = session.window("main", as: Mail.self)
        model.push(.folder("inbox"))
        #expect(await session.flush(timeout: .seconds(5)) == false, "the time ran out: nothing committed")
        #expect(try fixture.store().window(session: "app", window: "main") == nil, "rolled back")
        #expect(model.path == [.folder("inbox")], "kept")

        expiring.value = false
        #expect(await session.flush(), "written at the next flush")
        #expect(try fixture.store().window(session: "app", window: "main")?.path.count == 1)
    }

    @Test func stopFlushingEndsTheWaitAtOnce() async throws {
        let fixture = HostFixture()
        var options = fixture.options()
        options.store.busyTimeoutMilliseconds = 60_000
        let session = try await fixture.open(options: options)
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        let lock = try WriteLock(fixture.database)  // the write waits for another process's lock
        defer { lock.release() }
        model.push(.folder("inbox"))
        let started = ContinuousClock.now
        let flushed = Task { await session.flush(timeout: .seconds(60)) }
        while !session.isFlushing && ContinuousClock.now - started < .seconds(10) { await Task.yield() }
        session.stopFlushing()
        #expect(await flushed.value == false)
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}

/// A flag any thread sets and reads.
final class NSLockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag: Bool
    init(_ flag: Bool) { self.flag = flag }
    var value: Bool {
        get { lock.withLock { flag } }
        set { lock.withLock { flag = newValue } }
    }
}

/// The `expired` an activity was last given, fired when a test says its time ran out.
final class ExpiryBox: @unchecked Sendable {
    private let lock = NSLock()
    private var expired: (@Sendable () -> Void)?
    func set(_ expired: @escaping @Sendable () -> Void) { lock.withLock { self.expired = expired } }
    func fire() { lock.withLock { expired }?() }
}

/// What each storage failure tells the user.
struct StorageIssueTests {
    @Test func eachFailureIsTheKindTheUserHearsOf() {
        func failure(_ code: SQLiteResultCode) -> SQLiteFailure { SQLiteFailure(code: code, message: "m") }
        #expect(StorageIssue(.io(failure(.full))).kind == .diskFull)
        #expect(StorageIssue(.io(failure(.readOnly))).kind == .readOnly)
        #expect(StorageIssue(.io(failure(.perm))).kind == .readOnly)
        #expect(StorageIssue(.busy(failure(.busy))).kind == .busy)
        #expect(StorageIssue(.io(failure(.ioErr))).kind == .failed)
        #expect(StorageIssue(.replaced(path: "/x")).kind == .failed)
        let first = StorageIssue(.busy(failure(.busy)))
        let again = StorageIssue(.busy(failure(.busy)))
        #expect(first.id != again.id, "the same trouble again is shown again")
        #expect(first.message != StorageIssue(.io(failure(.full))).message)
        #expect(first.description.contains(first.message))
    }
}
