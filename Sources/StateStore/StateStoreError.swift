/// Every failure of the StateStore API. Each case matches one exit status of `statectl`
/// (see ``exitCode``), so a host and a script see the same distinctions.
public enum StateStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An expected revision did not match the window's current one; nothing was written.
    case conflict(session: String, window: String, expected: Int, actual: Int)
    /// Bad data: an id, a route, JSON, a limit exceeded, an over-pop, an import document.
    case invalidInput(String)
    /// The file is a SQLite database that is not a StateStore; it was left untouched.
    case notOurs(path: String)
    /// A session, window, revision or file that does not exist.
    case notFound(String)
    /// The file is not a database, is damaged, or an I/O operation failed.
    case damaged(SQLiteFailure)
    /// The database stayed locked by another connection past the busy timeout; retry later.
    case busy(SQLiteFailure)
    /// The file's schema is newer than this build knows; it was left untouched.
    case newerSchema(path: String, found: Int, supported: Int)
    /// A file to be created exists already (a backup's target); nothing was written.
    case alreadyExists(String)

    /// The `statectl` exit status for this error (sysexits.h values).
    public var exitCode: Int32 {
        switch self {
        case .conflict: 1
        case .invalidInput, .notOurs: 65
        case .notFound: 66
        case .damaged: 74
        case .busy: 75
        case .newerSchema: 78
        case .alreadyExists: 73
        }
    }

    public var description: String {
        switch self {
        case let .conflict(session, window, expected, actual):
            "window '\(session)' '\(window)' is at revision \(actual), not \(expected); nothing was written"
        case let .invalidInput(message):
            message
        case let .notOurs(path):
            "\(path) is a SQLite database that does not belong to StateStore; it was left untouched"
        case let .notFound(message):
            message
        case let .damaged(failure):
            failure.description
        case let .busy(failure):
            "database is busy (locked by another connection past the busy timeout): \(failure.message)"
        case let .newerSchema(path, found, supported):
            "\(path) has schema version \(found), newer than this build's \(supported); upgrade statectl"
        case let .alreadyExists(message):
            message
        }
    }
}

/// What SQLite reported for a failed call: its extended result code, its message and the SQL.
public struct SQLiteFailure: Hashable, Sendable, CustomStringConvertible {
    /// SQLite's extended result code (`SQLITE_IOERR_WRITE`, `SQLITE_CORRUPT`, ...).
    public var code: Int32
    /// SQLite's message, or ours when the failure was found before SQLite was called.
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    public var description: String {
        var text = message
        if code != 0 { text += " (SQLite code \(code))" }
        if let sql { text += " in: \(sql)" }
        return text
    }
}
