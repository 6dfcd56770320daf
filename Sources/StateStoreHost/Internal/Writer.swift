import Dispatch
import Foundation
import StateStore

/// Everything a session does with SQLite, in order, on one serial queue of its own (never Swift's
/// cooperative pool): opening the file, then writes, reads, deletes and focus records.
///
/// Where the system suspends apps, the writer holds **one** background activity while it has work:
/// begun before the first job runs, ended when the queue drains, so that the open, its migrations
/// and its `VACUUM`, and every transaction after, run inside it — an app suspended while it holds a
/// SQLite lock on a shared file is killed. A job the system gives no time for is held, not run; an
/// activity the system takes back interrupts the transaction running (`sqlite3_interrupt`: it rolls
/// back), and that job is held too. Held jobs run again, in their order, once the writer is
/// resumed (``resume()``: a scene became active, the app flushes).
final class Writer: @unchecked Sendable {
    /// A unit of work on the store (or the open's failure, when there is no store): `true` when
    /// it finished, `false` when it was stopped before it finished (its transaction interrupted)
    /// and must run again after a resume.
    typealias Job = @Sendable (Result<WindowStore, StateStoreError>) -> Bool

    /// The writes the session registers before they commit.
    let ownWrites = OwnWrites()

    private let queue = DispatchQueue(label: "StateStoreHost.writer", qos: .utility)
    private let activity: BackgroundActivity?
    private let state = NSLockedValue(State())
    /// Called in every job, inside its activity (tests: whether one is held).
    private let duringJob: (@Sendable () -> Void)?

    private enum Work {
        /// Opening the store: sets it, or the failure.
        case open(@Sendable () -> Result<WindowStore, StateStoreError>)
        case job(Job)
    }

    private struct State {
        /// The store, once the open job ran; `nil` before, and when it failed.
        var store: WindowStore?
        var openFailure: StateStoreError?
        /// Work queued and not yet run.
        var queued = 0
        /// The end of the activity held now.
        var endActivity: (@Sendable () -> Void)?
        /// Counts activities begun, so that the end of an earlier one is not taken for this one's.
        var activityNumber = 0
        /// The system refused time or took it back: work is held until ``resume()``.
        var suspended = false
        var held: [Work] = []
        /// Told when the writer becomes suspended.
        var onSuspended: (@Sendable () -> Void)?
    }

    init(activity: BackgroundActivity?, duringJob: (@Sendable () -> Void)?) {
        self.activity = activity
        self.duringJob = duringJob
    }

    /// Calls `body` (on any thread) whenever the writer becomes suspended: the system refused time
    /// or took it back.
    func whenSuspended(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.onSuspended = body }
    }

    /// Opens the store as the queue's first work: every job runs after it, on what it opened.
    func open(_ body: @escaping @Sendable () -> Result<WindowStore, StateStoreError>) {
        submit(.open(body))
    }

    /// A store opened already (a session in memory), before any job runs.
    func adopt(_ store: WindowStore) {
        state.withLock { $0.store = store }
    }

    /// Runs `job` after everything queued before it, inside the activity. A job queued while the
    /// writer is suspended is held.
    func enqueue(_ job: @escaping Job) {
        submit(.job(job))
    }

    /// Runs held work again, in its order: the system may give time now.
    func resume() {
        let work = state.withLock { state -> [Work] in
            state.suspended = false
            defer { state.held.removeAll() }
            state.queued += state.held.count
            return state.held
        }
        for item in work { queue.async { [self] in run(item) } }
    }

    /// Whether the writer holds work the system gave no time for.
    var isSuspended: Bool { state.withLock { $0.suspended } }

    /// Stops the transaction running now, if any, and holds it and what follows until ``resume()``:
    /// for an app whose background time is running out.
    func suspend() {
        let store = state.withLock { state -> WindowStore? in
            state.suspended = true
            return state.store
        }
        store?.interrupt()
    }

    /// Waits until everything queued before it has run, at most `timeout`; whether it has. For a
    /// process about to end, which cannot wait on the main actor.
    func drain(timeout: Duration) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let wait = nanoseconds.overflow ? Int64.max : nanoseconds.partialValue + attoseconds / 1_000_000_000
        return done.wait(timeout: .now() + .nanoseconds(Int(clamping: wait))) == .success
    }

    // MARK: On the queue

    private func submit(_ work: Work) {
        let run = state.withLock { state -> Bool in
            if state.suspended {
                state.held.append(work)
                return false
            }
            state.queued += 1
            return true
        }
        if run { queue.async { [self] in self.run(work) } }
    }

    private func run(_ work: Work) {
        let finished: Bool?
        switch work {
        case .open(let body):
            finished = protect {
                let result = body()
                state.withLock { state in
                    switch result {
                    case .success(let store): state.store = store
                    case .failure(let error): state.openFailure = error
                    }
                }
                return true
            }
        case .job(let job):
            let (store, failure) = state.withLock { ($0.store, $0.openFailure) }
            if let store {
                finished = protect {
                    // An interrupt that came before this job is forgotten; time taken back since the
                    // activity began is not: the job waits for a resume.
                    store.clearInterrupt()
                    if state.withLock({ $0.suspended }) { return false }
                    return job(.success(store))
                }
            } else {
                // The open failed: nothing to protect, the job only hears why.
                finished = job(.failure(failure ?? .invalidInput("the session's store is not open")))
            }
        }
        let end = state.withLock { state -> (@Sendable () -> Void)? in
            if finished != true { state.held.append(work) }
            state.queued -= 1
            // Ended when nothing more is queued, or when the system took the time back.
            guard state.queued == 0 || state.suspended, let end = state.endActivity else { return nil }
            state.endActivity = nil
            return end
        }
        end?()
    }

    /// Runs `body` inside the activity, beginning it if none is held; `nil` when the system gives
    /// no time (the writer is then suspended).
    private func protect(_ body: () -> Bool) -> Bool? {
        let (suspended, held) = state.withLock { ($0.suspended, $0.endActivity != nil) }
        if suspended { return nil }
        if let activity, !held {
            let number = state.withLock { state -> Int in
                state.activityNumber += 1
                return state.activityNumber
            }
            guard let end = activity.begin({ [weak self] in self?.expired(number) }) else {
                state.withLock { $0.suspended = true }
                notifySuspended()
                return nil
            }
            state.withLock { $0.endActivity = end }
        }
        duringJob?()
        return body()
    }

    /// The system took the time back: the transaction running stops, and nothing more runs until
    /// the writer is resumed.
    private func expired(_ number: Int) {
        let store = state.withLock { state -> WindowStore? in
            guard state.activityNumber == number, state.endActivity != nil else { return nil }
            state.suspended = true
            return state.store
        }
        store?.interrupt()
        if store != nil { notifySuspended() }
    }

    private func notifySuspended() {
        state.withLock { $0.onSuspended }?()
    }
}

/// A value behind an `NSLock`.
final class NSLockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&value) }
    }
}

/// Runs `body` on the main actor, after what was handed to it before (the main queue is FIFO).
func onMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
    DispatchQueue.main.async {
        MainActor.assumeIsolated { body() }
    }
}
