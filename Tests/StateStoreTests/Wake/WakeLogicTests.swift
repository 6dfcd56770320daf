import Foundation
import StateStore
import Testing

// The change feed's own logic — wake, recheck, safety net, pause, resume, interrupt — over a fake
// wake source (the Darwin sources cannot run here). The fake ends each wait as the test scripted it
// and keeps a clock that moves only when a wait times out, by the timeout the feed asked for:
// nothing here sleeps, and every timeout the feed asks for is known exactly. The store is real, so
// polls are real.

/// A scripted wake source and its clock, shared by every source a feed makes from it.
private final class FakeWakes: @unchecked Sendable {
    /// How one wait ends, after its action (a write, a pause, an interrupt …) has run.
    enum Ending {
        /// The files changed: the wait returns at once.
        case wake(WakeCauses)
        /// Nothing happens: the clock moves by the timeout asked, and the wait times out.
        case timeOut
    }

    /// One wait as the feed asked for it.
    struct Asked: Equatable {
        var watching: Bool
        var timeout: Duration?
    }

    private let lock = NSLock()
    private var script: [(action: () -> Void, ending: Ending)] = []
    private var kicks = 0
    private var clock: Duration = .zero
    private var waits: [Asked] = []
    private var made: [Bool] = []
    private var alive = 0
    private var mechanismNow: WakeMechanism = .notifications
    private var found = 0

    /// The sources a feed takes: set them in the store's options.
    var sources: WakeSources {
        WakeSources(
            makeInterrupter: { () throws(StateStoreError) in Interrupter(self) },
            makeSource: { request throws(StateStoreError) in Source(self, watching: request.watching) },
            now: { self.now })
    }

    var now: Duration { lock.withLock { clock } }
    /// Every wait so far, in order.
    var asked: [Asked] { lock.withLock { waits } }
    /// Whether each source made so far watches (false: polling asked for, or a paused feed's).
    var sourcesMade: [Bool] { lock.withLock { made } }
    /// Sources made and not yet released.
    var sourcesAlive: Int { lock.withLock { alive } }
    /// How many times a source was told the database exists.
    var toldFound: Int { lock.withLock { found } }

    fileprivate func databaseFound() {
        lock.withLock { found += 1 }
    }

    /// Adds a wait's ending to the script, with what happens first.
    func then(_ ending: Ending, _ action: @escaping () -> Void = {}) {
        lock.withLock { script.append((action, ending)) }
    }

    /// Makes every watching source report polling from now on (as a source whose watch failed).
    func turnToPolling() {
        lock.withLock { mechanismNow = .polling(reason: "the fake's watch failed") }
    }

    fileprivate func kick() {
        lock.withLock { kicks += 1 }
    }

    fileprivate func sourceMade(watching: Bool) {
        lock.withLock {
            made.append(watching)
            alive += 1
        }
    }

    fileprivate func sourceGone() {
        lock.withLock { alive -= 1 }
    }

    fileprivate func mechanism(watching: Bool) -> WakeMechanism {
        watching ? lock.withLock { mechanismNow } : .polling(reason: "polling was asked for")
    }

    /// One wait: a pending kick ends it as an interrupt; otherwise the next scripted ending, after
    /// its action (whose kicks end this wait too, as an interrupt that came during it). With
    /// the script used up, time passes to the timeout.
    fileprivate func wait(watching: Bool, timeout: Duration?) -> Wake {
        lock.withLock { waits.append(Asked(watching: watching, timeout: timeout)) }
        if takeKicks() { return .interrupted }
        let next = lock.withLock { script.isEmpty ? nil : script.removeFirst() }
        guard let next else {
            if timeout == nil { Issue.record("a wait with no timeout after the script ran out") }
            lock.withLock { clock += timeout ?? .seconds(3600) }
            return .timedOut
        }
        next.action()
        if takeKicks() { return .interrupted }
        switch next.ending {
        case .wake(let causes):
            return .changed(causes)
        case .timeOut:
            lock.withLock { clock += timeout ?? .seconds(3600) }
            return .timedOut
        }
    }

    private func takeKicks() -> Bool {
        lock.withLock {
            defer { kicks = 0 }
            return kicks > 0
        }
    }

    final class Interrupter: WakeInterrupter, @unchecked Sendable {
        private let wakes: FakeWakes
        init(_ wakes: FakeWakes) { self.wakes = wakes }
        func interrupt() { wakes.kick() }
    }

    final class Source: WakeSource {
        private let wakes: FakeWakes
        private let watching: Bool

        init(_ wakes: FakeWakes, watching: Bool) {
            self.wakes = wakes
            self.watching = watching
            wakes.sourceMade(watching: watching)
        }

        deinit { wakes.sourceGone() }

        var mechanism: WakeMechanism { wakes.mechanism(watching: watching) }

        /// Told the database exists: it watches its folder, `/fake/found`, from then on.
        private var found = false

        var notification: ChangeNotification {
            switch mechanism {
            case .notifications: .notifications(folder: found ? "/fake/found" : "/fake")
            case .polling(let reason): .polling(reason: reason)
            }
        }

        func wait(timeout: Duration?) -> Wake {
            wakes.wait(watching: watching, timeout: timeout)
        }

        func databaseFound() {
            found = true
            wakes.databaseFound()
        }
    }
}

/// A store in a fresh folder whose feeds wait on `wakes`, and another connection that writes.
private struct WakeFixture {
    let folder = TemporaryFolder(prefix: "statestore-wake-")
    let wakes = FakeWakes()
    let store: WindowStore
    let writer: WindowStore

    init(polling: Bool = false, kind: WakeSchedule.Kind = .inotify) throws {
        var options = WindowStore.Options()
        options.wakeSources = wakes.sources
        options.forcePolling = polling
        options.changeSchedule = WakeSchedule(kind: kind)
        store = try WindowStore(path: folder.file("state.db"), options: options)
        writer = try WindowStore(path: folder.file("state.db"))
    }

    /// Commits revision `revision` of window `s`/`w` through the other connection.
    func write() {
        #expect(throws: Never.self) { try writer.save(WindowState(session: "s", window: "w")) }
    }
}

private func revisions(_ events: [ChangeEvent]) -> [Int?] {
    events.map { $0.change?.revision }
}

private let rechecks = WakeSchedule.rechecks
private let safetyNet = WakeSchedule.safetyNet

@Suite struct WakeLogicTests {
    // MARK: waking and rechecking

    @Test func aFeedWaitsOnTheSafetyNetUntilSomethingWakesIt() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        fixture.wakes.then(.timeOut)
        fixture.wakes.then(.wake(.walWritten)) { fixture.write() }
        #expect(revisions(try feed.wait(timeout: .seconds(60))) == [1])
        // The first wait took the safety net's whole 2 s; the second was woken, and the poll after
        // it found the commit.
        #expect(fixture.wakes.asked.map(\.timeout) == [safetyNet, safetyNet])
        #expect(fixture.wakes.now == safetyNet)
        #expect(feed.activity.wakes == 1)
        #expect(feed.activity.timeouts == 1)
    }

    /// A feed waiting for its database tells its source, once, as soon as a poll has found it,
    /// before it returns what that poll read, and reports the source's notification from then on.
    /// A source armed again (after a pause) is told again.
    @Test func aFeedTellsItsSourceOnceThatItFoundTheDatabase() throws {
        let folder = TemporaryFolder(prefix: "statestore-wake-")
        let path = folder.file("a/b/state.db")
        let wakes = FakeWakes()
        var options = WindowStore.Options()
        options.wakeSources = wakes.sources
        let feed = try WindowStore.changeFeed(path: path, options: options)
        #expect(feed.notification == .notifications(folder: "/fake"))
        #expect(try feed.wait(timeout: .zero).isEmpty)
        #expect(wakes.toldFound == 0, "nothing found yet")

        wakes.then(.wake(.folderChanged)) {
            #expect(throws: Never.self) { try WindowStore(path: path).save(WindowState(session: "s", window: "w")) }
        }
        #expect(revisions(try feed.wait(timeout: .seconds(60))) == [1])
        #expect(wakes.toldFound == 1)
        #expect(feed.notification == .notifications(folder: "/fake/found"), "said before the wait returned")
        wakes.then(.wake(.walWritten)) {
            #expect(throws: Never.self) { try WindowStore(path: path).save(WindowState(session: "s", window: "w")) }
        }
        #expect(revisions(try feed.wait(timeout: .seconds(60))) == [2])
        #expect(wakes.toldFound == 1, "once")

        feed.disarm()  // as a paused feed does
        #expect(try feed.wait(timeout: .zero).isEmpty)
        #expect(wakes.toldFound == 2, "a source armed again is told too")
    }

    @Test func aWakeIsFollowedByRechecksThatDoubleThenTheSafetyNet() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        // A wake whose commit is not published yet (nothing written): the feed looks again after
        // 1, 2, 4 … 256 ms, then only at the safety net.
        fixture.wakes.then(.wake(.walWritten))
        // Woken at once, so the deadline leaves room for the rechecks and two safety nets.
        let deadline = rechecks.reduce(.zero, +) + safetyNet * 2
        #expect(try feed.wait(timeout: deadline).isEmpty)
        let timeouts = fixture.wakes.asked.map(\.timeout)
        #expect(timeouts == [safetyNet] + rechecks + [safetyNet, safetyNet])
        #expect(fixture.wakes.now == deadline)
    }

    @Test func aCommitPublishedAfterItsWakeIsFoundByARecheck() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        fixture.wakes.then(.wake(.walWritten))
        fixture.wakes.then(.timeOut)
        fixture.wakes.then(.timeOut) { fixture.write() }  // published during the second recheck
        #expect(revisions(try feed.wait(timeout: .seconds(60))) == [1])
        #expect(fixture.wakes.asked.map(\.timeout) == [safetyNet, rechecks[0], rechecks[1]])
        #expect(fixture.wakes.now == rechecks[0] + rechecks[1], "found 3 ms after the wake, not at the safety net")
    }

    @Test func aFindStartsTheRechecksOver() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        fixture.wakes.then(.wake(.walWritten)) { fixture.write() }
        #expect(revisions(try feed.wait(timeout: .seconds(60))) == [1])
        // The next wait goes on with the rechecks the find started (the 1 ms one was the poll
        // that returned it), not with the safety net: a burst of commits is read as it comes.
        fixture.wakes.then(.timeOut)
        fixture.wakes.then(.timeOut) { fixture.write() }
        #expect(revisions(try feed.wait(timeout: .seconds(60))) == [2])
        #expect(fixture.wakes.asked.map(\.timeout) == [safetyNet, rechecks[1], rechecks[2]])
    }

    @Test func theCallersTimeoutCapsEveryWait() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        #expect(try feed.wait(timeout: .milliseconds(300)).isEmpty)
        #expect(fixture.wakes.asked.map(\.timeout) == [.milliseconds(300)])
        #expect(try feed.wait(timeout: .zero).isEmpty)
        #expect(fixture.wakes.asked.count == 1, "a wait with no time left returns after its poll")
    }

    @Test func aPollingFeedWaitsItsIntervalWhateverHappens() throws {
        let fixture = try WakeFixture(polling: true)
        let feed = try fixture.store.changeFeed()
        fixture.wakes.then(.timeOut)
        fixture.wakes.then(.timeOut) { fixture.write() }
        #expect(revisions(try feed.wait(timeout: .seconds(60))) == [1])
        let polled = FakeWakes.Asked(watching: false, timeout: .milliseconds(50))
        #expect(fixture.wakes.asked == [polled, polled])
        #expect(feed.notification == .polling(reason: "polling was asked for"))
    }

    @Test func aSourceThatTurnsToPollingMakesTheFeedPoll() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        #expect(feed.notification == .notifications(folder: "/fake"))
        // Its watch failed: the source reports a change (so the feed polls at once) and polling.
        fixture.wakes.then(.wake([])) { fixture.wakes.turnToPolling() }
        fixture.wakes.then(.timeOut)
        fixture.wakes.then(.timeOut) { fixture.write() }
        #expect(revisions(try feed.wait(timeout: .seconds(60))) == [1])
        #expect(
            fixture.wakes.asked.map(\.timeout) == [safetyNet, .milliseconds(50), .milliseconds(50)])
        #expect(feed.notification == .polling(reason: "the fake's watch failed"))
    }

    // MARK: interrupting

    @Test func anInterruptEndsAWaitWithNothing() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        fixture.wakes.then(.timeOut) { feed.interrupt() }
        #expect(try feed.wait(timeout: .seconds(60)).isEmpty)
        #expect(fixture.wakes.now == .zero)
        #expect(feed.activity.interrupts == 1)
        // Taken: the next wait runs as usual.
        fixture.wakes.then(.wake(.walWritten)) { fixture.write() }
        #expect(revisions(try feed.wait(timeout: .seconds(60))) == [1])
    }

    @Test func anInterruptBeforeAWaitEndsThatWait() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        feed.interrupt()
        #expect(try feed.wait(timeout: .seconds(60)).isEmpty)
        #expect(fixture.wakes.asked.count == 1)
        #expect(fixture.wakes.now == .zero)
    }

    @Test func severalInterruptsEndOneWait() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        feed.interrupt()
        feed.interrupt()
        #expect(try feed.wait(timeout: .seconds(60)).isEmpty)
        fixture.wakes.then(.wake(.walWritten)) { fixture.write() }
        #expect(revisions(try feed.wait(timeout: .seconds(60))) == [1])
    }

    // MARK: pausing and resuming

    @Test func aPausedFeedDropsItsWatchNeitherPollsNorWakesAndCatchesUpWhenResumed() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        var pollsWhenPaused = 0
        var sourcesWhenPaused = -1
        var pausedThen = false
        fixture.wakes.then(.timeOut) { feed.pause() }
        // Paused: another process commits twice, and nothing ends the wait but the resume.
        fixture.wakes.then(.timeOut) {
            pollsWhenPaused = feed.activity.polls
            sourcesWhenPaused = fixture.wakes.sourcesAlive
            pausedThen = feed.activity.isPaused
            fixture.write()
            fixture.write()
            feed.resume()
        }
        let deadline = Duration.seconds(3600)
        #expect(revisions(try feed.wait(timeout: deadline)) == [1, 2])
        #expect(pausedThen)
        #expect(feed.activity.polls == pollsWhenPaused + 1, "no poll while paused; one after the resume")
        // The watching source was released before the paused wait began, whose own source
        // watches nothing and has no safety net: only the caller's deadline ends it.
        #expect(fixture.wakes.sourcesMade == [true, false, true])
        #expect(sourcesWhenPaused == 1, "only the paused wait's source, which watches nothing")
        #expect(
            fixture.wakes.asked == [
                FakeWakes.Asked(watching: true, timeout: safetyNet),
                FakeWakes.Asked(watching: false, timeout: deadline),
            ])
        #expect(!feed.activity.isPaused)
        #expect(feed.activity.resumes == 1)
    }

    @Test func aFeedPausedBetweenWaitsParksItsNextWait() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        #expect(try feed.wait(timeout: .zero).isEmpty)
        let polls = feed.activity.polls
        feed.pause()
        fixture.wakes.then(.timeOut) {
            fixture.write()
            feed.resume()
        }
        #expect(revisions(try feed.wait(timeout: .seconds(60))) == [1])
        #expect(feed.activity.polls == polls + 1, "the one poll after the resume")
        #expect(fixture.wakes.asked.first?.watching == false)
    }

    @Test func anInterruptEndsAPausedWaitAndTheFeedStaysPaused() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        feed.pause()
        fixture.wakes.then(.timeOut) { feed.interrupt() }
        #expect(try feed.wait(timeout: .seconds(60)).isEmpty)
        #expect(fixture.wakes.now == .zero)
        // Still paused: the next wait parks again, and runs to its timeout without polling.
        let polls = feed.activity.polls
        #expect(try feed.wait(timeout: .seconds(5)).isEmpty)
        #expect(feed.activity.polls == polls)
        #expect(fixture.wakes.now == .seconds(5))
        #expect(fixture.wakes.asked.allSatisfy { !$0.watching })
    }

    @Test func aPausedWaitEndsAtItsDeadline() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        feed.pause()
        #expect(try feed.wait(timeout: .seconds(7)).isEmpty)
        #expect(fixture.wakes.now == .seconds(7))
        #expect(feed.activity.polls == 0)
        #expect(!feed.activity.isPaused, "no wait is paused once it has returned")
    }

    @Test func aResumeWithNoPauseCostsOnePollAndNothingElse() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        feed.resume()
        fixture.wakes.then(.wake(.walWritten)) { fixture.write() }
        #expect(revisions(try feed.wait(timeout: .seconds(60))) == [1])
        #expect(feed.activity.polls == 3)
        #expect(fixture.wakes.sourcesMade == [true])
    }

    @Test func aResumedFeedStartsItsScheduleOver() throws {
        let fixture = try WakeFixture()
        let feed = try fixture.store.changeFeed()
        // Woken (rechecks due), then paused mid-way: after the resume, no stale recheck.
        fixture.wakes.then(.wake(.walWritten))
        fixture.wakes.then(.timeOut) { feed.pause() }
        fixture.wakes.then(.timeOut) { feed.resume() }
        #expect(try feed.wait(timeout: .seconds(10)).isEmpty)
        let watching = fixture.wakes.asked.filter(\.watching).map(\.timeout)
        #expect(watching.prefix(3) == [safetyNet, rechecks[0], safetyNet])
    }
}

// MARK: - Apple platforms' schedule

// With the Darwin sources (the store's notification, posted by writers after each commit, and the
// kqueue watch of the -wal), over the same fake: a 30 s safety net, no recheck after a posted
// wake, and fewer rechecks after a WAL write's wake. Linux's figures are the tests above.

private let darwinRechecks = WakeSchedule.darwinRechecks
private let darwinNet = WakeSchedule.darwinSafetyNet

extension WakeLogicTests {
    @Test func theScheduleKindIsThePlatforms() {
        #if canImport(Darwin)
            #expect(WakeSchedule.Kind.native == .darwin)
            #expect(WakeSchedule().safetyNetInterval == .seconds(30))
        #else
            #expect(WakeSchedule.Kind.native == .inotify)
            #expect(WakeSchedule().safetyNetInterval == .seconds(2), "Linux's figures unchanged")
            #expect(WakeSchedule().rechecks == rechecks)
        #endif
        #expect(WindowStore.Options().changeSchedule.kind == .native)
        #expect(darwinNet >= .seconds(30))
        #expect(darwinRechecks == [1, 4, 16, 64, 256].map { .milliseconds($0) })
        #expect(darwinRechecks.count < rechecks.count)
    }

    @Test func theAppleScheduleInTurns() {
        var schedule = WakeSchedule(kind: .darwin)
        let notifying = WakeMechanism.notifications
        #expect(schedule.next(after: nil, found: false, mechanism: notifying) == darwinNet)
        #expect(schedule.next(after: .timedOut, found: false, mechanism: notifying) == darwinNet)
        // Posted after the commit was published: nothing to recheck, found or not.
        #expect(schedule.next(after: .changed(.posted), found: true, mechanism: notifying) == darwinNet)
        #expect(schedule.next(after: .changed(.posted), found: false, mechanism: notifying) == darwinNet)
        // A WAL write: rechecks while they find nothing, then the net.
        var timeouts = [schedule.next(after: .changed(.walWritten), found: false, mechanism: notifying)]
        for _ in 1..<darwinRechecks.count {
            timeouts.append(schedule.next(after: .timedOut, found: false, mechanism: notifying))
        }
        #expect(timeouts == darwinRechecks)
        #expect(schedule.next(after: .timedOut, found: false, mechanism: notifying) == darwinNet)
        // A find leaves the last recheck for the next wait; the commit's notification cancels it.
        _ = schedule.next(after: .changed([.walWritten, .walAdded]), found: true, mechanism: notifying)
        #expect(schedule.next(after: nil, found: false, mechanism: notifying) == darwinRechecks.last)
        #expect(schedule.next(after: .changed(.posted), found: false, mechanism: notifying) == darwinNet)
        // A recheck that finds: the same, one last recheck.
        _ = schedule.next(after: .changed(.walWritten), found: false, mechanism: notifying)
        _ = schedule.next(after: .timedOut, found: true, mechanism: notifying)
        #expect(schedule.next(after: nil, found: false, mechanism: notifying) == darwinRechecks.last)
        #expect(schedule.next(after: .timedOut, found: false, mechanism: notifying) == darwinNet)
        // A wake with no cause named (a watch that failed) is not a post: it rechecks.
        #expect(schedule.next(after: .changed([]), found: false, mechanism: notifying) == darwinRechecks[0])
        // An interrupted wait counts as a step; polling ignores all of it.
        #expect(schedule.next(after: .interrupted, found: false, mechanism: notifying) == darwinRechecks[1])
        #expect(
            schedule.next(after: .changed(.walWritten), found: false, mechanism: .polling(reason: "x"))
                == .milliseconds(50))
        #expect(WakeSchedule(safetyNet: .seconds(3600), kind: .darwin).safetyNetInterval == .seconds(3600))
    }

    @Test func anIdleAppleFeedWakesOnceInThirtySeconds() throws {
        let fixture = try WakeFixture(kind: .darwin)
        let feed = try fixture.store.changeFeed()
        #expect(try feed.wait(timeout: .seconds(90)).isEmpty)
        #expect(fixture.wakes.asked.map(\.timeout) == [darwinNet, darwinNet, darwinNet])
        #expect(feed.activity.timeouts == 3, "3 wake-ups in 90 s")
    }

    @Test func aPostedWakeIsReadAtOnceAndNotRechecked() throws {
        let fixture = try WakeFixture(kind: .darwin)
        let feed = try fixture.store.changeFeed()
        fixture.wakes.then(.wake(.posted)) { fixture.write() }
        #expect(revisions(try feed.wait(timeout: .seconds(60))) == [1])
        #expect(try feed.wait(timeout: darwinNet).isEmpty)
        #expect(fixture.wakes.asked.map(\.timeout) == [darwinNet, darwinNet], "no recheck after the post")
    }

    @Test func aWALWriteWakeRechecksUntilItsCommitIsPublishedThenOnceMore() throws {
        let fixture = try WakeFixture(kind: .darwin)
        let feed = try fixture.store.changeFeed()
        // A writer that does not post (sqlite3): its WAL write wakes the feed before the commit is
        // published, during the second recheck.
        fixture.wakes.then(.wake(.walWritten))
        fixture.wakes.then(.timeOut)
        fixture.wakes.then(.timeOut) { fixture.write() }
        #expect(revisions(try feed.wait(timeout: .seconds(60))) == [1])
        #expect(fixture.wakes.asked.map(\.timeout) == [darwinNet, darwinRechecks[0], darwinRechecks[1]])
        #expect(fixture.wakes.now == darwinRechecks[0] + darwinRechecks[1], "found 5 ms after the wake")
        // One more recheck, for a commit the same event covered; then the net.
        fixture.wakes.then(.timeOut)
        #expect(try feed.wait(timeout: .seconds(60)).isEmpty)
        #expect(Array(fixture.wakes.asked.map(\.timeout).dropFirst(3).prefix(2)) == [darwinRechecks.last, darwinNet])
    }

    @Test func aCommitAnnouncedByBothSourcesCostsFewerWakesThanOnLinux() throws {
        // A commit of this package, the app's own included: its WAL write wakes the kqueue watch,
        // then its notification comes. The waits each schedule asks for in the second after it.
        func waits(_ kind: WakeSchedule.Kind) throws -> [Duration?] {
            let fixture = try WakeFixture(kind: kind)
            let feed = try fixture.store.changeFeed()
            fixture.wakes.then(.wake(.walWritten)) { fixture.write() }
            #expect(revisions(try feed.wait(timeout: .seconds(60))) == [1])
            fixture.wakes.then(.wake(.posted))
            #expect(try feed.wait(timeout: .seconds(1)).isEmpty)
            return fixture.wakes.asked.map(\.timeout)
        }
        let apple = try waits(.darwin)
        let linux = try waits(.inotify)
        // Apple: the net, the last recheck (ended at once by the post), the net until the second
        // is up (the fake's clock moves only when a wait times out).
        #expect(apple == [darwinNet, darwinRechecks.last, .seconds(1)])
        // Linux: every recheck after the post's wake too.
        #expect(linux.count >= rechecks.count + 2)
        #expect(apple.count <= 3 && apple.count < linux.count / 3)
    }
}
