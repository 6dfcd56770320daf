import Foundation
import StateStore

// The session between its models and the store: their writes and reads on the writer, what the
// change feed brings them, and what they report.

extension WindowSession {
    /// A distinct first number for a new model's writes.
    func nextTokenBase() -> UInt64 {
        tokenBases += 1
        return tokenBases << 32
    }

    /// Writes `request` for `model` if the window is still at the revision it expects, registering
    /// the write before it commits; the outcome goes back to the model.
    func write(_ request: WriteRequest, for model: any HostedWindow) {
        let (session, window, writer, duringWrite) = (session, model.id, writer, options.duringWrite)
        writer.enqueue { [weak self] store in
            let outcome: WriteOutcome
            switch store {
            case .failure(let error): outcome = .failed(error)
            case .success(let store):
                outcome = Self.write(
                    request, session: session, window: window, in: store, writer.ownWrites, duringWrite)
                if case .failed(let error) = outcome, error.isInterrupt { return false }
            }
            // Tokens are the session's own: a model made again for the window ignores this one.
            onMainActor { self?.models[WindowKey(window)]?.receive(.writeEnded(token: request.token, outcome)) }
            return true
        }
    }

    /// Reads window `id` for its model (its first frame, not read ahead).
    func read(_ id: String) {
        read(id) { .restored($0) }
    }

    /// Reads window `id` again after the feed lost its place.
    func reload(_ id: String) {
        read(id) { .reloaded($0) }
    }

    /// A model's write ended, or its state changed: flushes waiting on it may be done.
    func modelProgressed() {
        flushes.progressed(self)
    }

    /// Whether a flush is waiting now.
    package var isFlushing: Bool { flushes.isWaiting }

    /// A model reported a problem: storage trouble becomes the session's ``storageIssue``; the
    /// app's ``Options/errorHandler`` and, on Apple platforms, the unified log hear of every one.
    func reported(_ problem: WindowError, in model: any HostedWindow) {
        if case .store(let error) = problem { storageIssue = StorageIssue(error) }
        Log.window(model.id, problem)
        options.errorHandler?(model.id, problem)
    }

    /// A write committed: storage trouble a write reported is over (the change feed's is not: it
    /// ends when the feed delivers again).
    func storageRecovered() {
        if let issue = storageIssue, issue.clearsOnCommit, issue.error != lastFeedError { storageIssue = nil }
    }

    /// A window's scene became active or inactive: the session observes only while one is, and
    /// the window that became active is the focused one.
    func windowActivityChanged(_ model: any HostedWindow, isActive: Bool) {
        if isActive && model.holderID == nil { focus(model) }
        apply(life.windowActivity(model.id, isActive: isActive))
    }

    /// The user changed a window: it is the one they work in.
    func windowEdited(_ model: any HostedWindow) {
        focus(model)
    }

    /// The change feed of the opened `store` from `position`, made paused (on the writer, in the
    /// open): what it finds goes to `session` on the main actor.
    nonisolated static func feedLoop(
        of store: WindowStore, session id: String, after position: Int64, _ ownWrites: OwnWrites,
        _ session: WindowSession?
    ) -> FeedLoop {
        let loop = FeedLoop(
            makeFeed: {
                Result { () throws(StateStoreError) in try store.changeFeedOfOpenedStore(session: id, after: position) }
            },
            ownWrites: ownWrites,
            deliver: { [weak session] items in onMainActor { session?.deliver(items) } },
            failed: { [weak session] error in onMainActor { session?.feedFailed(error) } })
        loop.pause()
        return loop
    }

    /// What the session's feed has done, and whether its wait is parked (tests).
    package var observingActivity: (feed: ChangeFeed.Activity, parked: Bool)? {
        feedLoop?.activity
    }

    /// Blocks until the feed's thread is parked, at most `timeout` (tests).
    package func waitUntilObservingIsParked(timeout: Duration = .seconds(10)) -> Bool {
        feedLoop?.waitUntilParked(timeout: timeout) ?? false
    }

    // MARK: Private

    private func read(_ id: String, as news: @escaping @Sendable (WindowStore.RestoredWindow) -> StoreNews) {
        let session = session
        writer.enqueue { [weak self] store in
            let result = store.flatMap { store in
                Result { () throws(StateStoreError) in try store.restoredWindow(session: session, window: id) }
            }
            if case .failure(let error) = result, error.isInterrupt { return false }
            onMainActor {
                let model = self?.models[WindowKey(id)]
                switch result {
                case .success(let restored): model?.receive(news(restored))
                case .failure(let error): model?.receive(.unreadable(error))
                }
            }
            return true
        }
    }

    func deliver(_ items: [FeedItem]) {
        lastFeedError = nil
        for item in items {
            switch item {
            case .own(let token, let stored):
                models[WindowKey(stored.window)]?.receive(.ownWrite(token: token, stored: stored))
            case .outside(let window, let state, let sequence):
                // A window with no model yet is read when asked for: its read-ahead state is old.
                frames.forget(window)
                models[WindowKey(window)]?.receive(.outside(state, sequence: sequence))
            case .gap:
                frames.forgetAll()
                for model in models.values { reload(model.id) }
            case .unreadable(let window, let problem):
                frames.forget(window)
                models[WindowKey(window)]?.receive(.unreadableChange(problem))
            }
        }
    }

    func feedFailed(_ error: StateStoreError) {
        // A failing feed fails on every poll: each model hears of it once (one made later, when
        // it is made), and so does the user.
        guard error != lastFeedError else { return }
        lastFeedError = error
        storageIssue = StorageIssue(error)
        for model in models.values { model.receive(.storageFailed(error)) }
    }

    /// One write, on the writer: the window's state if it is still at the expected revision.
    nonisolated private static func write(
        _ request: WriteRequest, session: String, window: String, in store: WindowStore, _ ownWrites: OwnWrites,
        _ duringWrite: (@Sendable () -> Void)?
    ) -> WriteOutcome {
        do {
            let stored = try store.update(
                session: session, window: window, expectedRevision: request.expectedRevision
            ) { state in
                state.takeContent(of: request.target)
                ownWrites.register(request.token, window: window, revision: state.revision + 1, content: state)
                duringWrite?()
            }
            return .committed(stored)
        } catch {
            ownWrites.unregister(request.token, window: window)
            // The closure above throws nothing of its own: every failure is the store's.
            let error = error as? StateStoreError ?? .invalidInput(String(describing: error))
            guard case .conflict = error else { return .failed(error) }
            do throws(StateStoreError) {
                return .conflict(current: try store.window(session: session, window: window))
            } catch {
                return .failed(error)
            }
        }
    }
}

extension StateStoreError {
    /// Whether the transaction was interrupted (the system took the background time back): the
    /// work runs again once the writer resumes.
    var isInterrupt: Bool {
        if case .busy(let failure) = self { return failure.code == .interrupt }
        return false
    }
}
