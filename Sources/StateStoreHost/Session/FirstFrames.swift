import Foundation
import StateStore

/// A session's one first-frame policy, and the windows it has live models for.
///
/// **No SQLite on the main actor.** A window's first frame is what the session's open read ahead
/// (in the transaction that fixed where its change feed starts, so nothing committed since is
/// missed): given once, to the model made for it. A window the open did not read — the session's
/// windows came to more than ``budget`` bytes of routes, another process changed it since, or this
/// session deleted it — starts empty and ``WindowModel/isRestoring``, and fills in when a read on
/// the session's writer comes back (a frame later). What the open read and no model took is
/// forgotten once the app no longer needs it.
///
/// **Live windows are never deleted by a discard or a prune.** Models are registered here as they
/// are made, on the main actor; the writer asks ``claimForDeletion(_:)`` inside its delete, for
/// each window, so a model made while a discard waits for the file spares its window, and one made
/// after the delete began reads the window again (deleted) instead of taking a stale first frame.
final class FirstFrames: @unchecked Sendable {
    /// The most bytes of stored routes the open reads ahead: a session of large windows is read
    /// window by window instead of sitting in memory (an extension has little to spare).
    static let budget = 512 * 1024

    private let lock = NSLock()
    private var frames: [WindowKey: WindowStore.RestoredWindow] = [:]
    /// Whether the open read every window of the session: one it did not find has no state.
    private var complete = false
    /// The change log's position the frames were read at.
    private var position: Int64 = 0
    /// Windows whose frame may not be used: changed or deleted since the open, or taken.
    private var stale: Set<WindowKey> = []
    private var live: Set<WindowKey> = []

    /// What the open read ahead (on the writer's queue); windows with a model already are left to
    /// the read that model asked for.
    func opened(_ read: WindowStore.SessionAtOpen) {
        lock.withLock {
            for (id, window) in read.windows {
                let key = WindowKey(id)
                if !live.contains(key) && !stale.contains(key) { frames[key] = window }
            }
            complete = read.isComplete
            position = read.position
        }
    }

    /// A session in memory: it has no windows yet, so every first frame is empty.
    func openedEmpty() {
        lock.withLock { complete = true }
    }

    /// A model of `id` is made: its first frame, once, or `nil` when it must be read.
    func register(_ id: String) -> WindowStore.RestoredWindow? {
        let key = WindowKey(id)
        return lock.withLock {
            live.insert(key)
            guard stale.insert(key).inserted else { return nil }
            if let frame = frames.removeValue(forKey: key) { return frame }
            return complete ? WindowStore.RestoredWindow(position: position) : nil
        }
    }

    /// The model of `id` is gone (discarded): its window may be deleted now.
    func unregister(_ id: String) {
        let key = WindowKey(id)
        _ = lock.withLock { live.remove(key) }
    }

    /// `id` changed since the open (another writer, or a delete): its frame is not used.
    func forget(_ id: String) {
        let key = WindowKey(id)
        lock.withLock {
            stale.insert(key)
            frames[key] = nil
        }
    }

    /// The feed lost its place: no frame is used any more.
    func forgetAll() {
        lock.withLock {
            frames.removeAll()
            complete = false
        }
    }

    /// Asked by the writer before it deletes `id`: `false` when the window, or the window holding
    /// it as a tab, has a live model; else its frame is forgotten, so a model made from now on
    /// reads it again.
    func claimForDeletion(_ id: String) -> Bool {
        let key = WindowKey(id)
        return lock.withLock {
            if live.contains(where: { key.belongs(to: $0) }) { return false }
            stale.insert(key)
            frames[key] = nil
            return true
        }
    }

    /// The ids with a live model now, for a prune that spares them.
    var liveIDs: [String] {
        lock.withLock { live.map { String(decoding: $0.bytes, as: UTF8.self) } }
    }
}
