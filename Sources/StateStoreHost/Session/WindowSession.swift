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
/// SQLite), and adopts what other processes — `statectl`, an extension — commit to its windows
/// while one of its windows is active. What the system does to the app (a scene connecting, the
/// app going to the background, scenes discarded, a quit) reaches it as ``SceneEvent``s.
@MainActor
@Observable
public final class WindowSession {
    /// The database file (`:memory:` for ``inMemory(session:options:)``).
    public let path: String
    /// The app session whose windows this is.
    public let session: String
    /// The settings it was made with.
    public let options: Options
    /// What opening the file took.
    public internal(set) var recovery: Recovery = .none
    /// Whether the file is still being opened in the background.
    public internal(set) var isOpening = true
    /// Storage trouble the user should hear of — the disk full, the file read-only or busy past a
    /// deadline, a damaged file moved aside, the session running in memory — until the app clears
    /// it (set it to `nil` once shown). A programmer's mistakes stay in the models' `lastError`.
    public var storageIssue: StorageIssue?
    /// The window the user last worked in: the last to become active or to be changed.
    public internal(set) var focusedWindow: String?

    @ObservationIgnored let writer: Writer
    @ObservationIgnored let time: TimeSource
    @ObservationIgnored let frames = FirstFrames()
    @ObservationIgnored var models: [WindowKey: any HostedWindow] = [:]
    @ObservationIgnored var feedLoop: FeedLoop?
    @ObservationIgnored var lastFeedError: StateStoreError?
    @ObservationIgnored var openFailure: StateStoreError?
    @ObservationIgnored var life = SceneLife()
    @ObservationIgnored let flushes = Flushes()
    @ObservationIgnored let focus = FocusRecord()
    @ObservationIgnored let openWaiters = Waiters<StateStoreError>()
    @ObservationIgnored var tokenBases: UInt64 = 0
    @ObservationIgnored var terminationWatch: TerminationWatch?
    /// The launch's prune, once begun (tests wait for it).
    @ObservationIgnored package var launchPrune: Task<Void, Never>?

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
    /// (``/StateStore/WindowStore/Options-swift.struct/notificationPrefix``), which a sandboxed app
    /// and its extensions may post and hear.
    public convenience init(
        session: String = WindowSession.defaultName, appGroup: String? = nil, options: Options = Options()
    ) {
        var options = options
        if let appGroup, options.store.notificationPrefix == nil { options.store.notificationPrefix = appGroup }
        options.excludesFromBackup = true
        switch Self.defaultPath(appGroup: appGroup) {
        case .success(let path):
            self.init(path: path, session: session, options: options)
        case .failure(let error):
            self.init(path: "", session: session, options: options, throwing: false, opening: false)
            reportOpenProblem(error)
        }
    }

    /// The session name an app with one session uses, `main`: ``init(session:appGroup:options:)``'s
    /// default, and the name an extension writing to the app's windows gives the store
    /// (`store.updateFocusedWindow(session: WindowSession.defaultName, kind: "mail")`).
    nonisolated public static let defaultName = "main"

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
        if let error = opened.openFailure { throw error }
        // The open's result comes straight back to this task: one hop to the main actor.
        let result = await withCheckedContinuation { continuation in
            opened.startOpening(fallBack: false) { continuation.resume(returning: $0) }
        }
        opened.didOpen(result)
        if let error = opened.openFailure { throw error }
        return opened
    }

    /// ``open(path:session:options:)`` for a file URL.
    public static func open(url: URL, session: String, options: Options = Options()) async throws -> WindowSession {
        guard url.isFileURL else { throw StateStoreError.invalidInput("\(url) is not a file URL") }
        return try await open(path: url.path, session: session, options: options)
    }

    /// A session whose file is not opened yet.
    init(unopenedAt path: String, session: String, options: Options) {
        self.path = path
        self.session = session
        self.options = options
        time = TimeSource(options.clock)
        writer = Writer(activity: options.activity, duringJob: options.duringJob)
        writer.whenSuspended { [weak self] in onMainActor { self?.flushes.finishAll(with: false) } }
        if path != ":memory:" { terminationWatch = TerminationWatch(self, names: options.terminationNotifications) }
    }

    deinit {
        feedLoop?.stop()
    }

    /// The live model of window `id`, made and restored on first use, the same instance afterwards.
    ///
    /// An id the store refuses, one already asked for with another route type, or a route type
    /// whose name is not stable (a `private` or local type), gives a model that works in memory
    /// only, its ``WindowModel/lastError`` saying why (and ``Options/errorHandler`` hearing it).
    ///
    /// `kind` (`mail`, `settings`) is recorded with the window's focus, so that an outside writer
    /// can address the latest window of a kind (`statectl set SESSION --focused --kind mail`).
    public func window<R: RouteRepresentable>(
        _ id: String, as type: R.Type = R.self, kind: String? = nil
    ) -> WindowModel<R> {
        let key = WindowKey(id)
        if let existing = models[key] {
            if let model = existing as? WindowModel<R> { return model }
            return detachedWindow(
                id,
                problem: .typeMismatch(window: id, shownAs: existing.routeTypeName, askedAs: String(reflecting: R.self))
            )
        }
        guard RouteTypeName.isStable(R.routeType) else {
            return detachedWindow(id, problem: .unstableRouteType(R.routeType))
        }
        do {
            try WindowState.validate(session: session, window: id)
            if let kind { try WindowScene.validate(kind: kind) }
        } catch {
            return detachedWindow(id, problem: .invalidWindowID(id, error))
        }
        let frame = frames.register(id)
        let model = WindowModel<R>(id: id, kind: kind, in: self, restored: frame)
        models[key] = model
        if let lastFeedError { model.report(.store(lastFeedError)) }
        if frame == nil { read(id) }
        return model
    }

    /// A model of window `id` that works in memory only, because of `problem`, which the error hook
    /// and the log hear of as of any window's.
    private func detachedWindow<R: RouteRepresentable>(_ id: String, problem: WindowError) -> WindowModel<R> {
        let model = WindowModel<R>(detached: id, session: session, options: options, problem: problem)
        reported(problem, in: model)
        return model
    }

    /// Waits, at most `timeout`, until every change made so far — the focus record included — is
    /// written, or has failed; `true` when all are written. A change is durable once this returns
    /// `true`: a session running in memory (``recovery`` `.inMemory`, or
    /// ``inMemory(session:options:)``) always says `false`. Writes the system gave no time for are
    /// tried again first.
    public func flush(timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: min(max(timeout, .zero), TimeSource.farthest))
        if isOpening, await waitUntilOpen(deadline: deadline) != nil || isOpening { return false }
        let durable = path != ":memory:" && !isInMemoryRecovery
        writePending()
        return await flushes.wait(for: self, until: deadline) && durable
    }

    /// Ends every flush waiting now with `false` and interrupts the transaction in flight, whose
    /// change stays queued (with everything after it) until a window is active again or the app
    /// flushes: for an app whose background time is running out.
    public func stopFlushing() {
        writer.suspend()
        flushes.finishAll(with: false)
    }

    /// How the session learns of other writers' changes: file notifications on a folder, or
    /// polling and why (``/StateStore/WindowStore/Options-swift.struct/forcePolling`` in
    /// ``Options/store`` forces it); `nil` for a session that runs in memory, is still opening, or
    /// has not observed yet (its feed starts when a window is first active).
    public var changeNotification: ChangeNotification? {
        feedLoop?.notification
    }

    /// Whether the session is learning of other writers' changes now: open, on a file, not paused
    /// by the app, and with one of its windows active.
    public var isObserving: Bool { feedLoop != nil && life.isObserving }

    /// Stops learning of other writers' changes: the feed's wait is interrupted, and nothing polls,
    /// wakes or holds a lock until ``resumeObserving()``. Windows pause it themselves while none
    /// of their scenes is active.
    public func pauseObserving() {
        apply(life.pausedByApp(true))
    }

    /// Learns of other writers' changes again once a window is active, from where it stopped (a
    /// change the log no longer holds reloads every window).
    public func resumeObserving() {
        apply(life.pausedByApp(false))
    }

    /// Whether window `window`'s scene shows the ``storageIssue``: the focused window's does (every
    /// window's while none is focused yet), so that an app with several windows shows it once.
    /// Set to `false`, it is cleared. The adapter's windows bind their alert to it.
    package subscript(showsStorageIssueIn window: String) -> Bool {
        get {
            guard storageIssue != nil else { return false }
            guard let focusedWindow else { return true }
            return focusedWindow.isSameID(as: window) || focusedWindow.utf8.starts(with: (window + "/").utf8)
        }
        set { if !newValue { storageIssue = nil } }
    }

    var isInMemoryRecovery: Bool {
        if case .inMemory = recovery { return true }
        return false
    }
}
