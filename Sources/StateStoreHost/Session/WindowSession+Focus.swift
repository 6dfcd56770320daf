import StateStore

// The window the user works in, for outside writers that address it: kept on the session at once,
// recorded in the store within a settle of the change, with every focus change made meanwhile.

/// The focus changes not yet recorded, and the wake-up that records them.
final class FocusRecord: @unchecked Sendable {
    /// The focus to record next, with its kind: taken by the write the first of them queued. A
    /// window holding tabs is recorded without a kind (`kindless`), so that a writer addressing a
    /// kind reaches one of its tabs, never the window behind them.
    let pending = NSLockedValue<[(window: String, kind: String?, kindless: Bool)]>([])
    /// The wake-up that records the pending focus.
    @MainActor var timer: Task<Void, Never>?
}

extension WindowSession {
    /// Makes `model`'s window the focused one — the tab it shows, for a window of tabs — and
    /// records it for outside writers, with its kind (a tab's own): no revision of any window. The
    /// record is written within ``Options/settle`` of the change (sooner at a flush, or when no
    /// window is active any more), with every focus change made meanwhile, in order: switching
    /// through windows writes once, and a launch writes nothing. A tab's window is recorded after
    /// the window holding it, so that both are known to be in use (the holder keeps the selected
    /// tab) and the tab is the latest; the holder is recorded with no kind.
    func focus(_ model: any HostedWindow) {
        let target = model.focusTarget
        if let focusedWindow, focusedWindow.isSameID(as: target.window) { return }
        focusedWindow = target.window
        guard path != ":memory:" else { return }
        let holder = model.holderID ?? (target.window.isSameID(as: model.id) ? nil : model.id)
        let entries =
            (holder.map { [(window: $0, kind: String?.none, kindless: true)] } ?? [])
            + [(window: target.window, kind: target.kind, kindless: false)]
        let wasPending = focus.pending.withLock { pending in
            defer {
                pending.removeAll { recorded in entries.contains { $0.window.isSameID(as: recorded.window) } }
                pending += entries
            }
            return !pending.isEmpty
        }
        guard !wasPending else { return }  // a record is on its way, and takes these too
        guard options.settle > .zero else { return recordFocus() }
        let (deadline, time) = (time.now() + options.settle, time)
        focus.timer = Task { [weak self] in
            do { try await time.sleep(deadline) } catch { return }
            self?.recordFocus()
        }
    }

    /// Writes the focus that piled up since the last record, now: when its time came, at a flush,
    /// and when no window is active any more (the app going to the background).
    func recordFocus() {
        focus.timer?.cancel()
        focus.timer = nil
        let (session, pending) = (session, focus.pending)
        guard pending.withLock({ !$0.isEmpty }) else { return }
        writer.enqueue { store in
            guard case .success(let store) = store else { return true }
            let entries = pending.withLock { pending in
                defer { pending.removeAll() }
                return pending
            }
            do throws(StateStoreError) {
                for (window, kind, kindless) in entries {
                    try store.focus(session: session, window: window, kind: kind)
                    if kindless { try store.setKind(nil, session: session, window: window) }
                }
            } catch {
                // One the system took the time back from is recorded when the writer resumes;
                // otherwise best effort: the next focus change records its own.
                if error.isInterrupt {
                    pending.withLock { $0 = entries + $0 }
                    return false
                }
            }
            return true
        }
    }
}
