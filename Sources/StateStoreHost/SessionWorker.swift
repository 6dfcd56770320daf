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
/// cooperative pool): writes in order, deletes, reloads.
final class SessionWorker: Sendable {
    let store: StateStore
    let session: String
    let ownWrites = OwnWrites()
    private let queue = DispatchQueue(label: "StateStoreHost.writer", qos: .utility)
    private let backgroundActivity: (@Sendable (() -> Void) -> Void)?

    init(store: StateStore, session: String, backgroundActivity: (@Sendable (() -> Void) -> Void)?) {
        self.store = store
        self.session = session
        self.backgroundActivity = backgroundActivity
    }

    /// Runs `body` on the writer's queue, after everything queued before it, and hands its result to
    /// `done` on the main actor.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T, then done: @escaping @MainActor @Sendable (T) -> Void) {
        queue.async {
            let result = body()
            onMainActor { done(result) }
        }
    }

    /// Runs `body` on the writer's queue and waits for it.
    func perform<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    /// One transaction, inside the host's background activity when it gave one: an app suspended
    /// while it holds a SQLite lock on a shared container file is killed.
    func transaction<T>(_ body: () -> T) -> T {
        guard let backgroundActivity else { return body() }
        var result: T?
        backgroundActivity { result = body() }
        // A hook that forgot to call its argument must not lose the write.
        return result ?? body()
    }

    /// Writes a window's state if it is still at the expected revision, registering the write before
    /// it commits.
    func write(_ request: WriteRequest) -> WriteOutcome {
        transaction {
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
    }

    /// The stored state of a window, read with the store's full busy timeout.
    func read(_ window: String) -> Result<WindowState?, StateStoreError> {
        Result { () throws(StateStoreError) in try store.window(session: session, window: window) }
    }
}

/// Runs `body` on the main actor, after what was handed to it before (the main queue is FIFO).
func onMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
    DispatchQueue.main.async {
        MainActor.assumeIsolated { body() }
    }
}
