import StateStoreSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a path holds. Told first from `stat` alone (no descriptor), then — for a regular file —
/// from its header, read through the SQLite connection's own file before any statement runs, so
/// that a file that is not ours is refused without a byte of it changed (SQLite would set the
/// journal mode, or replay a journal, on the first statement).
///
/// No descriptor of a database file is ever opened here: POSIX advisory locks belong to the
/// process, and closing any descriptor of the file would drop the locks of every other connection
/// this process has on it. SQLite's unix VFS shares lock state per file and defers closing a
/// descriptor while locks are held, so reading through it is safe.
package enum StoreFile {
    enum Kind: Equatable {
        case missing
        case directory
        /// A device, a FIFO or a socket: SQLite would open it, and write its journal beside it.
        case notAFile
        /// A regular file and its number of hard links.
        case file(links: Int)
    }

    /// What the header of an opened file says.
    enum Contents: Equatable {
        /// Zero bytes: becomes a new store.
        case empty
        /// A SQLite database; the header's application id (its `user_version` may be stale in
        /// WAL mode, so SQLite is asked for that).
        case sqlite(applicationID: Int32)
        case notSQLite
    }

    /// What a path names now, links followed: a file's device and inode, nothing, or a path
    /// that cannot be looked at.
    enum Identity: Equatable {
        case file(device: UInt64, inode: UInt64)
        /// Nothing at the path (`ENOENT`, or a part of it not a folder: `ENOTDIR`).
        case missing
        /// `stat` failed otherwise (a folder that cannot be searched), with this `errno`: nothing
        /// can be told.
        case unknown(Int32)
    }

    /// ``Identity`` of what `path` names now, from `stat` (no descriptor).
    static func identity(of path: String) -> Identity {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .missing : .unknown(code)
        }
        return .file(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The device and inode of the file `database`'s connection holds open, from its descriptor
    /// (`fstat`), or `nil` when the descriptor cannot be reached.
    ///
    /// SQLite gives the main file's `sqlite3_file` (`SQLITE_FCNTL_FILE_POINTER`) but no public way
    /// to its descriptor. The unix VFS's file, `unixFile` in os_unix.c, begins with its methods,
    /// the VFS that made it, its inode's lock state, and the descriptor, in that order since
    /// SQLite 3.7.6 (2011): read only when the second field is the connection's own VFS
    /// (`SQLITE_FCNTL_VFS_POINTER`), one of the unix family, and the third is set, so that a VFS
    /// of another shape (a shim over unix, an app's own) is never read as this one. The
    /// descriptor is only `fstat`ed, never closed (closing one would drop the process's POSIX
    /// locks on the file).
    static func openedIdentity(of handle: OpaquePointer) -> Identity? {
        var pointer: UnsafeMutablePointer<sqlite3_file>?
        var vfs: UnsafeMutablePointer<sqlite3_vfs>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &pointer) == SQLITE_OK,
            sqlite3_file_control(handle, "main", SQLITE_FCNTL_VFS_POINTER, &vfs) == SQLITE_OK,
            let file = pointer, let vfs, file.pointee.pMethods != nil,
            let name = vfs.pointee.zName, String(cString: name).hasPrefix("unix")
        else { return nil }
        let descriptor = UnsafeRawPointer(file).withMemoryRebound(to: UnixFilePrefix.self, capacity: 1) { $0.pointee }
        guard descriptor.vfs == UnsafeRawPointer(vfs), descriptor.inode != nil, descriptor.descriptor >= 0 else {
            return nil
        }
        var info = stat()
        guard fstat(descriptor.descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return .file(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The first fields of the unix VFS's `unixFile`, as C lays them out.
    private struct UnixFilePrefix {
        var methods: UnsafeRawPointer?
        var vfs: UnsafeRawPointer?
        var inode: UnsafeRawPointer?
        var descriptor: Int32
    }

    /// Where the regular file at `path` is a mount of its own — a file bind-mounted at a second
    /// name (`mount --bind a.db b.db`, a container's single-file volume) — the name it is mounted
    /// at; `nil` when it is not, or where that cannot be told. Such a file has one link and two
    /// names, each with a WAL of its own, as a hard link would.
    ///
    /// The kernel says whether the file at `path` is a mount's root (Linux 5.8 and later:
    /// `statx`); any name reached through a file's bind mount is one, so refusing those names
    /// leaves one name (the mount's source) that writes. Before 5.8, the mount table
    /// (`/proc/self/mountinfo`) is read instead, which finds every mount of the file in this
    /// process's view, the source's name then refused too. Elsewhere (Apple platforms have no bind
    /// mounts) it is `nil`.
    package static func bindMount(of path: String, useMountTable: Bool = false) -> String? {
        #if os(Linux)
            if !useMountTable {
                switch statestore_is_mount_root(path) {
                case 1: return path
                case 0: return nil
                default: break
                }
            }
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return MountTable.current()?.mountPoint(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        #else
            return nil
        #endif
    }

    /// What `stat` says of a file that changes whenever it is written: its device, inode, size,
    /// and the times of its last change to data and to its inode, to the nanosecond the file
    /// system keeps. What a reader without locks compares before and after it reads.
    struct Stamp: Equatable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: (seconds: Int64, nanoseconds: Int64)
        let changed: (seconds: Int64, nanoseconds: Int64)

        static func == (lhs: Stamp, rhs: Stamp) -> Bool {
            lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size && lhs.modified == rhs.modified
                && lhs.changed == rhs.changed
        }
    }

    /// The ``Stamp`` of `path` (links followed); `nil` when it cannot be had.
    static func stamp(of path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #else
            let (modified, changed) = (info.st_mtim, info.st_ctim)
        #endif
        return Stamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: (Int64(modified.tv_sec), Int64(modified.tv_nsec)),
            changed: (Int64(changed.tv_sec), Int64(changed.tv_nsec)))
    }

    /// Whether neither a `-wal` nor a `-shm` lies beside `path`: no connection has the file open
    /// in WAL mode (each keeps both while it does), and none left a log to replay.
    static func hasNoWALBeside(_ path: String) -> Bool {
        var info = stat()
        return lstat(path + "-wal", &info) != 0 && errno == ENOENT && lstat(path + "-shm", &info) != 0
            && errno == ENOENT
    }

    static func inspect(_ path: String) throws(StateStoreError) -> Kind {
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == ENOENT { return .missing }
            throw ioError("cannot read \(path)")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .directory }
        if (info.st_mode & S_IFMT) != S_IFREG { return .notAFile }
        return .file(links: Int(info.st_nlink))
    }

    /// The main file's header, read through `database`'s connection (opened, no statement run).
    static func contents(of database: Database) throws(StateStoreError) -> Contents {
        var pointer: UnsafeMutablePointer<sqlite3_file>?
        let code = sqlite3_file_control(database.handle, "main", SQLITE_FCNTL_FILE_POINTER, &pointer)
        guard code == SQLITE_OK, let file = pointer, let methods = file.pointee.pMethods,
            let fileSize = methods.pointee.xFileSize, let read = methods.pointee.xRead
        else {
            throw .io(SQLiteFailure(code: .ioErr, message: "cannot read \(database.path): no file to read"))
        }
        var size: sqlite3_int64 = 0
        let sized = fileSize(file, &size)
        guard sized == SQLITE_OK else {
            throw .io(
                SQLiteFailure(
                    code: SQLiteResultCode(rawValue: sized), message: "cannot read the size of \(database.path)"))
        }
        if size == 0 { return .empty }
        var header = [UInt8](repeating: 0, count: 100)
        let result = SQLiteResultCode(
            rawValue: header.withUnsafeMutableBytes { buffer in read(file, buffer.baseAddress, Int32(buffer.count), 0) }
        )
        // A short read (fewer than 100 bytes) is not an error here: such a file is not SQLite.
        guard result == .ok || result == .ioErrShortRead else {
            throw .io(SQLiteFailure(code: result, message: "cannot read \(database.path)"))
        }
        guard result == .ok, header.starts(with: Array("SQLite format 3\0".utf8)) else { return .notSQLite }
        let applicationID = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return .sqlite(applicationID: Int32(bitPattern: applicationID))
    }

    /// Whether a hot rollback journal or a WAL lies beside `path`, from which SQLite may restore
    /// a header a power cut tore: a `-journal` that begins with the journal's magic (pager.c
    /// writes it once the journal may be played back), or a `-wal` that begins with the WAL's
    /// (wal.c). Their first bytes are read with a descriptor of their own: SQLite takes no POSIX
    /// lock on either (only on the database and its `-shm`), so closing it drops no lock.
    static func hasRecoveryBeside(_ path: String) -> Bool {
        let journal = firstBytes(of: path + "-journal", count: 8)
        if journal == [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7] { return true }
        let wal = firstBytes(of: path + "-wal", count: 32)
        return wal.count == 32 && wal[0..<3] == [0x37, 0x7f, 0x06] && (wal[3] == 0x82 || wal[3] == 0x83)
    }

    /// Up to `count` bytes from the start of the regular file at `path`; empty for anything else,
    /// and for a file that closing a descriptor of could drop this process's locks on
    /// (``OpenFiles/mayOpen(_:)``: a second name, or a database a connection has open).
    private static func firstBytes(of path: String, count: Int) -> [UInt8] {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, OpenFiles.mayOpen(info) else {
            return []
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
        return read > 0 ? Array(bytes.prefix(read)) : []
    }

    /// Creates the folders leading to `path`, as `mkdir -p` would, and returns those it made,
    /// outermost first. On failure it removes them again.
    static func createParentFolders(of path: String) throws(StateStoreError) -> [String] {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        guard !components.isEmpty else { return [] }
        var current = path.hasPrefix("/") ? "" : "."
        if components.first == "" { components.removeFirst() }
        var created: [String] = []
        for component in components where !component.isEmpty {
            current += "/" + component
            if mkdir(current, 0o755) == 0 {
                created.append(current)
            } else if errno != EEXIST {
                let error = ioError("cannot create folder \(current)")
                removeFolders(created)
                throw error
            }
        }
        return created
    }

    /// Removes folders a failed create made, innermost first; one that holds anything now (the
    /// file SQLite made, which another process may already use) stays, and so do those around it.
    static func removeFolders(_ folders: [String]) {
        for folder in folders.reversed() where rmdir(folder) != 0 { return }
    }

    /// The longest full path SQLite's unix VFS opens a database at: its limit, less the room it
    /// keeps for the names it makes beside it (`-journal`).
    static var longestPath: Int {
        Int(sqlite3_vfs_find(nil)?.pointee.mxPathname ?? 512) - "-journal".utf8.count
    }

    /// Refuses a path whose full form (made absolute and without `.` and `..`, as SQLite makes it)
    /// is longer than SQLite takes, leaving `extra` bytes to spare, before anything is created.
    static func checkLength(of path: String, extra: Int = 0, what: String = "database path") throws(StateStoreError) {
        let length = lexicallyAbsolute(path).utf8.count
        let longest = longestPath - extra
        guard length > longest else { return }
        throw .io(
            SQLiteFailure(
                code: .cantOpen,
                message: "\(what) \(path) is too long for SQLite: \(length) bytes as a full path, at most \(longest)"))
    }

    /// `path` made absolute against the working folder, `.` and `..` taken out without looking at
    /// the file system: the full form SQLite measures, and the start of the one it opens.
    static func lexicallyAbsolute(_ path: String) -> String {
        var full = path
        if !path.hasPrefix("/"), let folder = getcwd(nil, 0) {
            full = String(cString: folder) + "/" + path
            free(folder)
        }
        var kept: [Substring] = []
        for component in full.split(separator: "/") where component != "." {
            if component == ".." { _ = kept.popLast() } else { kept.append(component) }
        }
        return "/" + kept.joined(separator: "/")
    }

    private static func ioError(_ what: String) -> StateStoreError {
        let code = errno
        return .io(SQLiteFailure(code: .ioErr, message: "\(what): \(String(cString: strerror(code)))"))
    }
}
