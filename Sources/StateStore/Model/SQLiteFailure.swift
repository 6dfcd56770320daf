/// What SQLite reported for a failed call: its extended result code, its message and the SQL.
public struct SQLiteFailure: Hashable, Sendable, CustomStringConvertible {
    /// SQLite's extended result code (``SQLiteResultCode/ioErrShortRead``, ``SQLiteResultCode/corrupt``, …);
    /// ``SQLiteResultCode/ok`` for a failure the store found itself.
    public var code: SQLiteResultCode
    /// SQLite's message, or ours when the failure was found before SQLite was called.
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?

    /// A failure with SQLite's `code` and `message`, and the statement that failed.
    public init(code: SQLiteResultCode, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The message, the code's number, and the statement.
    public var description: String {
        var text = message
        if code != .ok { text += " (SQLite code \(code.rawValue))" }
        if let sql { text += " in: \(sql)" }
        return text
    }
}

/// A SQLite result code, primary (the low byte) or extended, named as in `sqlite3.h`.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable {
    // The codes below are SQLite's numbers, fixed by its C interface for good, written as numbers
    // so that the model's error values need no C module: only SQLite/ imports it. A test holds each
    // to `sqlite3.h`'s constant.

    /// The number SQLite returns.
    public var rawValue: Int32

    /// The code SQLite returned as `rawValue`.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code of an extended one (`SQLITE_IOERR` of `SQLITE_IOERR_SHORT_READ`).
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    /// `SQLITE_OK`: no failure; on an ``SQLiteFailure``, one the store found itself.
    public static let ok = SQLiteResultCode(rawValue: 0)
    /// `SQLITE_ERROR`: a generic error (an SQL or schema problem).
    public static let error = SQLiteResultCode(rawValue: 1)
    /// `SQLITE_PERM`: access permission denied.
    public static let perm = SQLiteResultCode(rawValue: 3)
    /// `SQLITE_BUSY`: another connection holds the lock.
    public static let busy = SQLiteResultCode(rawValue: 5)
    /// `SQLITE_LOCKED`: a table is locked by this connection's own statements.
    public static let locked = SQLiteResultCode(rawValue: 6)
    /// `SQLITE_NOMEM`: an allocation failed.
    public static let noMem = SQLiteResultCode(rawValue: 7)
    /// `SQLITE_READONLY`: an attempt to write a read-only database.
    public static let readOnly = SQLiteResultCode(rawValue: 8)
    /// `SQLITE_INTERRUPT`: the operation was interrupted (a host's background time ran out).
    public static let interrupt = SQLiteResultCode(rawValue: 9)
    /// `SQLITE_IOERR`: the operating system reported an I/O error.
    public static let ioErr = SQLiteResultCode(rawValue: 10)
    /// `SQLITE_CORRUPT`: the database file is malformed.
    public static let corrupt = SQLiteResultCode(rawValue: 11)
    /// `SQLITE_FULL`: the disk (or the database's page limit) is full.
    public static let full = SQLiteResultCode(rawValue: 13)
    /// `SQLITE_CANTOPEN`: the file cannot be opened.
    public static let cantOpen = SQLiteResultCode(rawValue: 14)
    /// `SQLITE_CONSTRAINT`: a constraint was violated.
    public static let constraint = SQLiteResultCode(rawValue: 19)
    /// `SQLITE_MISUSE`: the library was used wrongly.
    public static let misuse = SQLiteResultCode(rawValue: 21)
    /// `SQLITE_NOTADB`: the file is not a database.
    public static let notADatabase = SQLiteResultCode(rawValue: 26)
    /// `SQLITE_IOERR_SHORT_READ`: a read returned fewer bytes than asked for.
    public static let ioErrShortRead = SQLiteResultCode(rawValue: 10 | 2 << 8)
    /// `SQLITE_READONLY_DBMOVED`: the database file was moved, replaced or deleted while open.
    public static let readOnlyDatabaseMoved = SQLiteResultCode(rawValue: 8 | 4 << 8)
    /// `SQLITE_BUSY_SNAPSHOT`: what was read is no longer the file's state (a reader without
    /// locks found the file written meanwhile).
    static let busySnapshot = SQLiteResultCode(rawValue: 5 | 2 << 8)
}
