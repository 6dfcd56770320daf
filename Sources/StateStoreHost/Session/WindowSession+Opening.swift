import Foundation
import StateStore

// Opening a session's file on its writer, off the main actor, and what that took: the store, a
// damaged file moved aside or a launch in memory, and the windows read ahead for first frames.

extension WindowSession {
    /// A session of `path`. `throwing`: an unusable file fails the open (``open(path:session:options:)``)
    /// instead of running the session in memory. `opening`: whether the open starts here, its
    /// result reaching the main actor by itself.
    convenience init(path: String, session: String, options: Options, throwing: Bool, opening: Bool = true) {
        self.init(unopenedAt: path, session: session, options: options)
        do {
            try WindowState.validate(session: session)
            guard !path.isEmpty else { throw StateStoreError.invalidInput("database path is empty") }
            guard path != ":memory:" else {
                throw StateStoreError.invalidInput(
                    "':memory:' is no file: use WindowSession.inMemory(session:options:), or './:memory:' for a file of that name"
                )
            }
        } catch {
            let error = error as? StateStoreError ?? .invalidInput("\(error)")
            if throwing {
                openFailure = error
                isOpening = false
            } else {
                runInMemory(because: error)
            }
            return
        }
        guard opening else { return }
        startOpening(fallBack: !throwing) { [weak self] result in onMainActor { self?.didOpen(result) } }
    }

    /// A session kept in memory, open at once.
    convenience init(inMemory session: String, options: Options) {
        var options = options
        options.activity = nil
        self.init(unopenedAt: ":memory:", session: session, options: options)
        do {
            try WindowState.validate(session: session)
            writer.adopt(try WindowStore.inMemory(options: options.store))
            frames.openedEmpty()
            isOpening = false
        } catch {
            runInMemory(because: error)
        }
    }

    /// Opens the file on the writer, as its first job, and hands what that took to `deliver` (on
    /// the writer's queue). The windows read ahead are the first frames' before any model hears.
    func startOpening(
        fallBack: Bool, deliver: @escaping @Sendable (Result<Opening.Opened, StateStoreError>) -> Void
    ) {
        let (path, session, options, frames, ownWrites) = (path, session, options, frames, writer.ownWrites)
        writer.open { [weak self] in
            var result = Opening.open(path: path, session: session, options: options, fallBack: fallBack)
            var feed: FeedLoop?
            if case .success(var opened) = result {
                if let read = opened.read {
                    frames.opened(read)
                    // Paused until a window is active: no connection, no watch, no poll before.
                    feed = Self.feedLoop(of: opened.store, session: session, after: read.position, ownWrites, self)
                    opened.feed = feed
                    result = .success(opened)
                } else {
                    frames.openedEmpty()
                }
            }
            deliver(result)
            // Its thread, after the open's result is on its way: not on the main actor, and not
            // behind other work waiting for a worker.
            feed?.start()
            return result.map(\.store)
        }
    }

    /// What the open took, on the main actor: the change feed starts (paused until a window is
    /// active), storage trouble is reported, and those waiting for the open go on.
    func didOpen(_ result: Result<Opening.Opened, StateStoreError>) {
        switch result {
        case .success(let opened):
            recovery = opened.recovery
            switch opened.recovery {
            case .none: break
            case .movedAside(let movedTo, let error): storageIssue = StorageIssue(movedAsideTo: movedTo, because: error)
            case .inMemory(let error): storageIssue = StorageIssue(runningInMemoryBecause: error)
            }
            feedLoop = opened.feed
            if life.isObserving { opened.feed?.resume() }
        case .failure(let error):
            openFailure = error
        }
        isOpening = false
        openWaiters.finishAll(with: openFailure)
        modelProgressed()
    }

    /// Runs the session in memory from the start: an id or a place it cannot use.
    func runInMemory(because error: StateStoreError) {
        if let store = try? WindowStore.inMemory(options: options.store) { writer.adopt(store) }
        frames.openedEmpty()
        recovery = .inMemory(because: error)
        storageIssue = StorageIssue(runningInMemoryBecause: error)
        isOpening = false
    }

    func reportOpenProblem(_ error: StateStoreError) {
        feedLoop?.stop()
        feedLoop = nil
        runInMemory(because: error)
    }

    /// Waits until the file is open (at most until `deadline`); the failure of a throwing open.
    func waitUntilOpen(deadline: ContinuousClock.Instant? = nil) async -> StateStoreError? {
        guard isOpening else { return openFailure }
        return await openWaiters.wait(until: deadline)
    }

    /// Where a session without a path keeps its windows (``/StateStore/StoreLocation``): on iOS,
    /// iPadOS, watchOS and visionOS `Library/Application Support/StateStore/state.db` in the app's
    /// container; on tvOS the same in `Library/Caches` (tvOS keeps no app's local files for sure:
    /// their loss is normal there); on macOS the app's container when it is sandboxed, else
    /// `~/Library/Application Support/BUNDLE-ID/StateStore/state.db`, never one file shared by every
    /// app. With `appGroup`, the same place in the App Group's container, which the app's extensions
    /// share (the group must be in the entitlements of each; a group the app may not use is said so
    /// here, not found later as a file that cannot be made). Elsewhere `statectl`'s own default, so
    /// that `statectl` finds it: `$STATECTL_DB`, else `$XDG_STATE_HOME/statectl/state.db`
    /// (`$HOME/.local/state/statectl/state.db`), where there are no App Groups; a variable that is
    /// not UTF-8 is refused, never read as another path.
    nonisolated public static func defaultPath(appGroup: String? = nil) -> Result<String, StateStoreError> {
        Result { () throws(StateStoreError) in
            #if canImport(Darwin)
                if let system = StoreLocation.AppleSystem.current {
                    if let appGroup { return try appGroupPath(appGroup, on: system) }
                    let environment = ProcessInfo.processInfo.environment
                    return try StoreLocation.appPath(
                        on: system, home: NSHomeDirectory(), bundleIdentifier: Bundle.main.bundleIdentifier,
                        sandboxed: StoreLocation.isSandboxed { environment[$0] })
                }
            #endif
            guard let path = try DatabaseLocation.path(option: nil, environment: StoreLocation.environmentValue) else {
                throw .invalidInput("no home folder to keep the windows in (HOME and XDG_STATE_HOME unset)")
            }
            return path
        }
    }

    #if canImport(Darwin)
        /// The store in App Group `group`'s container, when this app may use the group: iOS gives
        /// no container for a group the app is not entitled to; macOS gives one anyway, whose
        /// folder a sandboxed app then cannot make.
        nonisolated private static func appGroupPath(
            _ group: String, on system: StoreLocation.AppleSystem
        ) throws(StateStoreError) -> String {
            let notEntitled = StateStoreError.invalidInput(
                "the App Group '\(group)' is not available to this app: add it to the app's entitlements (and its extensions')"
            )
            guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else {
                throw notEntitled
            }
            if system == .macOS {
                do {
                    try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
                } catch {
                    throw notEntitled
                }
            }
            return StoreLocation.path(inContainer: container.path, on: system)
        }
    #endif

    /// The default place for a process whose environment is `environment`: where `statectl` finds
    /// it off Apple platforms (`STATECTL_DB` included).
    nonisolated package static func defaultPath(environment: [String: String]) -> Result<String, StateStoreError> {
        guard let path = DatabaseLocation.path(option: nil, environment: { environment[$0] }) else {
            return .failure(.invalidInput("no home folder to keep the windows in (HOME and XDG_STATE_HOME unset)"))
        }
        return .success(path)
    }
}

/// Opening a session's file, on its writer.
enum Opening {
    /// What the open took.
    struct Opened: Sendable {
        let store: WindowStore
        let recovery: WindowSession.Recovery
        /// The change log's position and the windows read ahead; `nil` in memory, where there is
        /// no feed.
        let read: WindowStore.SessionAtOpen?
        /// The change feed from that position, paused.
        var feed: FeedLoop?
    }

    /// Opens the file at `path`. With `fallBack`, a file that cannot be used runs the session in
    /// memory (after moving a damaged one aside, with ``WindowSession/Options/recoverUnusableFile``)
    /// instead of failing.
    static func open(
        path: String, session: String, options: WindowSession.Options, fallBack: Bool
    ) -> Result<Opened, StateStoreError> {
        Result { () throws(StateStoreError) in
            do throws(StateStoreError) {
                return try file(path: path, session: session, options: options, recovery: .none)
            } catch {
                if options.recoverUnusableFile, error.isDamagedFile, let movedTo = UnusableFile.moveAside(path) {
                    return try file(
                        path: path, session: session, options: options,
                        recovery: .movedAside(movedTo: movedTo, because: error))
                }
                guard fallBack || options.recoverUnusableFile else { throw error }
                return Opened(
                    store: try WindowStore.inMemory(options: options.store), recovery: .inMemory(because: error),
                    read: nil)
            }
        }
    }

    private static func file(
        path: String, session: String, options: WindowSession.Options, recovery: WindowSession.Recovery
    ) throws(StateStoreError) -> Opened {
        let store = try WindowStore(path: path, options: options.store)
        if options.excludesFromBackup { excludeFromBackup(folderOf: path) }
        return Opened(
            store: store, recovery: recovery,
            read: try store.sessionAtOpen(session: session, budget: FirstFrames.budget))
    }
}

/// Callers waiting for something the main actor will hand them once (the open's end), each until
/// a deadline of its own.
@MainActor
final class Waiters<Value: Sendable> {
    private var waiting: [(id: Int, continuation: CheckedContinuation<Value?, Never>)] = []
    private var next = 0

    /// Waits until ``finishAll(with:)``, or `nil` at `deadline`.
    func wait(until deadline: ContinuousClock.Instant?) async -> Value? {
        next += 1
        let id = next
        return await withCheckedContinuation { continuation in
            waiting.append((id, continuation))
            guard let deadline else { return }
            Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                self?.finish(id, with: nil)
            }
        }
    }

    func finishAll(with value: Value?) {
        let all = waiting
        waiting.removeAll()
        for (_, continuation) in all { continuation.resume(returning: value) }
    }

    private func finish(_ id: Int, with value: Value?) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(returning: value)
    }
}

extension Opening {
    /// Keeps the folder of the store at `path` out of the device's backups (iCloud, a computer's):
    /// a device restored from one has none of the scene sessions the windows belong to, so they
    /// would only wait there for their prune. Best effort; nothing off Apple platforms.
    static func excludeFromBackup(folderOf path: String) {
        #if canImport(Darwin)
            var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            try? folder.setResourceValues(values)
        #endif
    }
}
