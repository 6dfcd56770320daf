import Foundation
import StateStore
import StateStoreHost
import Testing

/// `WindowSession`, one per process, file and app session: one model per window, in-memory models
/// for what the store refuses, discarding and pruning windows, the background-activity hook, URLs.
@MainActor
struct SessionTests {
    @Test func oneModelPerWindowAndType() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        #expect(session.window("main", as: Mail.self) === model)

        let other = session.window("main", as: Route.self)
        guard case .typeMismatch? = other.lastError else {
            Issue.record("a second type is named, not \(String(describing: other.lastError))")
            return
        }
        other.push(try Route(type: "X"))
        #expect(other.path.count == 1, "it works in memory")
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "main") == nil, "and writes nothing")
    }

    @Test func anIdTheStoreRefusesWorksInMemory() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("", as: Mail.self)
        guard case .invalidWindowID? = model.lastError else {
            Issue.record("the id is named, not \(String(describing: model.lastError))")
            return
        }
        model.push(.folder("inbox"))
        #expect(model.path == [.folder("inbox")])
        #expect(await session.flush())
        #expect(try fixture.store().windowSummaries().isEmpty)
    }

    @Test func discardDeletesAfterTheWriteInFlightAndDropsTheModel() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("closed", as: Mail.self)
        model.push(.folder("inbox"))  // in flight
        model.push(.thread(1))  // queued behind it
        try await session.discard(windows: ["closed"])
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "closed") == nil)
        #expect(try fixture.store().history(session: "app", window: "closed").isEmpty)
        let fresh = session.window("closed", as: Mail.self)
        #expect(fresh !== model)
        #expect(fresh.path == [])
    }

    @Test func pruningSparesLiveWindows() async throws {
        let fixture = HostFixture()
        var old = WindowStore.Options()
        old.clock = { Timestamp(millisecondsSince1970: Timestamp.now().millisecondsSince1970 - 3 * 86_400_000) }
        let seeding = try WindowStore(path: fixture.database, options: old)
        for window in ["live", "gone", "also gone"] { try seeding.save(WindowState(session: "app", window: window)) }
        try seeding.save(WindowState(session: "other", window: "gone"))
        let session = try await fixture.open()
        _ = session.window("live", as: Mail.self)
        let pruned = try await session.pruneWindows(olderThan: .seconds(86_400))
        #expect(pruned == ["also gone", "gone"])
        #expect(
            try fixture.store().windowSummaries().map { "\($0.session)/\($0.window)" } == ["app/live", "other/gone"])
    }

    @Test func aSecondViewAttachingIsReported() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.viewAppeared()
        #expect(model.lastError == nil)
        model.viewAppeared()
        #expect(model.lastError == .secondAttachment(window: "main"))
        model.lastError = nil
        model.viewDisappeared()
        model.viewDisappeared()
        model.viewAppeared()
        #expect(model.lastError == nil, "one view again")
    }

    @Test func openingByURL() async throws {
        let fixture = HostFixture()
        let session = try await WindowSession.open(
            url: URL(fileURLWithPath: fixture.database), session: "app", options: fixture.options())
        session.window("main", as: Mail.self).push(.folder("inbox"))
        #expect(await session.flush())
        #expect(
            try WindowStore(url: URL(fileURLWithPath: fixture.database)).window(session: "app", window: "main") != nil)
        await #expect(throws: StateStoreError.self) {
            _ = try await WindowSession.open(url: URL(string: "https://example.com/state.db")!, session: "app")
        }
        await #expect(throws: StateStoreError.self) {
            _ = try await WindowSession.open(path: fixture.database, session: "")
        }
    }

    @Test func aChangeIsDurableOnceFlushReturnsTrue() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        for n in 0..<20 { model.push(.message(n)) }
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "main")?.path.count == 20)
    }
}

/// A count shared with the writer's thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
