import Foundation
import StateStore

/// What the change feed tells the session, already sorted into its own writes and others'.
enum FeedItem: Sendable {
    /// The session's own write, committed (the writer's call may not have returned yet).
    case own(token: UInt64, stored: WindowState)
    /// Another writer's change to a window: its state, `nil` for a deletion.
    case outside(window: String, state: WindowState?)
    /// Changes the log no longer holds were missed: every live window reloads from the store.
    case gap
    /// A row of the log that could not be read, skipped.
    case unreadable(window: String, problem: String)
}

/// The session's change feed on a thread of its own: it waits on the feed, which sleeps until the
/// database's files change (or polls, where there are no notifications), sorts what it finds with
/// the writer's registry, and hands it to the main actor in commit order.
///
/// Paused, it neither polls nor wakes: the feed itself pauses (``ChangeFeed/pause()``), dropping
/// its watch, and its wait blocks until resumed or stopped; the first poll after resuming
/// catches up.
final class FeedLoop: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by the condition's lock.
    private var stopped = false
    private let feed: ChangeFeed
    private let ownWrites: OwnWrites
    private let deliver: @Sendable ([FeedItem]) -> Void
    private let failed: @Sendable (StateStoreError) -> Void

    /// A loop over `feed`, made before any window was read so that no change after the reads is missed.
    init(
        feed: ChangeFeed, ownWrites: OwnWrites, deliver: @escaping @Sendable ([FeedItem]) -> Void,
        failed: @escaping @Sendable (StateStoreError) -> Void
    ) {
        self.feed = feed
        self.ownWrites = ownWrites
        self.deliver = deliver
        self.failed = failed
    }

    /// How the feed learns of changes.
    var notification: ChangeNotification { feed.notification }

    /// What the feed has done so far, and whether its wait is parked by ``pause()``.
    var activity: (feed: ChangeFeed.Activity, parked: Bool) {
        let activity = feed.activity
        return (activity, activity.isPaused)
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "StateStoreHost.feed"
        thread.start()
    }

    func pause() {
        feed.pause()
    }

    func resume() {
        feed.resume()
    }

    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
        feed.interrupt()
    }

    /// Blocks until the feed's wait is parked by ``pause()``, at most `timeout`; whether it is
    /// (tests: it looks every millisecond).
    func waitUntilParked(timeout: Duration) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Self.seconds(timeout))
        return condition.withLock {
            while !feed.activity.isPaused {
                if Date() >= deadline { return false }
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.001))
            }
            return true
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
            let stop = stopped
            condition.unlock()
            if stop {
                // The watch closes here, not on the main actor when the session goes.
                feed.disarm()
                return
            }
            do throws(StateStoreError) {
                let items = try feed.wait().map(sort)
                backOff = nil
                if !items.isEmpty { deliver(items) }
            } catch {
                failed(error)
                backOff = min((backOff ?? .milliseconds(25)) * 2, WakeSchedule.safetyNet)
            }
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
            guard let state = change.state else { return .outside(window: change.window, state: nil) }
            if let token = ownWrites.claim(state) { return .own(token: token, stored: state) }
            return .outside(window: change.window, state: state)
        }
    }
}
