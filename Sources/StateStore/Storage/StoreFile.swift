#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a path holds, read with plain POSIX calls before SQLite touches it, so that a file that
/// is not ours is refused without a byte of it changed (SQLite would set the journal mode, or
/// replay a journal, on open).
enum StoreFile {
    enum Kind: Equatable {
        case missing
        case directory
        /// A device, a FIFO or a socket: SQLite would open it, and write its journal beside it.
        case notAFile
        /// Zero bytes: becomes a new store.
        case empty
        /// A SQLite database; the header's application id (its `user_version` may be stale in
        /// WAL mode, so SQLite is asked for that).
        case sqlite(applicationID: Int32)
        case notSQLite
    }

    static func inspect(_ path: String) throws(StateStoreError) -> Kind {
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == ENOENT { return .missing }
            throw ioError("cannot read \(path)")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .directory }
        if (info.st_mode & S_IFMT) != S_IFREG { return .notAFile }
        if info.st_size == 0 { return .empty }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ioError("cannot open \(path)") }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 100)
        var filled = 0
        while filled < header.count {
            let count = header.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw ioError("cannot read \(path)") }
            if count == 0 { break }
            filled += count
        }
        guard filled == header.count, header.starts(with: Array("SQLite format 3\0".utf8)) else { return .notSQLite }
        let applicationID = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return .sqlite(applicationID: Int32(bitPattern: applicationID))
    }

    /// Creates the folders leading to `path`, as `mkdir -p` would.
    static func createParentFolders(of path: String) throws(StateStoreError) {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        guard !components.isEmpty else { return }
        var current = path.hasPrefix("/") ? "" : "."
        if components.first == "" { components.removeFirst() }
        for component in components where !component.isEmpty {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw ioError("cannot create folder \(current)")
            }
        }
    }

    private static func ioError(_ what: String) -> StateStoreError {
        let code = errno
        return .damaged(
            SQLiteFailure(code: 10 /* SQLITE_IOERR */, message: "\(what): \(String(cString: strerror(code)))"))
    }
}

extension Timestamp {
    /// The system's real-time clock.
    public static func now() -> Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(millisecondsSince1970: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }
}
