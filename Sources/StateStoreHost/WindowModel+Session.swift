import StateStore

// The session's side of a model: restoring it, its own writes coming back through the change
// feed, other writers' changes adopted, reloads after a gap, and what a flush waits for.

/// What the session asks of each of its models, whatever their route type.
@MainActor
protocol HostedWindow: AnyObject {
    var id: String { get }
    var routeTypeName: String { get }
    /// Counts the model's local changes; a flush waits for the count it saw.
    var generation: Int { get }
    /// Whether the scene showing the window is active, as the environment last said (`nil`: it
    /// has not said).
    var isActive: Bool? { get }
    var kind: String? { get }
    /// The window an outside writer addressing the focused window reaches (the tab shown).
    var focusTarget: String { get }
    var isTab: Bool { get }
    /// The id of the window holding this tab.
    var holderID: String? { get }
    func restore()
    func flushState(for generation: Int) -> FlushState
    func prepareForFlush()
    func retryHeldWrites()
    func ownWriteCommitted(token: UInt64, stored: WindowState)
    func adopt(outside state: WindowState?)
    func reload()
    func report(_ problem: WindowError)
    func detach()
}

extension WindowModel: HostedWindow {
    var routeTypeName: String { String(reflecting: R.self) }

    var isActive: Bool? { environment?.isActive }

    /// The first frame: the window as the session's open read it ahead, with no SQLite on the main
    /// actor; otherwise (a window changed since, a large session) read with a short busy timeout;
    /// if the lock cannot be had, or the session is still opening its file, the model shows an
    /// empty window and fills in when a full read succeeds.
    func restore() {
        guard let host else { return }
        if let frame = host.takeFirstFrame(id) {
            restored(frame)
            return
        }
        guard let firstFrame = host.firstFrame else {
            readInBackground()
            return
        }
        do throws(StateStoreError) {
            restored(
                try firstFrame.restoredWindow(
                    session: sessionID, window: id, quickly: WindowSession.firstFrameBusyTimeoutMilliseconds))
        } catch .busy {
            readInBackground()
        } catch {
            report(.store(error))
        }
    }

    /// Restores from a read on the session's queue, after the file is open.
    private func readInBackground() {
        guard let host else { return }
        core.isRestoring = true
        host.read(id) { [weak self] result in
            guard let self, self.core.isRestoring else { return }
            switch result {
            case .success(let stored): self.restored(stored)
            case .failure(let error):
                self.report(.store(error))
                self.restored(WindowStore.RestoredWindow())
            }
        }
    }

    /// Restoring never writes and never applies the policy: the model lays out for the saved class
    /// until the environment reports one.
    private func restored(_ restored: WindowStore.RestoredWindow) {
        let stored = restored.state
        let before = presentationSnapshot
        core.isRestoring = false
        if core.selectedTab == nil { core.selectedTab = restored.selectedTab }
        core.gate = SizeClassGate(
            committed: stored?.sizeClass ?? .unspecified, settle: options.settle, layoutFollows: options.layoutFollows)
        rebase(on: stored ?? emptyWindow)
        if let environment,
            let settled = core.gate.report(environment.sizeClass, isActive: environment.isActive, at: time.now())
        {
            commit(settled)
        }
        scheduleSettle()
        refreshPresentation(since: before)
        writeIfIdle()
    }

    func flushState(for generation: Int) -> FlushState {
        if committedGeneration >= generation || edits.isEmpty && inFlight == nil { return .committed }
        if overLimits || postponed && inFlight == nil { return .failed }
        if let failed = failedGeneration, failed >= generation, inFlight == nil { return .failed }
        return .pending
    }

    func prepareForFlush() {
        settleIfDue()
        retryHeldWrites()
    }

    func ownWriteCommitted(token: UInt64, stored: WindowState) {
        guard let flight = inFlight, flight.token == token else { return }
        inFlight = nil
        let before = presentationSnapshot
        committed(stored, through: flight.lastEdit, generation: flight.generation)
        refreshPresentation(since: before)
        host?.modelProgressed()
    }

    /// Another writer's state (`nil`: the window was deleted) is taken, a pending settle is
    /// cancelled, and the local edits not yet written are made again on top of it.
    func adopt(outside outsideState: WindowState?) {
        if let outsideState, outsideState.revision <= base.revision, !core.isRestoring { return }  // already known
        if outsideState == nil && base.revision == 0 && edits.isEmpty { return }
        let before = presentationSnapshot
        if core.isRestoring {
            restored(WindowStore.RestoredWindow(state: outsideState))
            return
        }
        cancelSettle()
        core.gate.adoptOutsideState()
        rebase(on: outsideState ?? emptyWindow)
        refreshPresentation(since: before)
        writeIfIdle()
    }

    func reload() {
        guard let host else { return }
        host.read(id) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let restored):
                let stored = restored.state
                if stored == nil || stored?.revision != self.base.revision { self.adopt(outside: stored) }
            case .failure(let error):
                self.report(.store(error))
            }
        }
    }

    /// Keeps `problem` in ``lastError``; storage trouble also goes to the session's
    /// ``WindowSession/storageIssue``, and a programmer's mistake is logged once in a debug build.
    func report(_ problem: WindowError) {
        core.lastError = problem
        if let host {
            host.reported(problem)
        } else {
            WindowError.logMistake(problem)
        }
    }

    func detach() {
        host = nil
        cancelSettle()
        edits.removeAll()
        inFlight = nil
    }
}
