import StateStore

// The session's side of a model, through one seam: the session hands it what the store said — a
// read, a write's end, its own write reported by the feed, another writer's state — and the model
// hands the session write requests, its progress and its errors.

/// What the session asks of each of its models, whatever their route type.
@MainActor
protocol HostedWindow: AnyObject {
    var id: String { get }
    var kind: String? { get }
    var routeTypeName: String { get }
    /// Whether the scene showing the window is active, as the environment last said (`nil`: it
    /// has not said).
    var isActive: Bool? { get }
    /// The window an outside writer addressing the focused window reaches (the tab shown), with
    /// its kind.
    var focusTarget: (window: String, kind: String?) { get }
    /// The id of the window holding this tab, for a tab.
    var holderID: String? { get }
    /// Counts the model's local changes; a flush waits for the count it saw.
    var generation: Int { get }
    func flushState(for generation: Int) -> FlushState
    /// Commits a due size-class change and lifts what holds writes back: a flush asks.
    func prepareForFlush()
    /// Lifts what holds writes back: a window becoming active asks.
    func retryHeldWrites()
    /// Sends what is pending at once, behind a write in flight: the process is ending.
    func sendFinalWrite()
    /// What the store said of the window.
    func receive(_ news: StoreNews)
    /// The window was discarded: nothing more is written for it.
    func detach()
}

/// What the store said of a window, as the session hands it to the window's model.
enum StoreNews: Sendable {
    /// The window as a read found it.
    case restored(WindowStore.RestoredWindow)
    /// A read failed: the window starts empty, and the model reports why.
    case unreadable(StateStoreError)
    /// The model's write `token` ended.
    case writeEnded(token: UInt64, WriteOutcome)
    /// The feed reported the model's write `token` committed.
    case ownWrite(token: UInt64, stored: WindowState)
    /// Another writer's state (`nil`: deleted), logged at `sequence`.
    case outside(WindowState?, sequence: Int64)
    /// A read after the feed lost its place.
    case reloaded(WindowStore.RestoredWindow)
    /// Storage trouble the feed met.
    case storageFailed(StateStoreError)
    /// A logged change that could not be read.
    case unreadableChange(String)
}

extension WindowModel: HostedWindow {
    var routeTypeName: String { String(reflecting: R.self) }

    var isActive: Bool? { shown.environment?.isActive }

    var generation: Int { sync.generation }

    func flushState(for generation: Int) -> FlushState {
        sync.flushState(for: generation)
    }

    func prepareForFlush() {
        settleIfDue()
        retryHeldWrites()
    }

    func retryHeldWrites() {
        if sync.retryHeld() { writeIfDue() }
    }

    func sendFinalWrite() {
        guard let session = link.session, let request = sync.finalWrite() else { return }
        session.write(request, for: self)
    }

    func receive(_ news: StoreNews) {
        let before = presentationSnapshot
        switch news {
        case .restored(let restored):
            self.restored(restored)
        case .unreadable(let error):
            report(.store(error))
            self.restored(WindowStore.RestoredWindow(position: sync.knownThrough))
        case .writeEnded(let token, let outcome):
            guard let rebased = sync.writeEnded(token, outcome, empty: emptyWindow) else { return }
            if case .failed(let error) = outcome { report(.store(error)) }
            if case .committed = outcome { committed() }
            took(rebased)
            // Busy is tried again at once while a flush waits, until its deadline.
            if case .failed(.busy) = outcome, link.session?.isFlushing == true, sync.retryHeld() { writeIfDue() }
            link.session?.modelProgressed()
        case .ownWrite(let token, let stored):
            guard sync.ownWriteCommitted(token, stored: stored) else { return }
            committed()
            took(WindowSync.Rebased())
            link.session?.modelProgressed()
        case .outside(let state, let sequence):
            let wasRestoring = sync.isRestoring
            guard let rebased = sync.adopt(outside: state, at: sequence, empty: emptyWindow) else { return }
            if wasRestoring { return restoredFromSync(rebased, before: before) }
            cancelSettle()
            core.gate.adoptOutsideState()
            took(rebased)
        case .reloaded(let restored):
            guard let rebased = sync.reloaded(restored.state, through: restored.position, empty: emptyWindow)
            else { return }
            cancelSettle()
            core.gate.adoptOutsideState()
            took(rebased)
        case .storageFailed(let error):
            report(.store(error))
            return
        case .unreadableChange(let problem):
            report(.unreadableChange(problem))
            return
        }
        refreshPresentation(since: before)
        if case .outside = news { dropRefusedRoutes() }
        if case .reloaded = news { dropRefusedRoutes() }
    }

    func detach() {
        link.session = nil
        cancelSettle()
        sync.discard()
    }

    /// Restoring never writes and never applies the policy: the model lays out for the saved class
    /// until the environment reports one.
    func restored(_ restored: WindowStore.RestoredWindow) {
        let before = presentationSnapshot
        guard let rebased = sync.restored(restored.state, through: restored.position, empty: emptyWindow) else {
            return
        }
        restoredFromSync(rebased, before: before)
    }

    /// Keeps `problem` in ``lastError``; the session hears of it too (storage trouble becomes its
    /// ``WindowSession/storageIssue``, and the app's error hook and the system log hear of all).
    func report(_ problem: WindowError) {
        core.lastError = problem
        link.session?.reported(problem, in: self)
    }

    // MARK: Private

    private func restoredFromSync(_ rebased: WindowSync.Rebased, before: PresentationSnapshot) {
        core.isRestoring = false
        core.gate = SizeClassGate(
            committed: sync.base.revision == 0 ? .unspecified : sync.base.sizeClass, settle: link.options.settle,
            layoutFollows: link.options.layoutFollows)
        took(rebased)
        if let environment = shown.environment,
            let settled = core.gate.report(environment.sizeClass, isActive: environment.isActive, at: link.time.now())
        {
            commit(settled)
        }
        scheduleSettle()
        refreshPresentation(since: before)
        writeIfDue()
        dropRefusedRoutes()
    }

    /// Shows what the sync holds now, names the edits a new base dropped, and sends the next write.
    private func took(_ rebased: WindowSync.Rebased) {
        core.state = sync.local
        if core.revision != sync.base.revision { core.revision = sync.base.revision }
        if !rebased.dropped.isEmpty { report(.editsDropped(rebased.dropped)) }
        writeIfDue()
    }

    /// A write committed: storage trouble it met is over — not the change feed's, which a write
    /// says nothing of.
    private func committed() {
        switch core.lastError {
        case .store(let error)? where error != link.session?.lastFeedError: core.lastError = nil
        case .overLimits?: core.lastError = nil
        default: break
        }
        link.session?.storageRecovered()
    }
}
