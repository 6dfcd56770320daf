import Foundation
import StateStore

/// What the change feed tells the session, already sorted into its own writes and others'.
enum FeedItem: Sendable {
    /// The session's own write, committed (the writer's call may not have returned yet).
    case own(token: UInt64, stored: WindowState)
    /// Another writer's change to a window: its state, `nil` for a deletion, and its place in the
    /// change log.
    case outside(window: String, state: WindowState?, sequence: Int64)
    /// Changes the log no longer holds were missed: every live window reloads from the store.
    case gap
    /// A row of the log that could not be read, skipped.
    case unreadable(window: String, problem: String)
}

/// The session's change feed on a thread of its own: it waits on the feed, which sleeps until the
/// database's files change (or polls, where there are no notifications), sorts what it finds with
/// the writer's registry, and hands it to the main actor in commit order. The feed itself is made
/// on that thread, off the launch's way, from a position taken before any window was read.
///
/// Paused, it neither polls nor wakes: the feed itself pauses (``ChangeFeed/pause()``), dropping
/// its watch, and its wait blocks until resumed or stopped; the first poll after resuming
/// catches up.
final class FeedLoop: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by the condition's lock.
    private var paused = false
    private var stopped = false
    private var started = false
    /// `nil` until the loop has made it.
    private var feed: ChangeFeed?
    private var feedFailure: StateStoreError?
    private let makeFeed: @Sendable () -> Result<ChangeFeed, StateStoreError>
    private let ownWrites: OwnWrites
    private let deliver: @Sendable ([FeedItem]) -> Void
    private let failed: @Sendable (StateStoreError) -> Void

    /// A loop over the feed `makeFeed` makes on the loop's thread: a feed from a position taken
    /// before any window was read, so that no change after the reads is missed.
    init(
        makeFeed: @escaping @Sendable () -> Result<ChangeFeed, StateStoreError>, ownWrites: OwnWrites,
        deliver: @escaping @Sendable ([FeedItem]) -> Void, failed: @escaping @Sendable (StateStoreError) -> Void
    ) {
        self.makeFeed = makeFeed
        self.ownWrites = ownWrites
        self.deliver = deliver
        self.failed = failed
    }

    /// How the feed learns of changes (waiting, at most a second, for the loop to make it).
    /// `nil` while the feed is not made because it is paused: since the session opened, nothing
    /// watches yet.
    var notification: ChangeNotification? {
        guard condition.withLock({ feed != nil || !paused }) else { return nil }
        if let feed = madeFeed(within: .seconds(1)) { return feed.notification }
        return .polling(reason: feedFailure.map { "\($0)" } ?? "the change feed is not made yet")
    }

    /// What the feed has done so far, and whether its wait is parked by ``pause()``.
    var activity: (feed: ChangeFeed.Activity, parked: Bool)? {
        guard condition.withLock({ feed != nil || !paused }), let feed = madeFeed(within: .seconds(10)) else {
            return nil
        }
        let activity = feed.activity
        return (activity, activity.isPaused)
    }

    /// Starts the loop's thread, once, unless the loop was stopped before it started.
    func start() {
        let start = condition.withLock { () -> Bool in
            defer { started = true }
            return !started && !stopped
        }
        guard start else { return }
        let thread = Thread { [self] in run() }
        thread.name = "StateStoreHost.feed"
        thread.start()
    }

    func pause() {
        condition.withLock {
            paused = true
            return feed
        }?.pause()
    }

    func resume() {
        condition.withLock {
            paused = false
            condition.broadcast()
            return feed
        }?.resume()
    }

    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
            return feed
        }?.interrupt()
    }

    /// Blocks until the feed's wait is parked by ``pause()``, at most `timeout`; whether it is
    /// (tests: it looks every millisecond).
    func waitUntilParked(timeout: Duration) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Self.seconds(timeout))
        return condition.withLock {
            // Not started, or paused before the feed was made: nothing that could poll or wake.
            while feed?.activity.isPaused != true && !(paused && feed == nil) {
                if Date() >= deadline { return false }
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.001))
            }
            return true
        }
    }

    /// The feed once the loop has made it, waiting at most `timeout`.
    private func madeFeed(within timeout: Duration) -> ChangeFeed? {
        let deadline = Date(timeIntervalSinceNow: Self.seconds(timeout))
        return condition.withLock {
            while feed == nil && feedFailure == nil && !stopped {
                guard condition.wait(until: deadline) else { break }
            }
            return feed
        }
    }

    private func run() {
        // After a failure, the next try waits: 50 ms, doubling up to the safety net.
        var backOff: Duration? = nil
        while true {
            condition.lock()
            if let pause = backOff, !stopped {
                _ = condition.wait(until: Date(timeIntervalSinceNow: Self.seconds(pause)))
            }
            // Paused before the feed is made (a launch in the background): no connection, no
            // watch, no poll until resumed.
            while paused && feed == nil && !stopped { condition.wait() }
            let stop = stopped
            let made = feed
            condition.unlock()
            if stop {
                // The watch closes here, not on the main actor when the session goes.
                made?.disarm()
                return
            }
            do throws(StateStoreError) {
                let feed: ChangeFeed
                if let made { feed = made } else { feed = try makeFeedNow() }
                let items = try feed.wait().map(sort)
                backOff = nil
                if !items.isEmpty { deliver(items) }
            } catch {
                failed(error)
                backOff = min((backOff ?? .milliseconds(25)) * 2, WakeSchedule.safetyNet)
            }
        }
    }

    /// Makes the feed, paused if the loop was paused meanwhile, and says so to those waiting for it.
    private func makeFeedNow() throws(StateStoreError) -> ChangeFeed {
        do throws(StateStoreError) {
            let made = try makeFeed().get()
            let (pause, stop) = condition.withLock {
                feed = made
                feedFailure = nil
                condition.broadcast()
                return (paused, stopped)
            }
            if pause { made.pause() }
            if stop { made.interrupt() }
            return made
        } catch {
            condition.withLock {
                feedFailure = error
                condition.broadcast()
            }
            throw error
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    private func sort(_ event: ChangeEvent) -> FeedItem {
        switch event {
        case .gap: return .gap
        case .unreadable(let row): return .unreadable(window: row.window, problem: row.reason)
        case .change(let change):
            guard let state = change.state else {
                return .outside(window: change.window, state: nil, sequence: change.sequence)
            }
            if let token = ownWrites.claim(state) { return .own(token: token, stored: state) }
            return .outside(window: change.window, state: state, sequence: change.sequence)
        }
    }
}
