import Foundation
import StateStore

/// A window id as the store compares it: by its bytes. Swift's `==` takes a composed and a
/// decomposed "é" for one id, where the store keeps two windows, so a session keys its windows,
/// their first frames and its focus by these.
struct WindowKey: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ id: String) {
        bytes = Array(id.utf8)
    }

    /// Whether this key is `holder`'s or one of its tabs' (`holder/TAB`).
    func belongs(to holder: WindowKey) -> Bool {
        bytes == holder.bytes
            || bytes.count > holder.bytes.count && bytes.starts(with: holder.bytes)
                && bytes[holder.bytes.count] == UInt8(ascii: "/")
    }
}

extension String {
    /// Whether two ids are the same id to the store: the same bytes.
    func isSameID(as other: String) -> Bool {
        utf8.elementsEqual(other.utf8)
    }
}

/// The writes a session registers before they commit, so that the change feed, which may read a
/// commit before the writer's call returns, never takes one for another writer's.
final class OwnWrites: @unchecked Sendable {
    private struct Entry {
        let token: UInt64
        let revision: Int
        let content: WindowState
    }

    private let lock = NSLock()
    private var entries: [WindowKey: [Entry]] = [:]

    func register(_ token: UInt64, window: String, revision: Int, content: WindowState) {
        lock.withLock {
            entries[WindowKey(window), default: []].append(Entry(token: token, revision: revision, content: content))
        }
    }

    func unregister(_ token: UInt64, window: String) {
        lock.withLock { entries[WindowKey(window)]?.removeAll { $0.token == token } }
    }

    /// The token of the session's own write that committed `state`, if it is one; entries of
    /// older revisions of the window are dropped (the feed has passed them).
    func claim(_ state: WindowState) -> UInt64? {
        lock.withLock {
            let key = WindowKey(state.window)
            guard var list = entries[key] else { return nil }
            let match = list.first { $0.revision == state.revision && $0.content.hasSameContent(as: state) }
            list.removeAll { $0.revision <= state.revision }
            entries[key] = list.isEmpty ? nil : list
            return match?.token
        }
    }
}

extension WindowState {
    /// Takes `other`'s content, keeping this state's ids and stamps.
    mutating func takeContent(of other: WindowState) {
        content = other.content
    }
}
