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

/// The session's change feed on a thread of its own: it polls, sorts what it finds with the
/// writer's registry, and hands it to the main actor in commit order. Paused, it neither polls
/// nor wakes.
final class FeedLoop: @unchecked Sendable {
    private let condition = NSCondition()
    private var paused = false
    private var stopped = false
    // Handed to the feed's thread once, used there only.
    private var feed: ChangeFeed?
    private let ownWrites: OwnWrites
    private let interval: Duration
    private let deliver: @Sendable ([FeedItem]) -> Void
    private let failed: @Sendable (StateStoreError) -> Void

    /// A loop over `feed`, made before any window was read so that no change after the reads is missed.
    init(
        feed: ChangeFeed, ownWrites: OwnWrites, interval: Duration = .milliseconds(50),
        deliver: @escaping @Sendable ([FeedItem]) -> Void, failed: @escaping @Sendable (StateStoreError) -> Void
    ) {
        self.feed = feed
        self.ownWrites = ownWrites
        self.interval = interval
        self.deliver = deliver
        self.failed = failed
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "StateStoreHost.feed"
        thread.start()
    }

    func pause() {
        condition.withLock { paused = true }
    }

    func resume() {
        condition.withLock {
            paused = false
            condition.broadcast()
        }
    }

    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }

    private func run() {
        guard let feed else { return }
        self.feed = nil
        while true {
            condition.lock()
            while paused && !stopped { condition.wait() }
            let stop = stopped
            condition.unlock()
            if stop { return }
            do throws(StateStoreError) {
                let items = try feed.poll().map(sort)
                if !items.isEmpty { deliver(items) }
            } catch {
                failed(error)
            }
            condition.lock()
            if !stopped && !paused {
                let (seconds, attoseconds) = interval.components
                _ = condition.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18))
            }
            condition.unlock()
        }
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
