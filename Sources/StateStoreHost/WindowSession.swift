import Foundation
import StateStore

/// The windows of one app session in one database file: what an app opens once per process and
/// asks for each scene's ``WindowModel``.
///
/// The session restores each window on first use, writes every change in order on a serial queue
/// of its own (the UI never waits for SQLite), and adopts what other processes — `statectl`, an
/// extension — commit to its windows.
@MainActor
public final class WindowSession {
    /// Settings for a session.
    public struct Options: Sendable {
        /// How long a size-class change must hold before it is committed (SPEC §6).
        public var settle: Duration = .milliseconds(500)
        /// Whether the layout follows a reported class at once or only once it has settled.
        public var layoutFollows: SizeClassGate.LayoutFollows = .immediately
        /// Move a damaged file aside and start a fresh store instead of failing to open; any other
        /// unusable file runs the session in memory for this launch. Either way ``recovery`` says so.
        public var recoverUnusableFile = false
        /// Wrapped around each transaction the writer runs, so that an app can hold a background task
        /// meanwhile (a process suspended holding a SQLite lock on a shared file is killed). It must
        /// call its argument once, at once.
        public var backgroundActivity: (@Sendable (_ transaction: () -> Void) -> Void)? = nil
        /// The store's own settings: busy timeout, durability, history.
        public var store = StateStore.Options()
        /// The clock size-class changes settle by; tests inject their own.
        public var clock: any Clock<Duration> = ContinuousClock()

        /// The defaults.
        public init() {}
    }

    /// What opening the file took.
    public enum Recovery: Hashable, Sendable {
        /// The file opened as it was.
        case none
        /// The file was damaged: it was moved aside to `movedTo` (with its `-wal` and `-shm`) and a
        /// fresh store started.
        case movedAside(movedTo: String, because: StateStoreError)
        /// The file could not be used and was left untouched: this launch runs in memory, and keeps
        /// nothing once it ends.
        case inMemory(because: StateStoreError)
    }

    /// The database file.
    public let path: String
    /// The app session whose windows this is.
    public let session: String
    /// The settings it was opened with.
    public let options: Options
    /// What opening the file took.
    public let recovery: Recovery

    let worker: SessionWorker
    /// The connection the first frame reads through, with a short busy timeout.
    let firstFrame: StateStore
    let time: TimeSource
    private var feedLoop: FeedLoop?
    private var models: [WindowKey: any HostedWindow] = [:]
    private var nextToken: UInt64 = 0
    private var flushes: [FlushWaiter] = []
    private var lastFeedError: StateStoreError?

    /// How long the first frame waits for a lock before it shows an empty window and fills it in later.
    nonisolated static let firstFrameBusyTimeoutMilliseconds = 50

    private init(
        path: String, session: String, options: Options, recovery: Recovery, opened: Opened
    ) {
        self.path = path
        self.session = session
        self.options = options
        self.recovery = recovery
        self.worker = SessionWorker(
            store: opened.store, session: session, backgroundActivity: options.backgroundActivity)
        self.firstFrame = opened.firstFrame
        self.time = TimeSource(options.clock)
        if let feed = opened.feed {
            let loop = FeedLoop(
                feed: feed, ownWrites: worker.ownWrites,
                deliver: { [weak self] items in onMainActor { self?.deliver(items) } },
                failed: { [weak self] error in onMainActor { self?.feedFailed(error) } })
            feedLoop = loop
            loop.start()
        }
    }

    deinit {
        feedLoop?.stop()
    }

    /// Opens the session's windows in the database at `path`: the file is opened, migrated and
    /// checked off the main actor.
    public static func open(
        path: String, session: String, options: Options = Options()
    ) async throws
        -> WindowSession
    {
        try WindowState.validate(session: session)
        let (opened, recovery) = try await Opened.open(path: path, session: session, options: options)
        return WindowSession(path: path, session: session, options: options, recovery: recovery, opened: opened)
    }

    /// ``open(path:session:options:)`` for a file URL.
    public static func open(url: URL, session: String, options: Options = Options()) async throws -> WindowSession {
        guard url.isFileURL else {
            throw StateStoreError.invalidInput("\(url) is not a file URL")
        }
        return try await open(path: url.path, session: session, options: options)
    }

    /// The live model of window `id`, made and restored on first use, the same instance afterwards.
    ///
    /// An id the store refuses, or one already asked for with another route type, gives a model
    /// that works in memory only, its ``WindowModel/lastError`` saying why.
    public func window<R: RouteRepresentable>(_ id: String, as type: R.Type = R.self) -> WindowModel<R> {
        let key = WindowKey(id)
        if let existing = models[key] {
            if let model = existing as? WindowModel<R> { return model }
            return WindowModel(
                detached: id, session: session, options: options,
                problem: .typeMismatch(window: id, shownAs: existing.routeTypeName, askedAs: String(reflecting: R.self))
            )
        }
        do {
            try WindowState.validate(session: session, window: id)
        } catch {
            return WindowModel(detached: id, session: session, options: options, problem: .invalidWindowID(id, error))
        }
        let model = WindowModel<R>(id: id, in: self)
        models[key] = model
        model.restore()
        return model
    }

    /// Waits, at most `timeout`, until every change made so far is committed or has failed; `true`
    /// when all are committed. A change is durable once this returns `true`.
    public func flush(timeout: Duration = .seconds(10)) async -> Bool {
        for model in models.values { model.prepareForFlush() }
        let targets = models.map { ($0.key, $0.value.generation) }
        if let outcome = flushOutcome(targets) { return outcome }
        let deadline = ContinuousClock.now + timeout
        return await withCheckedContinuation { continuation in
            let waiter = FlushWaiter(targets: targets, continuation: continuation)
            flushes.append(waiter)
            Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                self?.finishFlush(waiter, with: false)
            }
        }
    }

    /// How the session learns of other writers' changes: file notifications on a folder, or
    /// polling and why (``/StateStore/StateStore/Options-swift.struct/forcePolling`` in ``Options/store`` forces it); `nil`
    /// for a session that runs in memory.
    public var changeNotification: ChangeNotification? {
        feedLoop?.notification
    }

    /// Stops learning of other writers' changes: the feed's wait is interrupted, and nothing polls
    /// or wakes until ``resumeObserving()``.
    public func pauseObserving() {
        feedLoop?.pause()
    }

    /// What the session's feed has done, and whether it is parked by ``pauseObserving()`` (tests).
    package var observingActivity: (feed: ChangeFeed.Activity, parked: Bool)? {
        feedLoop?.activity
    }

    /// Blocks until the feed's thread is parked by ``pauseObserving()``, at most `timeout` (tests).
    package func waitUntilObservingIsParked(timeout: Duration = .seconds(10)) -> Bool {
        feedLoop?.waitUntilParked(timeout: timeout) ?? false
    }

    /// Starts learning of other writers' changes again, from where it stopped (a change the log
    /// no longer holds reloads every window).
    public func resumeObserving() {
        feedLoop?.resume()
    }

    /// Deletes windows whose scenes the user closed for good: their queued writes are cancelled,
    /// the delete is ordered after a write in flight, and their models are dropped.
    public func discard(windows ids: some Sequence<String>) async throws {
        let doomed = Array(ids)
        for id in doomed { try WindowState.validate(session: session, window: id) }
        for id in doomed { models.removeValue(forKey: WindowKey(id))?.detach() }
        let worker = worker
        let result = await worker.perform { () -> Result<Void, StateStoreError> in
            worker.transaction {
                Result { () throws(StateStoreError) in
                    for id in doomed { try worker.store.deleteWindow(session: worker.session, window: id) }
                }
            }
        }
        try result.get()
    }

    /// Deletes this session's windows not written for `age`, except those with a live model, and
    /// returns their ids.
    @discardableResult
    public func pruneWindows(olderThan age: Duration) async throws -> [String] {
        let live = models.values.map(\.id)
        let worker = worker
        let result = await worker.perform { () -> Result<[String], StateStoreError> in
            worker.transaction {
                Result { () throws(StateStoreError) in
                    try worker.store.pruneWindows(session: worker.session, olderThan: age, keeping: live)
                }
            }
        }
        return try result.get()
    }

    // MARK: For the models

    func makeToken() -> UInt64 {
        nextToken += 1
        return nextToken
    }

    /// A model's write ended, or its state changed: flushes waiting on it may be done.
    func modelProgressed() {
        guard !flushes.isEmpty else { return }
        for waiter in flushes {
            if let outcome = flushOutcome(waiter.targets) { finishFlush(waiter, with: outcome) }
        }
    }

    var isFlushing: Bool { !flushes.isEmpty }

    // MARK: Private

    private func flushOutcome(_ targets: [(WindowKey, Int)]) -> Bool? {
        var allCommitted = true
        for (key, generation) in targets {
            guard let model = models[key] else { continue }  // discarded: its changes went with it
            switch model.flushState(for: generation) {
            case .committed: continue
            case .failed: allCommitted = false
            case .pending: return nil
            }
        }
        return allCommitted
    }

    private func finishFlush(_ waiter: FlushWaiter, with outcome: Bool) {
        guard let index = flushes.firstIndex(where: { $0 === waiter }) else { return }
        flushes.remove(at: index)
        waiter.continuation.resume(returning: outcome)
    }

    private func deliver(_ items: [FeedItem]) {
        lastFeedError = nil
        for item in items {
            switch item {
            case .own(let token, let stored):
                models[WindowKey(stored.window)]?.ownWriteCommitted(token: token, stored: stored)
            case .outside(let window, let state):
                models[WindowKey(window)]?.adopt(outside: state)
            case .gap:
                for model in models.values { model.reload() }
            case .unreadable(let window, let problem):
                models[WindowKey(window)]?.report(.unreadableChange(problem))
            }
        }
    }

    private func feedFailed(_ error: StateStoreError) {
        // A failing feed fails on every poll: each model hears of it once.
        guard error != lastFeedError else { return }
        lastFeedError = error
        for model in models.values { model.report(.store(error)) }
    }
}

/// A flush waiting for the generations of changes each model had when it was called.
@MainActor
private final class FlushWaiter {
    let targets: [(WindowKey, Int)]
    let continuation: CheckedContinuation<Bool, Never>

    init(targets: [(WindowKey, Int)], continuation: CheckedContinuation<Bool, Never>) {
        self.targets = targets
        self.continuation = continuation
    }
}

/// Where a model's changes stand for a flush.
enum FlushState {
    case committed
    case failed
    case pending
}

/// What the session asks of each of its models, whatever their route type.
@MainActor
protocol HostedWindow: AnyObject {
    var id: String { get }
    var routeTypeName: String { get }
    /// Counts the model's local changes; a flush waits for the count it saw.
    var generation: Int { get }
    func flushState(for generation: Int) -> FlushState
    func prepareForFlush()
    func ownWriteCommitted(token: UInt64, stored: WindowState)
    func adopt(outside state: WindowState?)
    func reload()
    func report(_ problem: WindowError)
    func detach()
}

/// The stores a session opened, off the main actor.
struct Opened: Sendable {
    let store: StateStore
    let firstFrame: StateStore
    /// Made before any window is read; waited on by the feed's thread.
    let feed: ChangeFeed?

    static func open(
        path: String, session: String, options: WindowSession.Options
    ) async throws -> (
        Opened, WindowSession.Recovery
    ) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try openNow(path: path, session: session, options: options) })
            }.start()
        }
    }

    private static func openNow(
        path: String, session: String, options: WindowSession.Options
    ) throws(StateStoreError)
        -> (Opened, WindowSession.Recovery)
    {
        do {
            return (try files(path: path, session: session, options: options), .none)
        } catch {
            guard options.recoverUnusableFile else { throw error }
            if error.isDamagedFile, let movedTo = UnusableFile.moveAside(path) {
                let opened = try files(path: path, session: session, options: options)
                return (opened, .movedAside(movedTo: movedTo, because: error))
            }
            let store = try StateStore.inMemory(options: options.store)
            return (Opened(store: store, firstFrame: store, feed: nil), .inMemory(because: error))
        }
    }

    private static func files(
        path: String, session: String, options: WindowSession.Options
    ) throws(StateStoreError)
        -> Opened
    {
        let store = try StateStore(path: path, options: options.store)
        var quick = options.store
        quick.busyTimeoutMilliseconds = WindowSession.firstFrameBusyTimeoutMilliseconds
        quick.createIfMissing = false
        let firstFrame = try StateStore(path: path, options: quick)
        let feed = try store.changeFeed(session: session)
        return Opened(store: store, firstFrame: firstFrame, feed: feed)
    }
}
