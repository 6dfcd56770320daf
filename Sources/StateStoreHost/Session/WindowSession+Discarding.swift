import StateStore

// Windows going for good: those whose scenes the user or the system closed, and old ones. A window
// with a live model is never deleted by a discard or a prune (FirstFrames.claimForDeletion, asked
// inside the delete), and a window no scene recorded as its own is never discarded with a scene.

extension WindowSession {
    /// Deletes windows whose scenes the user closed for good: their queued writes are cancelled,
    /// the delete is ordered after a write in flight, and their models are dropped. A tabbed
    /// window's tabs (ids `ID/TAB`) go with it.
    public func discard(windows ids: some Sequence<String>) async throws {
        let doomed = ids.map(WindowKey.init)
        for key in doomed {
            try WindowState.validate(session: session, window: String(decoding: key.bytes, as: UTF8.self))
        }
        for key in models.keys where doomed.contains(where: { key.belongs(to: $0) }) {
            drop(key)
        }
        _ = try await deleteWindows { id, _ in doomed.contains { WindowKey(id).belongs(to: $0) } }
    }

    /// Deletes this session's windows recorded by a scene session the system no longer keeps:
    /// those of every scene session but `kept`, with their tabs, except those with a live model.
    /// StateStoreSwiftUI tells the session at launch (``SceneEvent/sceneSessionsKept(_:)``), so
    /// an app needs no delegate for discarded scenes. Windows no scene session recorded — opened
    /// by a fixed id, made by an extension or `statectl` — stay; with no scene session kept at
    /// all, nothing is deleted. Returns the deleted ids.
    @discardableResult
    public func discardWindows(ofSceneSessionsNotIn kept: Set<String>) async throws -> [String] {
        guard !kept.isEmpty else { return [] }
        return try await deleteWindows { _, scene in scene.map { !kept.contains($0) } ?? false }
    }

    /// Deletes this session's windows not written for `age`, except those with a live model, and
    /// returns their ids.
    @discardableResult
    public func pruneWindows(olderThan age: Duration) async throws -> [String] {
        let (session, frames) = (session, frames)
        return try await onWriter { store throws(StateStoreError) in
            try store.pruneWindows(session: session, olderThan: age) { !frames.claimForDeletion($0) }
        }
    }

    /// Records that the system's `sceneSession` shows `window`.
    func recordScene(_ sceneSession: String, window: String) {
        guard path != ":memory:", !isInMemoryRecovery else { return }
        let session = session
        writer.enqueue { store in
            guard case .success(let store) = store else { return true }
            do throws(StateStoreError) {
                try store.recordSceneSession(sceneSession, session: session, window: window)
            } catch {
                if error.isInterrupt { return false }
            }
            return true
        }
    }

    /// Deletes, on the writer after what is queued now, the windows recorded by the scene sessions
    /// `doomed` says.
    func discardScenes(_ doomed: @escaping @Sendable (String) -> Bool) {
        guard path != ":memory:", !isInMemoryRecovery else { return }
        onWriter(deletingWindows { _, scene in scene.map(doomed) ?? false }) { _ in }
    }

    /// Deletes the windows of scenes the system discarded long ago (``Options/pruneAfter``), once a
    /// launch, when the app first has no active window (going to the background): off the launch's
    /// way, and after every scene the system restored has asked for its window.
    func pruneOnce() {
        guard let age = options.pruneAfter, path != ":memory:", !isInMemoryRecovery, !isOpening else { return }
        launchPrune = Task { [weak self] in _ = try? await self?.pruneWindows(olderThan: age) }
    }

    /// The model of `key` goes: nothing more is written for it.
    func drop(_ key: WindowKey) {
        guard let model = models.removeValue(forKey: key) else { return }
        model.detach()
        frames.unregister(model.id)
        apply(life.windowGone(model.id))
    }

    // MARK: Private

    /// Deletes, on the writer, the stored windows `doomed` picks by id and recording scene session
    /// (`nil`: none), with their tabs, sparing those with a live model; returns their ids.
    private func deleteWindows(
        _ doomed: @escaping @Sendable (_ id: String, _ sceneSession: String?) -> Bool
    ) async throws(StateStoreError) -> [String] {
        try await onWriter(deletingWindows(doomed))
    }

    /// The writer's work of ``deleteWindows(_:)``.
    private func deletingWindows(
        _ doomed: @escaping @Sendable (_ id: String, _ sceneSession: String?) -> Bool
    ) -> @Sendable (WindowStore) throws(StateStoreError) -> [String] {
        let (session, frames) = (session, frames)
        return { store throws(StateStoreError) in
            // Decided inside the delete's transaction, the write lock had: a model made while the
            // delete waited for another process's lock keeps its window.
            try store.deleteWindows(session: session) { known in
                let holders = known.filter { doomed($0.window, $0.sceneSession) }.map { WindowKey($0.window) }
                return known.map(\.window).filter { id in
                    holders.contains(where: { WindowKey(id).belongs(to: $0) }) && frames.claimForDeletion(id)
                }
            }
        }
    }

    /// Runs `body` on the writer, after what is queued now and inside its activity, and returns
    /// what it did.
    private func onWriter<T: Sendable>(
        _ body: @escaping @Sendable (WindowStore) throws(StateStoreError) -> T
    ) async throws(StateStoreError) -> T {
        let result = await withCheckedContinuation { continuation in
            onWriter(body) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Queues `body` on the writer; `done` gets what it did, on the writer's queue.
    private func onWriter<T: Sendable>(
        _ body: @escaping @Sendable (WindowStore) throws(StateStoreError) -> T,
        done: @escaping @Sendable (Result<T, StateStoreError>) -> Void
    ) {
        writer.enqueue { store in
            let result = store.flatMap { store in Result { () throws(StateStoreError) in try body(store) } }
            if case .failure(let error) = result, error.isInterrupt { return false }
            done(result)
            return true
        }
    }
}
