import Dispatch
import Foundation
import StateStore

/// A window id as the store compares it: by its bytes (Swift's `==` takes a composed and a
/// decomposed "é" for one id, where the store keeps two windows).
struct WindowKey: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ id: String) {
        bytes = Array(id.utf8)
    }
}

/// A write the model hands the writer: the whole state to store, with the revision it is based on.
struct WriteRequest: Sendable {
    let token: UInt64
    let window: String
    let expectedRevision: Int
    let target: WindowState
}

/// How a write ended.
enum WriteOutcome: Sendable {
    case committed(WindowState)
    /// Another writer came first: the window as it is now (`nil`: deleted).
    case conflict(current: WindowState?)
    /// The system gave no time to write (refused a background activity, or took it back midway,
    /// and the transaction was interrupted): nothing was written; the change is the model's still.
    case postponed
    case failed(StateStoreError)
}

/// The writes the session registers before they commit, so that the change feed, which may read a
/// commit before the writer's call returns, never takes one for another writer's.
final class OwnWrites: @unchecked Sendable {
    private struct Entry {
        let token: UInt64
        let revision: Int
        let content: WindowState
    }

    private let lock = NSLock()
    private var entries: [WindowKey: [Entry]] = [:]

    func register(_ token: UInt64, window: String, revision: Int, content: WindowState) {
        lock.withLock {
            entries[WindowKey(window), default: []].append(Entry(token: token, revision: revision, content: content))
        }
    }

    func unregister(_ token: UInt64, window: String) {
        lock.withLock { entries[WindowKey(window)]?.removeAll { $0.token == token } }
    }

    /// The token of the session's own write that committed `state`, if it is one; entries of
    /// older revisions of the window are dropped (the feed has passed them).
    func claim(_ state: WindowState) -> UInt64? {
        lock.withLock {
            let key = WindowKey(state.window)
            guard var list = entries[key] else { return nil }
            let match = list.first { $0.revision == state.revision && $0.content.hasSameContent(as: state) }
            list.removeAll { $0.revision <= state.revision }
            entries[key] = list.isEmpty ? nil : list
            return match?.token
        }
    }
}

extension WindowState {
    /// The same size class, routes and policy: what a write stores, stamps aside.
    func hasSameContent(as other: WindowState) -> Bool {
        sizeClass == other.sizeClass && path == other.path && item == other.item && itemPath == other.itemPath
            && policy == other.policy
    }
}

/// Everything the session does with SQLite, on one serial queue of its own (never Swift's
/// cooperative pool): opening the file, then writes in order, deletes, reloads. A job queued
/// while the file is still opening runs once it is open.
final class SessionWorker: @unchecked Sendable {
    let session: String
    let ownWrites = OwnWrites()
    private let queue = DispatchQueue(label: "StateStoreHost.writer", qos: .utility)
    private let activityInUse: NSLockedValue<BackgroundActivity?>
    private let duringWrite: (@Sendable () -> Void)?
    // Set by the open job and read by the jobs after it, all on the queue.
    private var opened: Opened? {
        didSet { interruptible.withLock { $0 = opened?.store } }
    }
    private var openFailure: StateStoreError?
    /// The store, for ``interrupt()`` from the main thread.
    private let interruptible = NSLockedValue<WindowStore?>(nil)

    init(session: String, activity: BackgroundActivity?, duringWrite: (@Sendable () -> Void)?) {
        self.session = session
        activityInUse = NSLockedValue(activity)
        self.duringWrite = duringWrite
    }

    /// The store, once the open job ran (on the queue only).
    var store: WindowStore? { opened?.store }

    /// Opens the session's stores as the queue's first job, and hands what it took to `done`.
    func open(
        _ body: @escaping @Sendable () -> Result<(Opened, WindowSession.Recovery), StateStoreError>,
        then done: @escaping @MainActor @Sendable (Result<(Opened, WindowSession.Recovery), StateStoreError>) -> Void
    ) {
        queue.async { [self] in
            let result = opening(body)
            onMainActor { done(result) }
        }
    }

    /// Opens the session's stores as the queue's first job, and returns what it took: for a caller
    /// that awaits the open, resumed once, with no other hop to the main actor.
    func open(
        _ body: @escaping @Sendable () -> Result<(Opened, WindowSession.Recovery), StateStoreError>
    ) async -> Result<(Opened, WindowSession.Recovery), StateStoreError> {
        await withCheckedContinuation { continuation in
            queue.async { [self] in continuation.resume(returning: opening(body)) }
        }
    }

    /// Runs the open job, on the queue, and keeps what it opened.
    private func opening(
        _ body: () -> Result<(Opened, WindowSession.Recovery), StateStoreError>
    ) -> Result<(Opened, WindowSession.Recovery), StateStoreError> {
        let result = body()
        switch result {
        case .success(let (opened, _)): self.opened = opened
        case .failure(let error): openFailure = error
        }
        return result
    }

    /// Stores opened already (an in-memory session), before any job runs.
    func adopt(_ opened: Opened) {
        queue.sync { self.opened = opened }
    }

    /// Protects every transaction from now on with `activity`.
    func useActivity(_ activity: BackgroundActivity) {
        activityInUse.withLock { $0 = activity }
    }

    /// Interrupts the transaction running now, if any: it fails and rolls back (its change is kept
    /// by the model that asked for it).
    func interrupt() {
        interruptible.withLock { $0?.interrupt() }
    }

    /// Runs `body` on the writer's queue, after everything queued before it, and hands its result to
    /// `done` on the main actor.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T, then done: @escaping @MainActor @Sendable (T) -> Void) {
        queue.async {
            let result = body()
            onMainActor { done(result) }
        }
    }

    /// Runs `body` on the writer's queue, after everything queued before it: for work whose result
    /// nobody waits for, so the main actor is not woken for it.
    func run(_ body: @escaping @Sendable () -> Void) {
        queue.async(execute: body)
    }

    /// Runs `body` on the writer's queue and waits for it.
    func perform<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    /// What a transaction came to under the host's background activity.
    enum Protected<T> {
        case done(T)
        /// The system gave no time: nothing ran.
        case refused
        /// The time ran out while it ran: it was interrupted (or had just finished).
        case expired(T)
    }

    /// One transaction on the store, inside the host's background activity when it gave one: an app
    /// suspended while it holds a SQLite lock on a shared container file is killed. Refused time
    /// runs nothing; time taken back interrupts the transaction.
    func transaction<T>(_ body: (WindowStore) -> T) -> Protected<T>? {
        guard let store else { return nil }
        guard let activity = activityInUse.withLock({ $0 }) else { return .done(body(store)) }
        store.clearInterrupt()
        let expired = NSLockedValue(false)
        guard
            let end = activity.begin({
                expired.withLock { $0 = true }
                store.interrupt()
            })
        else { return .refused }
        let result = body(store)
        end()
        return expired.withLock { $0 } ? .expired(result) : .done(result)
    }

    /// Writes a window's state if it is still at the expected revision, registering the write before
    /// it commits.
    func write(_ request: WriteRequest) -> WriteOutcome {
        switch transaction({ store in writeNow(request, store) }) {
        case nil: return .failed(openFailure ?? .invalidInput("the session's store is not open"))
        case .done(let outcome): return outcome
        case .refused: return .postponed
        case .expired(let outcome):
            if case .committed = outcome { return outcome }
            return .postponed
        }
    }

    private func writeNow(_ request: WriteRequest, _ store: WindowStore) -> WriteOutcome {
        do {
            let stored = try store.update(
                session: session, window: request.window, expectedRevision: request.expectedRevision
            ) { state in
                state.sizeClass = request.target.sizeClass
                state.path = request.target.path
                state.item = request.target.item
                state.itemPath = request.target.itemPath
                state.policy = request.target.policy
                ownWrites.register(
                    request.token, window: request.window, revision: state.revision + 1, content: state)
                duringWrite?()
            }
            return .committed(stored)
        } catch {
            ownWrites.unregister(request.token, window: request.window)
            // The closure above throws nothing of its own: every failure is the store's.
            let error = error as? StateStoreError ?? .invalidInput(String(describing: error))
            if case .conflict = error {
                do throws(StateStoreError) {
                    return .conflict(current: try store.window(session: session, window: request.window))
                } catch {
                    return .failed(error)
                }
            }
            return .failed(error)
        }
    }

    /// The stored state of a window and its selected tab, read with the store's full busy timeout.
    func read(_ window: String) -> Result<WindowStore.RestoredWindow, StateStoreError> {
        let session = session
        return protected("read") { store throws(StateStoreError) in
            try store.restoredWindow(session: session, window: window)
        }
    }

    /// Runs `body` in one protected transaction; time the system refused or took back is `busy`
    /// (nothing was done: try again), unless the work was done already.
    func protected<T>(
        _ what: String, _ body: (WindowStore) throws(StateStoreError) -> T
    ) -> Result<T, StateStoreError> {
        switch transaction({ store in Result { () throws(StateStoreError) in try body(store) } }) {
        case nil: return .failure(openFailure ?? .invalidInput("the session's store is not open"))
        case .done(let result): return result
        case .expired(let result) where (try? result.get()) != nil: return result
        case .refused, .expired:
            let reason = "the system gave no time to \(what) (the app is being suspended)"
            return .failure(.busy(SQLiteFailure(code: .busy, message: reason)))
        }
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
