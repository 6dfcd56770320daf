import StateStore

// Writing a model's edits: one write in flight at a time, what piles up meanwhile coalesced into
// the next, each with the revision it is based on; and the rebase, which takes another writer's
// state and makes the local edits again on top of it.

extension WindowModel {
    func writeIfIdle() {
        guard let host, inFlight == nil, !core.isRestoring, let last = edits.last?.number else { return }
        do {
            try core.state.validate()
            overLimits = false
        } catch {
            overLimits = true
            report(.overLimits(error))
            host.modelProgressed()
            return
        }
        let token = host.makeToken()
        inFlight = (token, last, generation)
        let request = WriteRequest(
            token: token, window: id, expectedRevision: base.revision, target: core.state)
        host.write(request) { [weak self] outcome in self?.writeEnded(token, outcome) }
    }

    private func writeEnded(_ token: UInt64, _ outcome: WriteOutcome) {
        guard let flight = inFlight, flight.token == token else { return }  // the feed reported it first
        inFlight = nil
        let before = presentationSnapshot
        switch outcome {
        case .committed(let stored):
            committed(stored, through: flight.lastEdit, generation: flight.generation)
        case .conflict(let current):
            rebase(on: current ?? emptyWindow)
            writeIfIdle()
        case .postponed:
            // The system would not let the app hold a lock now (it may be suspended): the change
            // stays queued and is written when a window is active again, or at the next flush.
            postponed = true
        case .failed(let error):
            report(.store(error))
            if case .busy = error {
                retryingBusy = true
                if host?.isFlushing == true { writeIfIdle() }
            } else {
                failedGeneration = flight.generation
            }
        }
        refreshPresentation(since: before)
        host?.modelProgressed()
    }

    func committed(_ stored: WindowState, through lastEdit: Int, generation written: Int) {
        edits.removeAll { $0.number <= lastEdit }
        if stored.revision > base.revision || base.revision == 0 { base = stored }
        core.state = edits.map(\.edit).replayed(on: base).state
        core.revision = base.revision
        committedGeneration = max(committedGeneration, written)
        retryingBusy = false
        postponed = false
        if case .store = core.lastError { core.lastError = nil }
        if case .overLimits = core.lastError { core.lastError = nil }
        host?.storageRecovered()
        writeIfIdle()
    }

    /// Takes `newBase` as stored and makes the local edits again on top of it; those that no
    /// longer apply are dropped and named.
    func rebase(on newBase: WindowState) {
        base = newBase
        core.revision = newBase.revision
        let replay = edits.map(\.edit).replayed(on: newBase)
        if !replay.dropped.isEmpty {
            report(.editsDropped(replay.dropped.map { edits[$0].edit.description }))
            let dropped = Set(replay.dropped)
            edits = edits.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        }
        core.state = replay.state
    }

    var emptyWindow: WindowState {
        WindowState(session: sessionID, window: id, sizeClass: core.gate.layoutClass)
    }

    /// Writes what was held back (a failed or postponed write, busy): a flush, or a window of the
    /// session becoming active again, asks.
    func retryHeldWrites() {
        if inFlight == nil && (failedGeneration != nil || retryingBusy || postponed) {
            failedGeneration = nil
            postponed = false
            writeIfIdle()
        }
    }
}
