import StateStoreSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One SQLite connection and its statement cache. Not thread-safe: its owner (a store, a change
/// feed) keeps it behind a lock, so exactly one caller uses it at a time.
///
/// It knows SQL and files, nothing of windows: the statements the store runs most are the store's
/// catalogue, kept here in numbered slots (``statement(slot:_:)``), and what the store keeps per
/// connection beside it is a subclass's (`StoreConnection`).
package class Database {
    let handle: OpaquePointer
    let path: String
    private var statements: [String: Statement] = [:]
    /// Statements kept by number, for those run so often that hashing their text would cost more
    /// than a tenth of their work: found by index (``statement(slot:_:)``).
    @exclusivity(unchecked) private var slots: [Statement?] = []
    /// `BEGIN`, `BEGIN IMMEDIATE`, `COMMIT` and `ROLLBACK`, by ``Control``, prepared on first use.
    @exclusivity(unchecked) private var control: [Statement?] = Array(repeating: nil, count: Control.allCases.count)
    /// How long a call waits for another connection's lock.
    let busyTimeoutMilliseconds: Int
    /// Set, and the connection closed, once its path was found to name another file (or none):
    /// every later call fails with it, so nothing is written to the file that is gone.
    private(set) var stopped: StateStoreError?
    /// Interrupts what the connection runs, from any thread, until it is closed.
    let interrupter: Interrupter
    /// The device and inode of the file SQLite opened, from the descriptor it holds
    /// (``StoreFile/openedIdentity(of:)``); `nil` in memory, or where that descriptor cannot be
    /// reached, and ``checkStillAtPath()`` then leaves the question of SQLite's name to SQLite.
    private let opened: StoreFile.Identity?
    /// SQLite's own name for the file, every link resolved at open: the name it finds the WAL by.
    private let sqliteName: String
    /// Whether ``sqliteName`` is the path as given (an absolute path with no link on the way: a
    /// macOS app's container, a store in `/tmp` on Linux; not an iOS app's, where `/var` is a link
    /// to `/private/var`): one `stat` of it then answers both of ``checkStillAtPath()``'s questions.
    private let pathIsSQLiteName: Bool

    /// How a connection may use its file.
    enum Access: Equatable {
        /// Read and write (SQLite opens a file it may not write for reading only).
        case readWrite
        /// SQLite's read-only connection: it reads a WAL file through its `-shm` (mapped read-only
        /// when this process may not write it) and takes the readers' locks, so writers may work.
        case readOnly
        /// The file as it is on disk, read without locks (SQLite's `immutable`): for a WAL file
        /// beside which neither a `-wal` nor a `-shm` exists or can be made, as in a folder this
        /// process may not write. No connection has such a file open in WAL mode (each keeps both
        /// beside it); one that opens it later may write it, so every call compares the file with
        /// the stamp it had before it was opened (``checkSnapshot()``).
        case snapshot(StoreFile.Stamp)
    }

    /// For ``Access/snapshot(_:)``, the file as it was before it was opened.
    let snapshot: StoreFile.Stamp?

    /// Opens `path` read-write, creating it when `create` is set, waiting up to
    /// `busyTimeoutMilliseconds` for other connections' locks. The caller has checked the file.
    package convenience init(path: String, create: Bool, busyTimeoutMilliseconds: Int) throws(StateStoreError) {
        try self.init(
            path: path, create: create, busyTimeoutMilliseconds: busyTimeoutMilliseconds, access: .readWrite,
            protection: FileProtectionFlag.completeUntilFirstUserAuthentication)
    }

    /// Opens `path` as `access` says, creating it when `create` is set (read-write only), waiting
    /// up to `busyTimeoutMilliseconds` for other connections' locks, with the data-protection class
    /// `protection` (a ``FileProtectionFlag``) for what SQLite creates (Apple platforms). The caller
    /// has checked the file. `readsDescriptor` off (tests), the file's identity is not read from
    /// SQLite's descriptor, as where SQLite's VFS is not its unix one.
    init(
        path: String, create: Bool, busyTimeoutMilliseconds: Int, access: Access, readsDescriptor: Bool = true,
        protection: Int32
    ) throws(StateStoreError) {
        var handle: OpaquePointer?
        var flags =
            (access == .readWrite
                ? SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | FileProtectionFlag.passed(protection)
                : SQLITE_OPEN_READONLY)
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        // A name SQLite could take for a URI (`file:x.db?mode=memory`, when the library is built
        // with URIs on, as Debian's is) is a file name here, as it was to ``StoreFile``.
        var fileName = path.hasPrefix("file:") ? "./" + path : path
        if case .snapshot(let stamp) = access {
            flags |= SQLITE_OPEN_URI
            fileName = Self.immutableURI(path)
            snapshot = stamp
        } else {
            snapshot = nil
        }
        let code = sqlite3_open_v2(fileName, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let result = SQLiteResultCode(rawValue: code)
            var message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            message += Self.systemError(handle, code: result, path: path)
            sqlite3_close_v2(handle)
            throw Self.error(SQLiteFailure(code: result, message: "cannot open \(path): \(message)"))
        }
        self.handle = handle
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        interrupter = Interrupter(handle)
        // SQLite's own name for the file is the path with every link resolved, from which it
        // derives the WAL's. The file it names is asked of the descriptor SQLite opened, not of
        // the name: a file renamed over the path between SQLite's open and a `stat` would be
        // taken for the one opened, and written through the old one's descriptor for good.
        sqliteName = sqlite3_db_filename(handle, "main").map { String(cString: $0) } ?? ""
        opened = sqliteName.isEmpty || !readsDescriptor ? nil : StoreFile.openedIdentity(of: handle)
        OpenFiles.opened(opened)
        pathIsSQLiteName = sqliteName.utf8.elementsEqual(path.utf8)  // the bytes, as the file system has them
        let busy = sqlite3_busy_timeout(handle, Int32(clamping: busyTimeoutMilliseconds))
        guard busy == SQLITE_OK else { throw failure(busy, sql: nil) }
    }

    /// `file:PATH?immutable=1`, the path's bytes outside a few safe ones written `%HH`; an absolute
    /// path after an empty authority (`file:///…`), so that one starting with `//` is a path.
    static func immutableURI(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "-"),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return (path.hasPrefix("/") ? "file://" : "file:") + encoded + "?immutable=1"
    }

    /// For a connection that reads its file without locks (``Access/snapshot(_:)``): fails, with
    /// busy, once the file is not as it was before it was opened or a `-wal` or `-shm` lies beside
    /// it — another process has written it, or has it open to write. Called before and after each
    /// call of the store, so what a call read is whole; nothing otherwise.
    func checkSnapshot() throws(StateStoreError) {
        guard let snapshot else { return }
        guard StoreFile.stamp(of: path) == snapshot, StoreFile.hasNoWALBeside(path) else {
            throw .busy(
                SQLiteFailure(
                    code: .busySnapshot,
                    message: "\(path) was written by another process while it was read: a reader that cannot write "
                        + "its folder reads the file as it is on disk, without locks, and checks it did not change; "
                        + "run the command again"))
        }
    }

    deinit {
        guard stopped == nil else { return }  // closed already
        statements.removeAll()  // finalize before closing
        slots.removeAll()
        control.removeAll()
        interrupter.closed()
        sqlite3_close_v2(handle)
        OpenFiles.closed(opened)
    }

    /// The cached statement for `sql`, prepared on first use.
    func statement(_ sql: String) throws(StateStoreError) -> Statement {
        if let stopped { throw stopped }
        if let statement = statements[sql] { return statement }
        let statement = try Statement(database: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// The statement kept in slot `slot`, prepared from `sql` on first use: a catalogue's of its
    /// own numbering (the store's, `HotStatement`), whose text is not hashed to find it. Every
    /// restore, listing and save runs some, and hashing cost more than a tenth of a restore's work.
    func statement(slot: Int, _ sql: () -> String) throws(StateStoreError) -> Statement {
        if let stopped { throw stopped }
        if slot < slots.count, let statement = slots[slot] { return statement }
        let statement = try Statement(database: self, sql: sql())
        if slot >= slots.count { slots += repeatElement(nil, count: slot + 1 - slots.count) }
        slots[slot] = statement
        return statement
    }

    /// The transaction statements this connection runs itself.
    private enum Control: Int, CaseIterable {
        case begin, beginImmediate, commit, rollback

        var sql: String {
            switch self {
            case .begin: "BEGIN"
            case .beginImmediate: "BEGIN IMMEDIATE"
            case .commit: "COMMIT"
            case .rollback: "ROLLBACK"
            }
        }
    }

    /// Runs a transaction statement, prepared on first use.
    private func run(_ control: Control) throws(StateStoreError) {
        if let stopped { throw stopped }
        let statement: Statement
        if let prepared = self.control[control.rawValue] {
            statement = prepared
        } else {
            statement = try Statement(database: self, sql: control.sql)
            self.control[control.rawValue] = statement
        }
        try run(statement, bind: { _ in })
    }

    /// Runs a statement that returns no rows (or whose rows are not wanted).
    func run(_ sql: String, bind: (Statement) throws(StateStoreError) -> Void = { _ in }) throws(StateStoreError) {
        try run(try statement(sql), bind: bind)
    }

    /// ``run(_:bind:)-(String,_)`` for a statement had already.
    func run(_ statement: Statement, bind: (Statement) throws(StateStoreError) -> Void) throws(StateStoreError) {
        defer { statement.reset() }
        try bind(statement)
        while try statement.step() {}
    }

    /// Runs a query, calling `row` for each row with the statement standing on it.
    func query(
        _ sql: String, bind: (Statement) throws(StateStoreError) -> Void = { _ in },
        row: (Statement) throws(StateStoreError) -> Void
    ) throws(StateStoreError) {
        try query(try statement(sql), bind: bind, row: row)
    }

    /// ``query(_:bind:row:)`` for a read bound to a window's key (`?1` session, `?2` window),
    /// bound without SQLite copying the ids: their bytes stay valid until the statement is reset,
    /// which happens before this returns.
    func query(
        _ statement: Statement, session: String, window: String, row: (Statement) throws(StateStoreError) -> Void
    ) throws(StateStoreError) {
        try withKey(statement, session: session, window: window) { statement, _ throws(StateStoreError) in
            while try statement.step() {
                try row(statement)
            }
        }
    }

    /// Runs a write bound to a window's key (`?1` session, `?2` window) and, through `bind`, to
    /// ranges of `bytes` (a row's JSON), all without SQLite copying them: they stay valid until
    /// the statement is reset, which happens before this returns. A save runs three.
    func run(
        _ statement: Statement, session: String, window: String, bytes: [UInt8] = [],
        bind: (Statement, UnsafeBufferPointer<UInt8>) throws(StateStoreError) -> Void = { _, _ in }
    ) throws(StateStoreError) {
        try withKey(statement, session: session, window: window, bytes: bytes) {
            statement, bytes throws(StateStoreError) in
            try bind(statement, bytes)
            while try statement.step() {}
        }
    }

    /// `body` with `statement` bound to the key, borrowed, and `bytes` lent for more; the
    /// statement is reset before the borrowed bytes go.
    private func withKey(
        _ statement: Statement, session: String, window: String, bytes: [UInt8] = [],
        _ body: (Statement, UnsafeBufferPointer<UInt8>) throws(StateStoreError) -> Void
    ) throws(StateStoreError) {
        var (session, window) = (session, window)
        let result = session.withUTF8 { session in
            window.withUTF8 { window in
                bytes.withUnsafeBufferPointer { bytes in
                    defer { statement.reset() }
                    return Result { () throws(StateStoreError) in
                        try statement.bind(1, borrowing: session)
                        try statement.bind(2, borrowing: window)
                        try body(statement, bytes)
                    }
                }
            }
        }
        try result.get()
    }

    /// ``query(_:bind:row:)`` for a statement had already.
    func query(
        _ statement: Statement, bind: (Statement) throws(StateStoreError) -> Void = { _ in },
        row: (Statement) throws(StateStoreError) -> Void
    ) throws(StateStoreError) {
        defer { statement.reset() }
        try bind(statement)
        while try statement.step() {
            try row(statement)
        }
    }

    /// The first column of the first row, as an integer, or `nil` when there is no row.
    func integer(
        _ sql: String, bind: (Statement) throws(StateStoreError) -> Void = { _ in }
    ) throws(StateStoreError) -> Int? {
        var value: Int?
        try query(sql, bind: bind) { statement throws(StateStoreError) in
            if value == nil { value = statement.int(0) }
        }
        return value
    }

    /// Runs SQL text of any number of statements, uncached (migrations, pragmas with side effects).
    func execute(_ sql: String) throws(StateStoreError) {
        if let stopped { throw stopped }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw Self.error(
                SQLiteFailure(
                    code: SQLiteResultCode(rawValue: sqlite3_extended_errcode(handle)),
                    message: text + Self.systemError(handle, code: SQLiteResultCode(rawValue: code), path: path),
                    sql: sql))
        }
    }

    /// Runs `body` waiting at most `milliseconds` for other connections' locks, then restores the
    /// connection's own busy timeout.
    func withBusyTimeout<T>(
        _ milliseconds: Int, _ body: () throws(StateStoreError) -> T
    ) throws(StateStoreError) -> T {
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
        defer { sqlite3_busy_timeout(handle, Int32(clamping: busyTimeoutMilliseconds)) }
        return try body()
    }

    /// Runs `body` in a write transaction taken with `BEGIN IMMEDIATE`, so the write lock is had
    /// (or the busy error raised) before anything is read. Any error rolls everything back.
    /// Fails when the path names another file than the one opened (see ``checkStillAtPath()``).
    func writeTransaction<T>(_ body: () throws(StateStoreError) -> T) throws(StateStoreError) -> T {
        try run(.beginImmediate)
        do throws(StateStoreError) {
            // Checked with the write lock held, so a replacement made while waiting for it counts.
            try checkStillAtPath()
            let result = try body()
            if interrupter.take() {
                throw Self.error(SQLiteFailure(code: .interrupt, message: "interrupted before it committed"))
            }
            try run(.commit)
            return result
        } catch {
            _ = interrupter.take()  // used up by this transaction, whatever ended it
            if stopped == nil && sqlite3_get_autocommit(handle) == 0 { try? run(.rollback) }
            throw error
        }
    }

    /// Fails, and closes the connection for good, when its path no longer names the file it
    /// opened (`mv other.db state.db`, the file deleted, or a folder on the way re-pointed:
    /// `ln -sfn other link`): writing on would commit into a file other processes no longer open
    /// by that path, or into the old file's WAL, which SQLite finds by name and would replay onto
    /// the file now at the path.
    ///
    /// Two questions, since either can change alone: does the path as the caller gave it (links
    /// followed now) still name the opened file, and does SQLite's own name, resolved at open,
    /// from which it derives the `-wal`? Each is a `stat` compared with the device and inode of
    /// the descriptor SQLite holds; when the two names are one (an absolute path with no link on
    /// the way), one `stat` answers both.
    ///
    /// A name that cannot be looked at now (a folder on the way made unsearchable for a moment)
    /// decides nothing: the write fails with ``StateStoreError/io(_:)`` saying so, the connection
    /// stays open, and the next call looks again. A feed's poll (`reading`) reads on from the file
    /// it has open instead, which writes nothing.
    func checkStillAtPath(reading: Bool = false) throws(StateStoreError) {
        if let stopped { throw stopped }
        guard DatabasePath.isFile(path) else { return }
        switch lookAtPath() {
        case .same:
            return
        case .cannotLook(let name, let code):
            if reading { return }
            throw .io(
                SQLiteFailure(
                    code: .ioErr,
                    message: "cannot look at \(name) now (\(String(cString: strerror(code)))), so whether it still "
                        + "names the file this store opened cannot be told: nothing was written; the store goes on "
                        + "once the path can be looked at again"))
        case .moved:
            break
        }
        if sqlite3_get_autocommit(handle) == 0 { try? run(.rollback) }
        // SQLite neither checkpoints nor deletes the WAL of a moved file when it closes, and would
        // replay it onto the file now at the path. Emptied into the old file (which this
        // connection still holds: it may live on under another name), it is harmless.
        truncateWAL()
        statements.removeAll()
        slots.removeAll()
        control.removeAll()
        interrupter.closed()
        sqlite3_close_v2(handle)
        OpenFiles.closed(opened)
        let error = StateStoreError.replaced(path: path)
        stopped = error
        throw error
    }

    /// What a look at the path and SQLite's name says of the file opened.
    private enum Look {
        /// Both name it.
        case same
        /// One names another file, or none.
        case moved
        /// One cannot be looked at (`stat` failed otherwise than by a missing name), and none
        /// names another file: nothing can be told.
        case cannotLook(String, Int32)
    }

    /// The path as given, then SQLite's name when it is another, against the file opened: a name
    /// of another file, or of none, decides at once; one that cannot be looked at decides
    /// nothing. No array is made: this runs before every write.
    private func lookAtPath() -> Look {
        guard let opened else { return lookThroughSQLite() }
        let asGiven = look(at: path, opened)
        if pathIsSQLiteName { return asGiven }
        if case .moved = asGiven { return .moved }
        let sqlites = look(at: sqliteName, opened)
        if case .cannotLook = asGiven, case .same = sqlites { return asGiven }
        return sqlites
    }

    private func look(at name: String, _ opened: StoreFile.Identity) -> Look {
        switch StoreFile.identity(of: name) {
        case .file(let device, let inode): .file(device: device, inode: inode) == opened ? .same : .moved
        case .missing: .moved
        case .unknown(let code): .cannotLook(name, code)
        }
    }

    /// ``lookAtPath()`` where the descriptor's identity could not be read (a VFS not shaped as
    /// SQLite's unix one): SQLite compares its name's inode with its descriptor's
    /// (`SQLITE_FCNTL_HAS_MOVED`), and the path as given must name what SQLite's name does.
    /// SQLite reports "moved" when its `stat` fails, so its name is looked at first, and SQLite
    /// is not asked while it cannot be.
    private func lookThroughSQLite() -> Look {
        let sqlites = StoreFile.identity(of: sqliteName)
        switch sqlites {
        case .missing: return .moved
        case .unknown(let code): return .cannotLook(sqliteName, code)
        case .file: break
        }
        var moved: Int32 = 0
        let asked = sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved)
        if asked == SQLITE_OK && moved != 0 { return .moved }
        if pathIsSQLiteName { return .same }
        switch StoreFile.identity(of: path) {
        case .file(let device, let inode): return .file(device: device, inode: inode) == sqlites ? .same : .moved
        case .missing: return .moved
        case .unknown(let code): return .cannotLook(path, code)
        }
    }

    /// Empties the WAL into the file and cuts it to nothing, unless another connection reads it
    /// (SQLite's `TRUNCATE` checkpoint), waiting for other connections as the busy timeout says;
    /// best effort: what it could not do, a later checkpoint does.
    func truncateWAL() {
        sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
    }

    /// Closes, when the time comes, without emptying the WAL into the file or deleting it.
    func keepWALOnClose() {
        _ = statestore_sqlite_no_checkpoint_on_close(handle)
    }

    /// Runs `body` in a read transaction, so several queries see one snapshot.
    func readTransaction<T>(_ body: () throws(StateStoreError) -> T) throws(StateStoreError) -> T {
        try run(.begin)
        defer { try? run(.commit) }
        return try body()
    }

    /// Runs `body` again while it fails with busy, for up to `milliseconds` of waiting in all:
    /// for statements whose busy answer SQLite gives at once, without calling the busy handler.
    func retryingBusy<T>(
        upTo milliseconds: Int, _ body: () throws(StateStoreError) -> T
    ) throws(StateStoreError) -> T {
        var waited = 0
        while true {
            do {
                return try body()
            } catch .busy(let failure) {
                guard waited < milliseconds else { throw .busy(failure) }
                waited += Int(sqlite3_sleep(Int32(min(10, milliseconds - waited))))
            }
        }
    }

    /// The error for a failed call, with SQLite's extended code and message.
    func failure(_ returned: Int32, sql: String?) -> StateStoreError {
        let code = SQLiteResultCode(rawValue: returned)
        let extended = SQLiteResultCode(rawValue: sqlite3_extended_errcode(handle))
        let message = String(cString: sqlite3_errmsg(handle)) + Self.systemError(handle, code: code, path: path)
        // The connection's code may be stale when the failure came from a call that does not set
        // it; prefer it only when it agrees with what the call returned.
        let reported = extended.primary == code.primary ? extended : code
        return Self.error(SQLiteFailure(code: reported, message: message, sql: sql))
    }

    /// The operating system's reason for a failure to open or write a file, which SQLite's own
    /// message leaves out ("unable to open database file" for a read-only folder); empty when
    /// there is none to tell.
    static func systemError(_ handle: OpaquePointer?, code: SQLiteResultCode, path: String) -> String {
        if [.cantOpen, .readOnly, .ioErr].contains(code.primary), let problem = sidecarProblem(path) {
            return " (\(problem))"
        }
        switch code.primary {
        case .cantOpen, .readOnly:
            // SQLite's errno is that of its last attempt, often a read-only retry that says
            // nothing; ask the file system about the file and the folder that holds its WAL.
            guard DatabasePath.isFile(path), !path.isEmpty else { return "" }
            if access(path, F_OK) == 0 && access(path, R_OK) != 0 {
                return " (\(path) is not readable: \(String(cString: strerror(errno))))"
            }
            if access(path, F_OK) == 0 && access(path, W_OK) != 0 {
                return " (\(path) is not writable: \(String(cString: strerror(errno))))"
            }
            let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
            let folder = slash.map { $0 == path.utf8.startIndex ? "/" : String(path[..<$0]) } ?? "."
            if access(folder, W_OK) != 0 {
                return " (the folder \(folder) is not writable: \(String(cString: strerror(errno))))"
            }
            return ""
        case .ioErr, .full:
            let system = handle.map { sqlite3_system_errno($0) } ?? 0
            return system == 0 ? "" : " (\(path): \(String(cString: strerror(system))))"
        default:
            return ""
        }
    }

    /// A `-wal` or `-shm` beside the database that SQLite cannot use, which its own message does
    /// not name: a folder, or a symbolic link (which it refuses to follow). Found with `lstat`.
    static func sidecarProblem(_ path: String) -> String? {
        guard DatabasePath.isFile(path), !path.isEmpty else { return nil }
        for (suffix, what) in [("-wal", "write-ahead log"), ("-shm", "shared-memory index")] {
            var info = stat()
            guard lstat(path + suffix, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return "\(path)\(suffix) is a folder, not SQLite's \(what): remove it"
            case S_IFLNK: return "\(path)\(suffix) is a symbolic link, which SQLite refuses to follow: remove it"
            default: continue
            }
        }
        return nil
    }

    /// Busy and locked mean "retry later"; a full disk, a read-only file, one that cannot be
    /// opened and a failed read or write are I/O; everything else SQLite reports here is damage
    /// (a corrupt page, not a database after all, a schema the store did not make).
    static func error(_ failure: SQLiteFailure) -> StateStoreError {
        switch failure.code.primary {
        // Interrupted (``StateStore/WindowStore/interrupt()``: a host's background time ran out, a backup
        // stopped by a signal): the call stopped, having written nothing; try again later.
        case .busy, .locked, .interrupt: .busy(failure)
        case .ioErr, .full, .readOnly, .cantOpen, .perm: .io(failure)
        default: .damaged(failure)
        }
    }
}

extension Database {
    /// `sqlite3_interrupt` for another thread than the one running the connection (the connection
    /// itself is behind the store's lock, which that thread holds): a system that takes back the
    /// time it gave an app stops a transaction in flight. The handle is forgotten, under this
    /// lock, before the connection closes, so an interrupt never reaches a closed one.
    ///
    /// SQLite's interrupt stops only a statement that is running; one that comes between two
    /// statements of a transaction is kept here, and the transaction rolls back instead of
    /// committing (``Database/writeTransaction(_:)``).
    final class Interrupter: @unchecked Sendable {
        private let state: Lock<(handle: OpaquePointer?, interrupted: Bool)>

        init(_ handle: OpaquePointer) {
            state = Lock((handle, false))
        }

        /// Makes the statement running now fail with `SQLITE_INTERRUPT`, and the write
        /// transaction it is in (or the next one) roll back instead of committing.
        func interrupt() {
            state.withLock { state in
                state.interrupted = true
                if let handle = state.handle { sqlite3_interrupt(handle) }
            }
        }

        /// Whether an interrupt came since the last ``clear()``; taking it clears it.
        func take() -> Bool {
            state.withLock { state in
                defer { state.interrupted = false }
                return state.interrupted
            }
        }

        /// Forgets an interrupt that came before the work about to start.
        func clear() {
            state.withLock { $0.interrupted = false }
        }

        func closed() {
            state.withLock { $0.handle = nil }
        }
    }
}
