import StateStore

/// The flushes waiting on a session (``WindowSession/flush(timeout:)``): each waits until the
/// changes every model had made when it was called are committed (or failed), and until the
/// writer has passed everything queued before it — the focus record among it — so that a flush
/// that returns `true` means written, all of it.
@MainActor
final class Flushes {
    private struct Waiter {
        let id: Int
        let targets: [(key: WindowKey, generation: Int)]
        var writerPassed = false
        let continuation: CheckedContinuation<Bool, Never>
    }

    private var waiting: [Waiter] = []
    private var next = 0

    /// Whether a flush is waiting now.
    var isWaiting: Bool { !waiting.isEmpty }

    /// Waits until `session`'s changes so far are written (`true`), one failed, or `deadline`.
    func wait(for session: WindowSession, until deadline: ContinuousClock.Instant) async -> Bool {
        next += 1
        let id = next
        let targets = session.models.map { (key: $0.key, generation: $0.value.generation) }
        session.writer.enqueue { [weak self, weak session] _ in
            onMainActor {
                guard let self, let index = self.waiting.firstIndex(where: { $0.id == id }) else { return }
                self.waiting[index].writerPassed = true
                if let session { self.progressed(session) }
            }
            return true
        }
        return await withCheckedContinuation { continuation in
            waiting.append(Waiter(id: id, targets: targets, continuation: continuation))
            Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                self?.finish(id, with: false)
            }
        }
    }

    /// A model's write ended, or its state changed: the flushes it was keeping may be done.
    func progressed(_ session: WindowSession) {
        for waiter in waiting where waiter.writerPassed {
            if let outcome = Self.outcome(waiter.targets, in: session) { finish(waiter.id, with: outcome) }
        }
    }

    /// Ends every flush waiting now with `outcome`.
    func finishAll(with outcome: Bool) {
        let all = waiting
        waiting.removeAll()
        for waiter in all { waiter.continuation.resume(returning: outcome) }
    }

    private func finish(_ id: Int, with outcome: Bool) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(returning: outcome)
    }

    /// `true` when every target is committed, `false` when one failed, `nil` while one is pending.
    private static func outcome(_ targets: [(key: WindowKey, generation: Int)], in session: WindowSession) -> Bool? {
        var allCommitted = true
        for (key, generation) in targets {
            guard let model = session.models[key] else { continue }  // discarded: its changes went with it
            switch model.flushState(for: generation) {
            case .committed: continue
            case .failed: allCommitted = false
            case .pending: return nil
            }
        }
        return allCommitted
    }
}
