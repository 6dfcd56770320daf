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
    /// would replay onto the copy) is ``StateStoreError/alreadyExists(_:)``. A `target` SQLite would
    /// take for a file of some database (ending in `-journal`, `-wal`, `-shm`, or a super-journal's
    /// `-mj…`) is ``StateStoreError/invalidInput(_:)``: the next connection to that database would
    /// delete the copy, or wait on it. Nothing is left behind on failure. The copy is the safe way to move a live store; replacing a live
    /// store's file (`mv copy.db state.db`) is not.
    public func backup(to target: String) throws(StateStoreError) -> BackupReport {
        try Self.validateBackupTarget(target)
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

    /// Refuses, as bad data, a backup path that is empty or that SQLite would take for a file of
    /// some database (see ``sidecarKind(of:)``): checked before any store is opened.
    package static func validateBackupTarget(_ target: String) throws(StateStoreError) {
        guard !target.isEmpty else { throw .invalidInput("backup path is empty") }
        guard let (suffix, kind) = sidecarKind(of: target) else { return }
        let database = String(decoding: target.utf8.dropLast(suffix.utf8.count), as: UTF8.self)
        throw .invalidInput(
            "backup path \(target) is named like \(kind) (\(suffix)) of the database \(database): SQLite "
                + "would take it for that database's file, and the next connection to that database would "
                + "delete the copy or wait on it; choose a name that does not end in -journal, -wal, -shm or "
                + "-mj followed by hex digits")
    }

    /// The suffix, and what SQLite makes of it, when the last part of `path` ends as SQLite names
    /// a file it keeps beside a database (`DB-journal`, `DB-wal`, `DB-shm`; `DB-journalNN` and
    /// `DB-walNN` of the multiplexing VFS; `DB-mjXXXXXX9XX`, a super-journal of a transaction
    /// across attached databases, which a hot journal names and recovery deletes); `nil` otherwise.
    /// ASCII letters are compared without case: Apple's file systems ignore it by default.
    static func sidecarKind(of path: String) -> (suffix: String, kind: String)? {
        let name = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).last ?? []
        guard let dash = name.lastIndex(of: UInt8(ascii: "-")) else { return nil }
        let suffix = String(decoding: name[dash...], as: UTF8.self)
        let word = Array(suffix.utf8.dropFirst().map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 })
        func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
        func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || (byte >= 97 && byte <= 102) }
        func numbered(_ stem: String) -> Bool {
            word.starts(with: stem.utf8) && word.dropFirst(stem.utf8.count).allSatisfy(isDigit)
        }
        if numbered("journal") { return (suffix, "SQLite's rollback journal") }
        if numbered("wal") { return (suffix, "SQLite's write-ahead log") }
        if word == Array("shm".utf8) { return (suffix, "SQLite's shared-memory index") }
        if word.count == 11, word.starts(with: "mj".utf8), word[8] == UInt8(ascii: "9"),
            word.dropFirst(2).allSatisfy(isHex)
        {
            return (suffix, "SQLite's super-journal")
        }
        return nil
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
