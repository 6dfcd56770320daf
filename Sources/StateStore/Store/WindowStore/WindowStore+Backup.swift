#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What ``StateStore/WindowStore/backup(to:)`` wrote.
public struct BackupReport: Hashable, Sendable {
    /// The copy's path, as given.
    public var path: String
    /// The number of windows in the copy.
    public var windows: Int
    /// The copy's size in bytes.
    public var bytes: Int
}

extension WindowStore {
    /// Writes a consistent copy of the whole store to a new file at `target`: one snapshot, taken
    /// while other connections go on writing (SQLite's `VACUUM INTO`), whole or not at all.
    ///
    /// Never overwrites: an existing `target` (or a `-wal` or `-journal` beside it, which SQLite
    /// would replay onto the copy) is ``StateStoreError/alreadyExists(_:)``. A `target` SQLite would
    /// take for a file of some database (ending in `-journal`, `-wal`, `-shm`, or a super-journal's
    /// `-mj…`) is ``StateStoreError/invalidInput(_:)``: the next connection to that database would
    /// delete the copy, or wait on it. Nothing is left behind on failure, and a partial copy an
    /// earlier backup to `target` left (its process killed) is removed once its writer is gone.
    /// The copy is the safe way to move a live store; replacing a live store's file
    /// (`mv copy.db state.db`) is not.
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
        PartialCopy.removeStale(of: target, now: options.clock())
        PartialCopy.writing.withLock { _ = $0.insert(partial) }
        defer {
            Self.removeFile(partial)
            PartialCopy.writing.withLock { _ = $0.remove(partial) }
            // An interrupt meant for the copy does not outlive it into a later write.
            clearInterrupt()
        }
        try withDatabase { database throws(StateStoreError) in
            try database.checkStillAtPath()
            // A name SQLite could take for a URI is a file name here, as for the store's own path.
            let fileName = partial.hasPrefix("file:") ? "./" + partial : partial
            try database.run("VACUUM INTO ?1") { statement throws(StateStoreError) in try statement.bind(1, fileName) }
        }
        let windows = try Self.windowCount(partial, protection: options.fileProtection)
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
    ///
    /// Package surface: `statectl backup` checks its target with it before it opens the store, so
    /// that a bad path is a usage error that touched nothing.
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

    /// The windows in a copy, counted through a connection of its own (closed before returning);
    /// none in the copy of an empty file, which has no tables.
    private static func windowCount(
        _ path: String, protection: FileProtection
    ) throws(StateStoreError) -> Int {
        let copy = try Database(
            path: path, create: false, busyTimeoutMilliseconds: 0, access: .readWrite,
            protection: protection.sqliteOpenFlag)
        guard try copy.integer("SELECT count(*) FROM sqlite_schema WHERE name = 'windows'") == 1 else { return 0 }
        return try copy.integer("SELECT count(*) FROM windows") ?? 0
    }

    /// Whether anything has this name: a file, a folder, or a link, even one that leads nowhere.
    private static func entryExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Removes a partial copy and the journal SQLite may have left beside it.
    fileprivate static func removeFile(_ path: String) {
        for name in [path, path + "-journal", path + "-wal", path + "-shm"] { unlink(name) }
    }

    private static func ioError(_ what: String) -> StateStoreError {
        let code = errno
        return .io(SQLiteFailure(code: .ioErr, message: "\(what): \(String(cString: strerror(code)))"))
    }
}

/// The partial copies of a backup (`TARGET.partial-HEX`): written under a name of their own, and
/// left behind when the process writing one is killed (a large store's copy can be hundreds of
/// megabytes, its journal beside it).
enum PartialCopy {
    /// The partial copies this process is writing now. The lock test below cannot see this
    /// process's own locks (POSIX reports only other processes'), and closing its descriptor of
    /// one would drop them.
    static let writing = Lock<Set<String>>([])

    /// How long a partial copy must have stayed unchanged before it can be a leftover: a writer
    /// holds SQLite's lock on it while it copies, but not in the moments between creating it and
    /// the first lock, nor between the copy's commit and its link to the target.
    static let quiet: Int64 = 60_000

    /// Removes the partial copies of `target`, and what SQLite kept beside them, whose writer is
    /// gone: unchanged for ``quiet`` by `now`, and locked by no process (SQLite's copy holds an
    /// exclusive POSIX lock on it from its first page to its commit). Anything else of that
    /// folder is left alone, a name that only looks like a partial copy included.
    static func removeStale(of target: String, now: Timestamp) {
        let slash = target.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { $0 == target.utf8.startIndex ? "/" : String(target[..<$0]) } ?? "."
        let prefix = String(target[(slash.map { target.utf8.index(after: $0) } ?? target.startIndex)...]) + ".partial-"
        for name in names(in: folder) where isPartialName(name, of: prefix) {
            // Spelt as the backup spells its partial copy (`target + ".partial-HEX"`), so that one
            // this process is writing is found in `writing`: `copy.db`'s is not `./copy.db…`.
            let path = slash == nil ? name : folder == "/" ? "/" + name : folder + "/" + name
            guard !writing.withLock({ $0.contains(path) }) else { continue }
            var info = stat()
            // Never a file this process has open through SQLite, nor one with a second name: the
            // lock test opens and closes it, which would drop the process's locks on it.
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, OpenFiles.mayOpen(info) else {
                continue
            }
            #if canImport(Darwin)
                let modified = Int64(info.st_mtimespec.tv_sec) * 1000 + Int64(info.st_mtimespec.tv_nsec) / 1_000_000
            #else
                let modified = Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000
            #endif
            guard now.millisecondsSince1970 - modified >= quiet, !isLocked(path, as: info) else { continue }
            WindowStore.removeFile(path)
        }
    }

    /// Whether `name` is `prefix` followed by 1 to 8 lowercase hex digits, as ``StateStore/WindowStore/backup(to:)``
    /// names its partial copies.
    private static func isPartialName(_ name: String, of prefix: String) -> Bool {
        guard name.utf8.starts(with: prefix.utf8) else { return false }
        let digits = name.utf8.dropFirst(prefix.utf8.count)
        return (1...8).contains(digits.count)
            && digits.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }

    /// Whether another process holds a POSIX lock on any byte of the file at `path`, which `info`
    /// described (`F_GETLK`); `true` when that cannot be told. The descriptor opened to ask drops
    /// no lock of this process when closed: the file is one it may open (``OpenFiles``), checked
    /// again on the descriptor. One that turns out to be another file — renamed over the name
    /// since `info` — that this process may not open is kept open rather than closed.
    private static func isLocked(_ path: String, as info: stat) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return true }  // cannot tell: leave it
        var opened = stat()
        let read = fstat(descriptor, &opened) == 0
        if read && (opened.st_dev != info.st_dev || opened.st_ino != info.st_ino) && !OpenFiles.mayOpen(opened) {
            return true  // another file, which closing would drop this process's locks on: kept open
        }
        defer { close(descriptor) }
        guard read, opened.st_dev == info.st_dev, opened.st_ino == info.st_ino else { return true }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 0
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return true }
        return lock.l_type != Int16(F_UNLCK)
    }

    /// The names in `folder`, without `.` and `..`; none when it cannot be read.
    private static func names(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
