import Foundation
import Observation
import StateStore

/// The windows of one app session in one database file: what an app makes once per process and
/// asks for each scene's ``WindowModel``.
///
/// ```swift
/// @main struct MailApp: App {
///     @State private var session = WindowSession(session: "main")  // the platform's default file
///     var body: some Scene { ... }
/// }
/// ```
///
/// Made synchronously, it opens, migrates and checks its file in the background: windows asked for
/// meanwhile start ``WindowModel/isRestoring`` and fill in, and what the user does meanwhile is kept
/// and made again on top of what is stored. Whatever opening takes (a damaged file moved aside, a
/// file it cannot use run in memory) is reported on the session, in ``recovery`` and
/// ``storageIssue``, never thrown: an app always launches. The session restores each window on
/// first use, writes every change in order on a serial queue of its own (the UI never waits for
/// SQLite), and adopts what other processes — `statectl`, an extension — commit to its windows.
@MainActor
@Observable
public final class WindowSession {
    /// Settings for a session.
    public struct Options: Sendable {
        /// How long a size-class change must hold before it is committed (SPEC §6).
        public var settle: Duration = .milliseconds(500)
        /// Whether the layout follows a reported class at once or only once it has settled.
        public var layoutFollows: SizeClassGate.LayoutFollows = .immediately
        /// The policy of a presentation made without one (``WindowModel/present(_:policy:)``).
        public var defaultPolicy: SizeChangePolicy = .migrate
        /// Move a damaged file aside and start a fresh store instead of running in memory (on by
        /// default: an app always launches with its windows' future saved). Any other unusable file
        /// runs the session in memory for this launch. Either way ``recovery`` says so.
        public var recoverUnusableFile = true
        /// Deletes this session's windows neither written nor shown for this long (scenes the
        /// system discarded without telling the app), once a launch, when the app first has no
        /// active window; windows with a live model are kept. `nil`: never.
        public var pruneAfter: Duration? = .seconds(30 * 24 * 3600)
        /// The time the system grants for each transaction, so that an app is not suspended while it
        /// holds a SQLite lock on a shared file. `StateStoreSwiftUI`'s windows set
        /// `.expiringActivity` when this is `nil`.
        public var activity: BackgroundActivity?
        /// The store's own settings: busy timeout, durability, history.
        public var store = WindowStore.Options()
        /// The clock size-class changes settle by; tests inject their own.
        public var clock: any Clock<Duration> = ContinuousClock()
        /// Called inside each write's transaction, before it commits (tests: an activity whose time
        /// runs out midway).
        package var duringWrite: (@Sendable () -> Void)?

        /// The defaults.
        public init() {}
    }

    /// What opening the file took.
    public enum Recovery: Hashable, Sendable {
        /// The file opened as it was (or is still opening: ``isOpening``).
        case none
        /// The file was damaged: it was moved aside to `movedTo` (with its `-wal` and `-shm`) and a
        /// fresh store started.
        case movedAside(movedTo: String, because: StateStoreError)
        /// The file could not be used and was left untouched: this launch runs in memory, and keeps
        /// nothing once it ends.
        case inMemory(because: StateStoreError)
    }

    /// The database file (`:memory:` for ``inMemory(session:options:)``).
    public let path: String
    /// The app session whose windows this is.
    public let session: String
    /// The settings it was made with.
    public let options: Options
    /// What opening the file took.
    public private(set) var recovery: Recovery = .none
    /// Whether the file is still being opened in the background.
    public private(set) var isOpening = true
    /// Storage trouble the user should hear of — the disk full, the file read-only or busy past a
    /// deadline, a damaged file moved aside, the session running in memory — until the app clears
    /// it (set it to `nil` once shown). A programmer's mistakes stay in the models' `lastError`.
    public var storageIssue: StorageIssue?
    /// The window the user last worked in: the last to become active or to be changed.
    public private(set) var focusedWindow: String?

    @ObservationIgnored let worker: SessionWorker
    /// The store, once open: the first frame reads through it on the main actor, never waiting
    /// (``firstFrameBusyTimeoutMilliseconds``); everything else goes through the worker.
    @ObservationIgnored private(set) var firstFrame: WindowStore?
    /// The windows the open read ahead, for first frames that need no SQLite on the main actor.
    @ObservationIgnored private var readAhead: FirstFrames?
    @ObservationIgnored let time: TimeSource
    @ObservationIgnored private var feedLoop: FeedLoop?
    @ObservationIgnored private var models: [WindowKey: any HostedWindow] = [:]
    @ObservationIgnored private var nextToken: UInt64 = 0
    @ObservationIgnored private var flushes: [FlushWaiter] = []
    @ObservationIgnored private var lastFeedError: StateStoreError?
    @ObservationIgnored private var openWaiters: [OpenWaiter] = []
    @ObservationIgnored private var openFailure: StateStoreError?
    @ObservationIgnored private var sceneLifeBegun = false
    /// Observing is paused by the app (``pauseObserving()``).
    @ObservationIgnored private var pausedByApp = false
    @ObservationIgnored private var pausedForInactivity = false
    /// Whether the windows of discarded scenes were pruned this launch (``Options/pruneAfter``).
    @ObservationIgnored private var pruned = false
    /// That prune, once begun (tests wait for it).
    @ObservationIgnored package private(set) var launchPrune: Task<Void, Never>?
    /// The focus to record next, with its kind: taken by the write the first of them queued.
    @ObservationIgnored private let pendingFocus = NSLockedValue<[(window: String, kind: String?)]>([])
    /// The wake-up that records the pending focus.
    @ObservationIgnored private var focusTimer: Task<Void, Never>?

    /// How long the first frame waits for a lock before it shows an empty window and fills it in later.
    nonisolated static let firstFrameBusyTimeoutMilliseconds = 50

    /// The windows of `session` in the database at `path`, opened in the background.
    public convenience init(path: String, session: String, options: Options = Options()) {
        self.init(path: path, session: session, options: options, throwing: false)
    }

    /// ``init(path:session:options:)`` for a file URL.
    public convenience init(url: URL, session: String, options: Options = Options()) {
        self.init(path: url.isFileURL ? url.path : "", session: session, options: options, throwing: false)
        if !url.isFileURL { reportOpenProblem(.invalidInput("\(url) is not a file URL")) }
    }

    /// The windows of `session` in the platform's default place (``defaultPath(appGroup:)``):
    /// the app's container, or the App Group `appGroup`'s, which the app's extensions share.
    /// With `appGroup`, writers post their Darwin notifications under the group's name too
    /// (``/StateStore/WindowStore/Options-swift.struct/notificationPrefix``), which a sandboxed app and its
    /// extensions may post and hear.
    public convenience init(session: String, appGroup: String? = nil, options: Options = Options()) {
        var options = options
        if let appGroup, options.store.notificationPrefix == nil { options.store.notificationPrefix = appGroup }
        switch Self.defaultPath(appGroup: appGroup) {
        case .success(let path):
            self.init(path: path, session: session, options: options)
        case .failure(let error):
            self.init(path: "", session: session, options: options, throwing: false)
            reportOpenProblem(error)
        }
    }

    /// A session kept in memory only: no file, no feed, the same API. For previews and tests.
    public static func inMemory(session: String = "preview", options: Options = Options()) -> WindowSession {
        WindowSession(inMemory: session, options: options)
    }

    /// Opens the session's windows in the database at `path` and waits until the file is open,
    /// migrated and checked; throws what the synchronous ``init(path:session:options:)`` would
    /// report (without ``Options/recoverUnusableFile``, a damaged file is thrown, not moved aside).
    public static func open(
        path: String, session: String, options: Options = Options()
    ) async throws -> WindowSession {
        try WindowState.validate(session: session)
        let opened = WindowSession(path: path, session: session, options: options, throwing: true, opening: false)
        let result = await opened.worker.open {
            Opened.open(path: path, session: session, options: options, fallBack: false)
        }
        opened.didOpen(result)
        if let error = opened.openFailure { throw error }
        return opened
    }

    /// ``open(path:session:options:)`` for a file URL.
    public static func open(url: URL, session: String, options: Options = Options()) async throws -> WindowSession {
        guard url.isFileURL else {
            throw StateStoreError.invalidInput("\(url) is not a file URL")
        }
        return try await open(path: url.path, session: session, options: options)
    }

    /// `opening`: whether the open starts here, its result reaching the main actor by itself; the
    /// caller that awaits the open starts it instead.
    private init(path: String, session: String, options: Options, throwing: Bool, opening: Bool = true) {
        self.path = path
        self.session = session
        self.options = options
        self.time = TimeSource(options.clock)
        self.worker = SessionWorker(session: session, activity: options.activity, duringWrite: options.duringWrite)
        do {
            try WindowState.validate(session: session)
            guard !path.isEmpty else { throw StateStoreError.invalidInput("database path is empty") }
        } catch {
            if !throwing { runInMemory(because: error as? StateStoreError ?? .invalidInput("\(error)")) }
            return
        }
        guard opening else { return }
        worker.open({ Opened.open(path: path, session: session, options: options, fallBack: !throwing) }) {
            [weak self] result in
            self?.didOpen(result)
        }
    }

    private init(inMemory session: String, options: Options) {
        self.path = ":memory:"
        self.session = session
        self.options = options
        self.time = TimeSource(options.clock)
        self.worker = SessionWorker(session: session, activity: nil, duringWrite: nil)
        do {
            try WindowState.validate(session: session)
            let opened = try Opened.inMemory(options: options)
            worker.adopt(opened)
            firstFrame = opened.store
            isOpening = false
        } catch {
            runInMemory(because: error)
        }
    }

    deinit {
        feedLoop?.stop()
    }

    /// The live model of window `id`, made and restored on first use, the same instance afterwards.
    ///
    /// An id the store refuses, or one already asked for with another route type, gives a model
    /// that works in memory only, its ``WindowModel/lastError`` saying why.
    ///
    /// `kind` (`mail`, `settings`) is recorded with the window's focus, so that an outside writer
    /// can address the latest window of a kind (`statectl set SESSION --focused --kind mail`).
    public func window<R: RouteRepresentable>(
        _ id: String, as type: R.Type = R.self, kind: String? = nil
    ) -> WindowModel<R> {
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
        if let kind {
            do {
                try WindowScene.validate(kind: kind)
            } catch {
                return WindowModel(
                    detached: id, session: session, options: options, problem: .invalidWindowID(id, error))
            }
        }
        let model = WindowModel<R>(id: id, kind: kind, in: self)
        models[key] = model
        if let lastFeedError { model.report(.store(lastFeedError)) }
        model.restore()
        return model
    }

    /// Waits, at most `timeout`, until every change made so far is committed or has failed; `true`
    /// when all are committed. A change is durable once this returns `true`: a session running in
    /// memory (``recovery`` `.inMemory`, or ``inMemory(session:options:)``) always says `false`.
    public func flush(timeout: Duration = .seconds(10)) async -> Bool {
        if isOpening {
            _ = await waitUntilOpen(timeout: timeout)
            if isOpening { return false }
        }
        let durable = path != ":memory:" && !isInMemoryRecovery
        recordFocus()
        for model in models.values { model.prepareForFlush() }
        let targets = models.map { ($0.key, $0.value.generation) }
        if let outcome = flushOutcome(targets) { return outcome && durable }
        let deadline = ContinuousClock.now + timeout
        let outcome = await withCheckedContinuation { continuation in
            let waiter = FlushWaiter(targets: targets, continuation: continuation)
            flushes.append(waiter)
            Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                self?.finishFlush(waiter, with: false)
            }
        }
        return outcome && durable
    }

    /// Ends every flush waiting now with `false` and interrupts the transaction in flight, whose
    /// change stays queued: for an app whose background time is running out.
    public func stopFlushing() {
        for waiter in flushes { finishFlush(waiter, with: false) }
        worker.interrupt()
    }

    /// How the session learns of other writers' changes: file notifications on a folder, or
    /// polling and why (``/StateStore/WindowStore/Options-swift.struct/forcePolling`` in ``Options/store`` forces it); `nil`
    /// for a session that runs in memory or is still opening.
    public var changeNotification: ChangeNotification? {
        feedLoop?.notification
    }

    /// Whether the session is learning of other writers' changes now: open, on a file, not paused
    /// by the app, and, once any window has said whether its scene is active, with one active.
    public var isObserving: Bool { feedLoop != nil && !pausedByApp && !pausedForInactivity }

    /// Stops learning of other writers' changes: the feed's wait is interrupted, and nothing polls,
    /// wakes or holds a lock until ``resumeObserving()``. Windows pause it themselves while none
    /// of their scenes is active.
    public func pauseObserving() {
        pausedByApp = true
        updateObserving()
    }

    /// Starts learning of other writers' changes again, from where it stopped (a change the log
    /// no longer holds reloads every window).
    public func resumeObserving() {
        pausedByApp = false
        updateObserving()
    }

    /// What the session's feed has done, and whether it is parked by ``pauseObserving()`` (tests).
    package var observingActivity: (feed: ChangeFeed.Activity, parked: Bool)? {
        feedLoop?.activity
    }

    /// Blocks until the feed's thread is parked by ``pauseObserving()``, at most `timeout` (tests).
    package func waitUntilObservingIsParked(timeout: Duration = .seconds(10)) -> Bool {
        feedLoop?.waitUntilParked(timeout: timeout) ?? false
    }

    /// Deletes windows whose scenes the user closed for good: their queued writes are cancelled,
    /// the delete is ordered after a write in flight, and their models are dropped. A tabbed
    /// window's tabs (ids `ID/TAB`) go with it.
    public func discard(windows ids: some Sequence<String>) async throws {
        let doomed = Array(ids)
        for id in doomed { try WindowState.validate(session: session, window: id) }
        for key in models.keys where doomed.contains(where: { Self.belongs(key, to: $0) }) {
            models.removeValue(forKey: key)?.detach()
        }
        let session = session
        readAhead?.forget { id in doomed.contains(where: { Self.belongs(WindowKey(id), to: $0) }) }
        try await worker.perform {
            [worker] () -> Result<Void, StateStoreError> in
            worker.protected("write") { store throws(StateStoreError) in
                let stored = try store.windowSummaries(session: session).map(\.window)
                for id in stored where doomed.contains(where: { Self.belongs(WindowKey(id), to: $0) }) {
                    try store.deleteWindow(session: session, window: id)
                }
            }
        }.get()
    }

    /// Deletes this session's windows whose scenes the system no longer keeps: every stored window
    /// but those of `keptWindows` (with their tabs) and those with a live model. The SwiftUI
    /// adapter calls it at launch with the windows of the scene sessions iOS still holds, so an app
    /// needs no delegate for discarded scenes.
    @discardableResult
    public func discardWindows(notIn keptWindows: Set<String>) async throws -> [String] {
        let kept = Array(keptWindows) + models.values.map(\.id)
        let session = session
        let discarded = try await worker.perform { [worker] () -> Result<[String], StateStoreError> in
            worker.protected("write") { store throws(StateStoreError) in
                var discarded: [String] = []
                for id in try store.windowSummaries(session: session).map(\.window)
                where !kept.contains(where: { Self.belongs(WindowKey(id), to: $0) }) {
                    try store.deleteWindow(session: session, window: id)
                    discarded.append(id)
                }
                return discarded
            }
        }.get()
        readAhead?.forget { discarded.contains($0) }
        return discarded
    }

    /// Deletes this session's windows not written for `age`, except those with a live model, and
    /// returns their ids.
    @discardableResult
    public func pruneWindows(olderThan age: Duration) async throws -> [String] {
        let live = models.values.map(\.id)
        let session = session
        let pruned = try await worker.perform { [worker] () -> Result<[String], StateStoreError> in
            worker.protected("write") { store throws(StateStoreError) in
                try store.pruneWindows(session: session, olderThan: age, keeping: live)
            }
        }.get()
        readAhead?.forget { pruned.contains($0) }
        return pruned
    }

    // MARK: For the models

    func makeToken() -> UInt64 {
        nextToken += 1
        return nextToken
    }

    func write(_ request: WriteRequest, then done: @escaping @MainActor @Sendable (WriteOutcome) -> Void) {
        let worker = worker
        worker.run({ worker.write(request) }, then: done)
    }

    func read(
        _ window: String,
        then done: @escaping @MainActor @Sendable (Result<WindowStore.RestoredWindow, StateStoreError>) -> Void
    ) {
        let worker = worker
        worker.run({ worker.read(window) }, then: done)
    }

    /// A model's write ended, or its state changed: flushes waiting on it may be done.
    func modelProgressed() {
        guard !flushes.isEmpty else { return }
        for waiter in flushes {
            if let outcome = flushOutcome(waiter.targets) { finishFlush(waiter, with: outcome) }
        }
    }

    var isFlushing: Bool { !flushes.isEmpty }

    /// A model reported a problem: storage trouble becomes the session's ``storageIssue``.
    func reported(_ problem: WindowError) {
        if case .store(let error) = problem {
            storageIssue = StorageIssue(error)
        } else {
            WindowError.logMistake(problem)
        }
    }

    /// A write committed: storage trouble a write reported is over.
    func storageRecovered() {
        if let issue = storageIssue, issue.clearsOnCommit { storageIssue = nil }
    }

    /// A window's scene became active or inactive: the session observes only while one is, and
    /// the window that became active is the focused one.
    func windowActivityChanged(_ model: any HostedWindow, isActive: Bool) {
        if isActive {
            if !model.isTab { focus(model) }
            for model in models.values { model.retryHeldWrites() }
        }
        updateObserving()
    }

    /// A tabbed window chose a tab: recorded with the window, and the focus follows it.
    func tabSelected(_ tab: String?, in model: any HostedWindow) {
        let (session, window) = (session, model.id)
        if path != ":memory:" {
            worker.run({ [worker] in
                _ = worker.protected("write") { store throws(StateStoreError) in
                    try store.setSelectedTab(tab, session: session, window: window)
                }
            })
        }
        if focusedWindow.map({ Self.belongs(WindowKey($0), to: window) }) == true { focus(model) }
    }

    /// The user changed a window: it is the one they work in.
    func windowEdited(_ model: any HostedWindow) {
        focus(model)
    }

    /// Makes `model`'s window the focused one — the tab it shows, for a window of tabs — and
    /// records it for outside writers, with its kind: no revision of any window. The record is
    /// written within ``Options/settle`` of the change (sooner at a flush, or when no window is
    /// active any more), with every focus change made meanwhile, in order: switching through
    /// windows writes once, and a launch writes nothing. A tab's window is recorded after the
    /// window holding it, so that both are known to be in use (the holder keeps the selected tab)
    /// and the tab is the latest.
    private func focus(_ model: any HostedWindow) {
        let target = model.focusTarget
        guard focusedWindow != target else { return }
        focusedWindow = target
        guard path != ":memory:" else { return }
        let holder = model.isTab ? model.holderID : (target != model.id ? model.id : nil)
        let entries = (holder.map { [$0] } ?? []) + [target]
        let wasPending = pendingFocus.withLock { pending in
            defer {
                pending.removeAll { entries.contains($0.window) }
                pending += entries.map { (window: $0, kind: model.kind) }
            }
            return !pending.isEmpty
        }
        guard !wasPending else { return }  // a record is on its way, and takes these too
        guard options.settle > .zero else { return recordFocus() }
        let (deadline, time) = (time.now() + options.settle, time)
        focusTimer = Task { [weak self] in
            do { try await time.sleep(deadline) } catch { return }
            self?.recordFocus()
        }
    }

    /// Writes the focus that piled up since the last record, now: when its time came, at a flush,
    /// and when no window is active any more (the app going to the background).
    private func recordFocus() {
        focusTimer?.cancel()
        focusTimer = nil
        let (session, pendingFocus) = (session, pendingFocus)
        guard pendingFocus.withLock({ !$0.isEmpty }) else { return }
        worker.run({ [worker] in
            let entries = pendingFocus.withLock { pending in
                defer { pending.removeAll() }
                return pending
            }
            // Best effort: a focus that cannot be recorded now is recorded with the next one.
            _ = worker.protected("write") { store throws(StateStoreError) in
                for (window, kind) in entries { try store.focus(session: session, window: window, kind: kind) }
            }
        })
    }

    /// Whether the SwiftUI adapter should start the session's scene life now: `true` the first
    /// time it asks, for the session's lifetime.
    package func beginSceneLife() -> Bool {
        defer { sceneLifeBegun = true }
        return !sceneLifeBegun
    }

    /// Uses `activity` for every transaction from now on, unless the app's options gave one: the
    /// SwiftUI adapter's `.expiringActivity` where the system suspends apps.
    package func useActivityByDefault(_ activity: BackgroundActivity) {
        if options.activity == nil { worker.useActivity(activity) }
    }

    /// Whether there is a ``storageIssue`` to show; set to `false`, it is cleared: the one binding
    /// an alert or a banner needs (`$session.isShowingStorageIssue`).
    public var isShowingStorageIssue: Bool {
        get { storageIssue != nil }
        set { if !newValue { storageIssue = nil } }
    }

    // MARK: Private

    private var isInMemoryRecovery: Bool {
        if case .inMemory = recovery { return true }
        return false
    }

    nonisolated private static func belongs(_ key: WindowKey, to id: String) -> Bool {
        let parent = Array(id.utf8)
        return key.bytes == parent
            || key.bytes.count > parent.count && key.bytes.starts(with: parent)
                && key.bytes[parent.count] == UInt8(ascii: "/")
    }

    private func didOpen(_ result: Result<(Opened, Recovery), StateStoreError>) {
        switch result {
        case .success(let (opened, recovery)):
            firstFrame = opened.store
            self.recovery = recovery
            switch recovery {
            case .none: break
            case .movedAside(let movedTo, let error): storageIssue = StorageIssue(movedAsideTo: movedTo, because: error)
            case .inMemory(let error): storageIssue = StorageIssue(runningInMemoryBecause: error)
            }
            readAhead = opened.firstFrames.map(FirstFrames.init)
            if let position = opened.changePosition {
                let (store, session) = (opened.store, session)
                feedLoop = FeedLoop(
                    makeFeed: {
                        Result { () throws(StateStoreError) in
                            try store.changeFeedOfOpenedStore(session: session, after: position)
                        }
                    },
                    ownWrites: worker.ownWrites,
                    deliver: { [weak self] items in onMainActor { self?.deliver(items) } },
                    failed: { [weak self] error in onMainActor { self?.feedFailed(error) } })
                updateObserving()
                // Its thread is started from the writer's queue: not on the main actor, and after
                // the open, so that the first frames are not kept waiting for it.
                if let feedLoop { worker.run { feedLoop.start() } }
            }
            isOpening = false
        case .failure(let error):
            openFailure = error
            isOpening = false
        }
        for waiter in openWaiters { release(waiter, with: openFailure) }
        modelProgressed()
    }

    /// Runs the session in memory from the start: an id or a place it cannot use.
    private func runInMemory(because error: StateStoreError) {
        if let opened = try? Opened.inMemory(options: options) {
            worker.adopt(opened)
            firstFrame = opened.store
        }
        recovery = .inMemory(because: error)
        storageIssue = StorageIssue(runningInMemoryBecause: error)
        isOpening = false
    }

    private func reportOpenProblem(_ error: StateStoreError) {
        feedLoop?.stop()
        feedLoop = nil
        runInMemory(because: error)
    }

    /// Waits until the file is open (at most `timeout`); the failure of a throwing open, if any.
    private func waitUntilOpen(timeout: Duration? = nil) async -> StateStoreError? {
        guard isOpening else { return openFailure }
        return await withCheckedContinuation { continuation in
            let waiter = OpenWaiter(continuation)
            openWaiters.append(waiter)
            guard let timeout else { return }
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.release(waiter, with: nil)
            }
        }
    }

    private func release(_ waiter: OpenWaiter, with failure: StateStoreError?) {
        guard let index = openWaiters.firstIndex(where: { $0 === waiter }) else { return }
        openWaiters.remove(at: index)
        waiter.continuation.resume(returning: failure)
    }

    /// Observes while the app has not paused it and, once any window has said whether its scene
    /// is active, while one is: nothing polls, wakes or holds a lock while the app may be
    /// suspended.
    private func updateObserving() {
        let reported = models.values.compactMap(\.isActive)
        pausedForInactivity = !reported.isEmpty && !reported.contains(true)
        if pausedForInactivity {
            recordFocus()
            pruneOnce()
        }
        guard let feedLoop else { return }
        if pausedByApp || pausedForInactivity {
            feedLoop.pause()
        } else {
            feedLoop.resume()
        }
    }

    /// Deletes the windows of scenes the system discarded long ago (``Options/pruneAfter``), once a
    /// launch, when the app first has no active window (going to the background): off the launch's
    /// way, and after every scene the system restored has asked for its window.
    private func pruneOnce() {
        guard let age = options.pruneAfter, !pruned, path != ":memory:", !isInMemoryRecovery, !isOpening else { return }
        pruned = true
        launchPrune = Task { [weak self] in _ = try? await self?.pruneWindows(olderThan: age) }
    }

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
                // A window with no model yet is read when asked for: its read-ahead state is old.
                readAhead?.forget(window)
                models[WindowKey(window)]?.adopt(outside: state)
            case .gap:
                readAhead = nil
                for model in models.values { model.reload() }
            case .unreadable(let window, let problem):
                readAhead?.forget(window)
                models[WindowKey(window)]?.report(.unreadableChange(problem))
            }
        }
    }

    /// Window `id`'s first frame as the open read it, once; `nil` when it must be read (the open
    /// read none ahead, it was taken already, or it changed since).
    func takeFirstFrame(_ id: String) -> WindowStore.RestoredWindow? {
        readAhead?.take(id)
    }

    private func feedFailed(_ error: StateStoreError) {
        // A failing feed fails on every poll: each model hears of it once (one made later, when
        // it is made), and so does the user.
        guard error != lastFeedError else { return }
        lastFeedError = error
        storageIssue = StorageIssue(error)
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

/// A caller waiting for the session's file to open.
@MainActor
private final class OpenWaiter {
    let continuation: CheckedContinuation<StateStoreError?, Never>

    init(_ continuation: CheckedContinuation<StateStoreError?, Never>) {
        self.continuation = continuation
    }
}

/// Where a model's changes stand for a flush.
enum FlushState {
    case committed
    case failed
    case pending
}

/// The windows a session's open read ahead, each given once to the model made for it; a window
/// changed since (by another process, or deleted by this one) is read again instead.
struct FirstFrames {
    private var windows: [String: WindowStore.RestoredWindow]
    /// Windows taken or changed since the open: read when asked for.
    private var unknown: Set<String> = []

    init(_ windows: [String: WindowStore.RestoredWindow]) {
        self.windows = windows
    }

    /// Window `id` as the open read it (no state when the open found none), once.
    mutating func take(_ id: String) -> WindowStore.RestoredWindow? {
        guard unknown.insert(id).inserted else { return nil }
        return windows.removeValue(forKey: id) ?? WindowStore.RestoredWindow()
    }

    /// Window `id` changed since the open.
    mutating func forget(_ id: String) {
        unknown.insert(id)
        windows[id] = nil
    }

    /// The windows read ahead that `changed` says changed since the open (deleted by this
    /// session, whose feed reports it later).
    mutating func forget(where changed: (String) -> Bool) {
        for id in windows.keys where changed(id) { forget(id) }
    }
}
