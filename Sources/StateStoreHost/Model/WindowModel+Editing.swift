import StateStore

// A change the user made: computed once as the edits it is, on what the user sees, made at once
// on the model, and handed to the session to write; and a size-class change, committed once it
// has settled.

extension WindowModel {
    /// Makes the change `edits` computes on what the user sees, and writes it.
    ///
    /// A policy belongs to its presentation: a change that presents another item gives it
    /// `policy` (the session's default when `nil`), and a dismissal leaves the default for the
    /// next one, so no presentation inherits another's. A change that shows nothing new records
    /// nothing. A change the model makes itself (`focuses` false) does not make the window the
    /// focused one.
    func userEdit(
        presenting policy: SizeChangePolicy? = nil, focuses: Bool = true, _ edits: (WindowState) throws -> [WindowEdit]
    ) {
        let before = presentationSnapshot
        let (shown, hidden) = visible
        var made: [WindowEdit]
        var changed = shown
        do {
            made = try edits(shown)
            for edit in made { try changed.apply(edit) }
        } catch let error as StateStoreError {
            return report(.invalidEdit(error))
        } catch let error as EncodingFailure {
            return report(.unencodableRoute(reason: error.reason))
        } catch {
            return report(.unencodableRoute(reason: "\(error)"))
        }
        let presentationPolicy: SizeChangePolicy? =
            if changed.item != shown.item {
                (changed.item == nil ? nil : policy) ?? link.options.defaultPolicy
            } else if changed.item != nil { policy } else { nil }
        if let presentationPolicy, presentationPolicy != changed.policy {
            made.append(.setPolicy(presentationPolicy))
            changed.policy = presentationPolicy
        }
        guard !changed.hasSameContent(as: shown) else { return }
        // What the user sees is the model's state itself unless a route is cut off or a `dismiss`
        // item hidden: then the edits are made again on the whole state.
        let itemHidden = shown.item == nil && core.state.item != nil
        if let hidden { made.insert(.removeFrom(hidden), at: 0) }
        if itemHidden && hidden == nil {
            // The item is hidden while a change of mode settles: what the user edited is the path.
            made = made.map(\.onThePath)
        }
        if let item = changed.item, item != shown.item { core.gate.itemPresented(at: link.time.now()) }
        if hidden == nil && !itemHidden {
            sync.record(made, giving: changed)
            core.state = changed
            writeIfDue()
        } else {
            record(made)
        }
        scheduleSettle()
        refreshPresentation(since: before)
        if focuses { link.session?.windowEdited(self) }
    }

    /// Keeps `edits` to write, shows what they make, and sends the write when one is due.
    func record(_ edits: [WindowEdit]) {
        do {
            try sync.record(edits)
        } catch {
            return report(.invalidEdit(error))
        }
        core.state = sync.local
        writeIfDue()
    }

    /// Sends the write that is due, if any, or says why none can be.
    func writeIfDue() {
        guard let session = link.session else { return }
        let wasOverLimits = sync.isOverLimits
        switch sync.nextWrite() {
        case .none: break
        case .write(let request): session.write(request, for: self)
        case .overLimits(let error):
            report(.overLimits(error))
            // The user hears of it once, until the window fits again.
            if !wasOverLimits { session.storageIssue = StorageIssue(window: id, overLimits: error) }
            session.modelProgressed()
        }
    }

    /// Commits a size-class change that has settled: written as an edit of its own.
    func commit(_ settled: SizeClassGate.Settled) {
        let edit = WindowEdit.setSizeClass(settled.sizeClass, changesMode: settled.changesMode)
        var next = core.state
        try? next.apply(edit)
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
        let time = link.time
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
        if let settled = core.gate.advance(to: link.time.now()) { commit(settled) }
        scheduleSettle()  // a timer that fired early is armed again
        refreshPresentation(since: before)
    }

    /// The window as it stands once deleted: empty, laid out for the class it has now.
    var emptyWindow: WindowState {
        WindowState(session: link.sessionID, window: id, sizeClass: core.gate.layoutClass)
    }
}

extension WindowEdit {
    /// A chain edit as the edit of the path it is where no item is shown.
    fileprivate var onThePath: WindowEdit {
        guard case .stack(var edit) = self, edit.part == .chain else { return self }
        edit.part = .path
        return .stack(edit)
    }
}
