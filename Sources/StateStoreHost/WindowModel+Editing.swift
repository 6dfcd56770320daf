import StateStore

// How a change the user made becomes edits: applied to what the model shows at once, kept in order
// until written, and a size-class change committed once it has settled.

extension WindowModel {
    /// Makes a change the user asked for on what they see, and records it as the edits it is.
    ///
    /// A policy belongs to its presentation: a change that presents another item gives it
    /// `policy` (the session's default when `nil`), and a dismissal leaves the default for the
    /// next one, so no presentation inherits another's.
    func userEdit(presenting policy: SizeChangePolicy? = nil, _ change: (inout WindowState) throws -> Void) {
        let before = presentationSnapshot
        let (shown, hidden) = visible
        var changed = shown
        do {
            try change(&changed)
        } catch let error as StateStoreError {
            report(.invalidEdit(error))
            return
        } catch let error as EncodingFailure {
            report(.unencodableRoute(reason: error.reason))
            return
        } catch {
            report(.unencodableRoute(reason: "\(error)"))
            return
        }
        if changed.item != shown.item {
            changed.policy = (changed.item == nil ? nil : policy) ?? options.defaultPolicy
        } else if let policy, changed.item != nil {
            changed.policy = policy
        }
        var made = shown.edits(to: changed)
        guard !made.isEmpty else { return }  // an equal write records nothing
        if let hidden { made.insert(.replaceUndecodable(hidden), at: 0) }
        if let item = changed.item, item != shown.item { core.gate.itemPresented(at: time.now()) }
        record(made)
        scheduleSettle()
        refreshPresentation(since: before)
        host?.windowEdited(self)
    }

    /// Applies and keeps edits, and sends them to the writer.
    func record(_ made: [WindowEdit]) {
        var next = core.state
        for edit in made {
            do {
                try edit.apply(to: &next)
            } catch {
                report(.invalidEdit(error))
                return
            }
        }
        core.state = next
        for edit in made {
            lastEditNumber += 1
            edits.append((lastEditNumber, edit))
        }
        generation += 1
        failedGeneration = nil
        writeIfIdle()
    }

    func commit(_ settled: SizeClassGate.Settled) {
        var next = core.state
        let edit = WindowEdit.sizeClass(settled.sizeClass, changesMode: settled.changesMode)
        try? edit.apply(to: &next)
        guard next != core.state else { return }
        record([edit])
    }

    /// Makes the wake-up match the gate's deadline: kept when it is the same, replaced when it
    /// moved, cancelled when nothing is pending.
    func scheduleSettle() {
        let deadline = core.gate.deadline
        if settleTimer?.deadline == deadline { return }
        cancelSettle()
        guard let deadline else { return }
        let time = time
        let task = Task { [weak self] in
            do { try await time.sleep(deadline) } catch { return }
            self?.settleTimerFired(deadline)
        }
        settleTimer = (deadline, task)
    }

    private func settleTimerFired(_ deadline: Duration) {
        if settleTimer?.deadline == deadline { settleTimer = nil }
        settleIfDue()
    }

    func cancelSettle() {
        settleTimer?.task.cancel()
        settleTimer = nil
    }

    /// Commits a size-class change whose settle time has come.
    func settleIfDue() {
        let before = presentationSnapshot
        if let settled = core.gate.advance(to: time.now()) { commit(settled) }
        scheduleSettle()  // a timer that fired early is armed again
        refreshPresentation(since: before)
    }
}
