#if canImport(Darwin)
    import Darwin
    #if canImport(notify)
        import notify
    #endif
#endif

/// The Darwin notification that this package's writers post after every commit to a store, and
/// that its change feeds wait for on Apple platforms (`notify_post` and
/// `notify_register_file_descriptor`, notify(3)). Elsewhere nothing is posted: on Linux a feed's
/// inotify watch sees the commit's write to the WAL.
///
/// The name is derived from the database file's path as SQLite opens it (absolute, links
/// resolved), so that every process that opens the same file by any spelling agrees on it
/// without being told: `statestore.changes.` and 16 hex digits of a 64-bit FNV-1a hash of the
/// path's bytes — short, and free of the path's own characters.
///
/// Darwin notification names are one namespace for the whole system. Apple documents App Group
/// identifiers as the prefixes of names that an app and its extensions share through sandboxed
/// IPC (POSIX semaphores and shared memory, Mach services), so a store in an App Group's
/// container can be given its group (``StateStore/WindowStore/Options/notificationPrefix``): its writers then
/// post `GROUP.statestore.changes.HASH` as well as the plain name, and its feeds register for both.
/// A process that cannot use one of them (a sandbox refusing it) still uses the other, and a
/// writer that posts neither (`sqlite3`, an older build) is still seen by the feed's kqueue watch
/// of the `-wal`: the name decides only how soon a feed hears of a commit, never whether it does.
package struct CommitNotice: Sendable {
    /// The names posted after each commit: the prefixed one first, if any, then the plain one.
    /// Empty where nothing is posted (Linux, a store in memory).
    package let names: [String]

    /// The notice of the store at `path` (as given to the store), with an optional prefix.
    package init(path: String, prefix: String?) {
        #if canImport(Darwin)
            let resolved = DatabasePath.isFile(path) ? ChangeSignal.resolved(path) : nil
            names = resolved.map { Self.names(forResolvedPath: $0, prefix: prefix) } ?? []
        #else
            _ = (path, prefix)
            names = []
        #endif
    }

    /// Tells every feed of the store, in any process, that a commit happened. Best effort: a name
    /// the system refuses (`NOTIFY_STATUS_…`) is skipped, and the feeds' kqueue watch and safety
    /// net still find the commit.
    package func post() {
        #if canImport(Darwin)
            for name in names { _ = notify_post(name) }
        #endif
    }

    /// The names for the database at `path`, already absolute with links resolved: with a
    /// `prefix`, the prefixed name and the plain one; otherwise the plain one.
    ///
    /// Package surface: statectl posts these names inside a Simulator after writing an app's store
    /// there, whose processes do not hear the Mac's.
    package static func names(forResolvedPath path: String, prefix: String?) -> [String] {
        let plain = name(forResolvedPath: path, prefix: nil)
        guard let prefix, !prefix.isEmpty else { return [plain] }
        return [name(forResolvedPath: path, prefix: prefix), plain]
    }

    /// The name for the database at `path`, already absolute with links resolved:
    /// `[PREFIX.]statestore.changes.HHHHHHHHHHHHHHHH`.
    package static func name(forResolvedPath path: String, prefix: String?) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64 bits
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        let name = "statestore.changes." + String(repeating: "0", count: 16 - digits.count) + digits
        guard let prefix, !prefix.isEmpty else { return name }
        return prefix.hasSuffix(".") ? prefix + name : prefix + "." + name
    }
}
