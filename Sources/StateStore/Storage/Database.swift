import CSQLite

/// One SQLite connection and its statement cache. Not thread-safe: ``StateStore`` owns it behind
/// a mutex, so exactly one caller uses it at a time.
final class Database {
    let handle: OpaquePointer
    let path: String
    private var statements: [String: Statement] = [:]
    /// The schema version this connection found or brought the file to.
    var schemaVersion = 0

    /// Opens `path` read-write, creating it when `create` is set, waiting up to
    /// `busyTimeoutMilliseconds` for other connections' locks. The caller has checked the file.
    init(path: String, create: Bool, busyTimeoutMilliseconds: Int) throws(StateStoreError) {
        var handle: OpaquePointer?
        let flags =
            SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw Self.error(SQLiteFailure(code: code, message: "cannot open \(path): \(message)"))
        }
        self.handle = handle
        self.path = path
        let busy = sqlite3_busy_timeout(handle, Int32(clamping: busyTimeoutMilliseconds))
        guard busy == SQLITE_OK else { throw failure(busy, sql: nil) }
    }

    deinit {
        statements.removeAll()  // finalize before closing
        sqlite3_close_v2(handle)
    }

    /// The cached statement for `sql`, prepared on first use.
    func statement(_ sql: String) throws(StateStoreError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try Statement(database: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs a statement that returns no rows (or whose rows are not wanted).
    func run(_ sql: String, bind: (Statement) throws(StateStoreError) -> Void = { _ in }) throws(StateStoreError) {
        let statement = try statement(sql)
        defer { statement.reset() }
        try bind(statement)
        while try statement.step() {}
    }

    /// Runs a query, calling `row` for each row with the statement standing on it.
    func query(
        _ sql: String, bind: (Statement) throws(StateStoreError) -> Void = { _ in },
        row: (Statement) throws(StateStoreError) -> Void
    ) throws(StateStoreError) {
        let statement = try statement(sql)
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
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw Self.error(SQLiteFailure(code: sqlite3_extended_errcode(handle), message: text, sql: sql))
        }
    }

    /// Runs `body` in a write transaction taken with `BEGIN IMMEDIATE`, so the write lock is had
    /// (or the busy error raised) before anything is read. Any error rolls everything back.
    func writeTransaction<T>(_ body: () throws(StateStoreError) -> T) throws(StateStoreError) -> T {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? run("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` in a read transaction, so several queries see one snapshot.
    func readTransaction<T>(_ body: () throws(StateStoreError) -> T) throws(StateStoreError) -> T {
        try run("BEGIN")
        defer { try? run("COMMIT") }
        return try body()
    }

    /// The error for a failed call, with SQLite's extended code and message.
    func failure(_ code: Int32, sql: String?) -> StateStoreError {
        let extended = sqlite3_extended_errcode(handle)
        let message = String(cString: sqlite3_errmsg(handle))
        // The connection's code may be stale when the failure came from a call that does not set
        // it; prefer it only when it agrees with what the call returned.
        let reported = extended & 0xFF == code & 0xFF ? extended : code
        return Self.error(SQLiteFailure(code: reported, message: message, sql: sql))
    }

    /// Busy and locked mean "retry later"; everything else that SQLite reports here is damage or
    /// an I/O failure (disk full, read-only file, corrupt page, not a database).
    static func error(_ failure: SQLiteFailure) -> StateStoreError {
        switch failure.code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: .busy(failure)
        default: .damaged(failure)
        }
    }
}
