import Foundation
import StateStore
import StateStoreHost
import Testing

/// A live model learns of other processes' writes from file notifications, not by polling, and a
/// paused session neither polls nor wakes. The sessions here have a safety net of an hour and force
/// nothing, so a change that reaches a model came by a notification.
@MainActor
struct NotificationTests {
    /// Options whose feed only a notification wakes.
    private func notifiedOnly(_ fixture: HostFixture) -> WindowSession.Options {
        var options = fixture.options()
        options.store.changeSchedule = WakeSchedule(safetyNet: .seconds(3600))
        return options
    }

    private func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    @Test func anOutsideWriteWakesALiveModelWithoutPolling() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open(options: notifiedOnly(fixture))
        #expect(session.changeNotification == nil, "nothing watches before a window is active")
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)  // observed while a window is active
        #expect(session.changeNotification == .notifications(folder: resolved(fixture.folder.path)))
        model.push(.folder("inbox"))
        #expect(await session.flush())

        let set = try fixture.statectl(["set", "app", "main", "--present", stored(.thread(7)).description])
        #expect(set.status == 0, "\(set.stderr)")
        await waitUntil("the outside write") { model.item == .thread(7) }
        #expect(model.path == [.folder("inbox")])
        let activity = try #require(session.observingActivity)
        #expect(activity.feed.wakes >= 1)
        #expect(!activity.parked)
    }

    @Test func aPausedSessionWakesForNothingAndCatchesUpWhenResumed() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open(options: notifiedOnly(fixture))
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        model.push(.folder("inbox"))
        #expect(await session.flush())

        session.pauseObserving()
        #expect(session.waitUntilObservingIsParked(), "the feed's wait was interrupted")
        let paused = try #require(session.observingActivity)
        // Another process writes, and a feed that is not paused sees it: the notifications came.
        let witness = try fixture.store().changeFeed(session: "app")
        let set = try fixture.statectl(["set", "app", "main", "--present", stored(.thread(7)).description])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try witness.wait(timeout: .seconds(30)).compactMap(\.change?.revision) == [2])

        #expect(session.observingActivity?.feed == paused.feed, "no poll, no wake while paused")
        #expect(session.observingActivity?.parked == true)
        #expect(model.item == nil)
        #expect(model.revision == 1)

        session.resumeObserving()
        await waitUntil("the write made while paused") { model.item == .thread(7) }
        #expect(model.revision == 2)
        let resumed = try #require(session.observingActivity)
        #expect(resumed.feed.polls > paused.feed.polls)
        #expect(!resumed.parked)
    }

    @Test func aSessionLetGoOfInterruptsItsFeedsWait() async throws {
        let fixture = HostFixture()
        var session: WindowSession? = try await fixture.open(options: notifiedOnly(fixture))
        session?.window("main", as: Mail.self).push(.folder("inbox"))
        #expect(await session?.flush() == true)
        #expect(exists(fixture.database + "-wal"))
        let signal = try ChangeSignal(path: fixture.database)
        session = nil
        // Its feed's thread, interrupted, lets go of the last connection at once (the safety net
        // would take an hour): SQLite then empties the WAL into the file and deletes it.
        var removed = false
        while !removed, case .changed(let causes) = signal.wait(timeout: .seconds(30)) {
            removed = causes.contains(.walRemoved)
        }
        #expect(removed)
        #expect(try fixture.store().window(session: "app", window: "main")?.path == [stored(.folder("inbox"))])
    }
}
