import StateStoreSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What ``StateStore/backup(to:)`` wrote.
public struct BackupReport: Hashable, Sendable {
    /// The copy's path, as given.
    public var path: String
    /// The number of windows in the copy.
    public var windows: Int
    /// The copy's size in bytes.
    public var bytes: Int
}

extension StateStore {
    /// Writes a consistent copy of the whole store to a new file at `target`: one snapshot, taken
    /// while other connections go on writing (SQLite's `VACUUM INTO`), whole or not at all.
    ///
    /// Never overwrites: an existing `target` (or a `-wal` or `-journal` beside it, which SQLite
    /// would replay onto the copy) is ``StateStoreError/alreadyExists(_:)``. Nothing is left
    /// behind on failure. The copy is the safe way to move a live store; replacing a live
    /// store's file (`mv copy.db state.db`) is not.
    public func backup(to target: String) throws(StateStoreError) -> BackupReport {
        guard !target.isEmpty else { throw .invalidInput("backup path is empty") }
        for name in [target, target + "-wal", target + "-journal"] where Self.entryExists(name) {
            throw .alreadyExists(
                name == target
                    ? "\(target) already exists; a backup never overwrites a file: choose a new name"
                    : "\(name) already exists beside \(target), and SQLite would replay it onto the copy: remove it or choose another name"
            )
        }
        // Written under a name of its own, then linked to the target, which fails if another
        // process has created it meanwhile: the target appears whole or not at all.
        let partial = target + ".partial-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        try StoreFile.checkLength(of: target, extra: ".partial-ffffffff".utf8.count, what: "backup path")
        defer { Self.removeFile(partial) }
        try withDatabase { database throws(StateStoreError) in
            try database.checkStillAtPath()
            // A name SQLite could take for a URI is a file name here, as for the store's own path.
            let fileName = partial.hasPrefix("file:") ? "./" + partial : partial
            try database.run("VACUUM INTO ?1") { statement throws(StateStoreError) in try statement.bind(1, fileName) }
        }
        let windows = try Self.windowCount(partial)
        var info = stat()
        guard stat(partial, &info) == 0 else { throw Self.ioError("cannot read \(partial)") }
        guard link(partial, target) == 0 else {
            if errno == EEXIST {
                throw .alreadyExists("\(target) already exists; a backup never overwrites a file: choose a new name")
            }
            throw Self.ioError("cannot create \(target)")
        }
        return BackupReport(path: target, windows: windows, bytes: Int(info.st_size))
    }

    /// The windows in a copy, counted through a connection of its own (closed before returning).
    private static func windowCount(_ path: String) throws(StateStoreError) -> Int {
        let copy = try Database(path: path, create: false, busyTimeoutMilliseconds: 0)
        return try copy.integer("SELECT count(*) FROM windows") ?? 0
    }

    /// Whether anything has this name: a file, a folder, or a link, even one that leads nowhere.
    private static func entryExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Removes a partial copy and the journal SQLite may have left beside it.
    private static func removeFile(_ path: String) {
        for name in [path, path + "-journal", path + "-wal", path + "-shm"] { unlink(name) }
    }

    private static func ioError(_ what: String) -> StateStoreError {
        let code = errno
        return .io(SQLiteFailure(code: .ioErr, message: "\(what): \(String(cString: strerror(code)))"))
    }
}
