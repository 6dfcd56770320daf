/// Every failure of the WindowStore API, in cases a host can act on without reading the message.
///
/// A call that takes a closure (``StateStore/WindowStore/update(session:window:expectedRevision:_:)``,
/// ``StateStore/WindowStore/forEachWindow(session:sizeClass:_:)``, ``StateStore/WindowStore/export(sessions:to:)``) throws
/// these for its own failures and passes an error the closure threw through unchanged.
public enum StateStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An expected revision did not match the window's current one; nothing was written.
    case conflict(session: String, window: String, expected: Int, actual: Int)
    /// Bad data: an id, a route, JSON, a limit exceeded, an over-pop, an import document.
    case invalidInput(String)
    /// The file is a SQLite database that is not a store of ours; it was left untouched.
    case notOurs(path: String)
    /// A session, window, revision or database file that does not exist.
    case notFound(Missing)
    /// The file is not a SQLite database at all (its header says so); it was left untouched.
    case notADatabase(path: String)
    /// SQLite found the file corrupt after reading its header, or a row or the schema is not what
    /// the store writes (another program wrote it), or a window's revision cannot grow.
    case damaged(SQLiteFailure)
    /// An I/O failure: the disk is full, the file or its folder is read-only, it cannot be opened
    /// (a folder, a device, a path too long, more than one hard link, a file bind-mounted at a
    /// second name), a read or write failed, or the path cannot be looked at now (a folder on the
    /// way unsearchable: nothing was written, and the next write looks again).
    case io(SQLiteFailure)
    /// The file was replaced or deleted while the store had it open. Nothing was written, and this
    /// store stays closed: open a new one for the file now at the path.
    case replaced(path: String)
    /// The database stayed locked by another connection past the busy timeout; retry later.
    case busy(SQLiteFailure)
    /// The file's schema is newer than this build knows; it was left untouched.
    case newerSchema(path: String, found: Int, supported: Int)
    /// A file to be created exists already (a backup's target); nothing was written.
    case alreadyExists(String)
    /// The store was called (the call named) from inside a closure it is running —
    /// `update`'s body, `forEachWindow`'s, `export`'s output — on the same thread, which holds it:
    /// the call would wait for itself. Nothing was done; make the call after the closure returns.
    case reentrantCall(String)

    /// What a ``StateStoreError/notFound(_:)`` did not find.
    public enum Missing: Hashable, Sendable, CustomStringConvertible {
        /// A session with no windows.
        case session(String)
        /// A window of a session.
        case window(session: String, window: String)
        /// A revision the window's history does not keep; `kept` is the range it keeps, if any.
        case revision(session: String, window: String, revision: Int, kept: ClosedRange<Int>?)
        /// The database file (a store opened without ``StateStore/WindowStore/Options/createIfMissing``).
        case file(path: String)

        /// The sentence for people, naming what is missing.
        public var description: String {
            switch self {
            case .session(let session):
                "session '\(session)' not found (it has no windows)"
            case let .window(session, window):
                "window '\(session)' '\(window)' not found"
            case let .revision(session, window, revision, kept):
                "revision \(revision) of window '\(session)' '\(window)' not found (kept: "
                    + (kept.map { "\($0.lowerBound)–\($0.upperBound)" } ?? "none") + ")"
            case .file(let path):
                "no database at \(path)"
            }
        }
    }

    /// The sentence for people: what failed and, where it helps, what to do.
    public var description: String {
        switch self {
        case let .conflict(session, window, expected, actual):
            "window '\(session)' '\(window)' is at revision \(actual), not \(expected); nothing was written"
        case let .invalidInput(message):
            message
        case let .notOurs(path):
            "\(path) is a SQLite database that does not belong to StateStore; it was left untouched"
        case let .notFound(missing):
            missing.description
        case let .notADatabase(path):
            // Worded as before these cases had names, when it was a failure with SQLite's code.
            "\(path) is not a database (SQLite code \(SQLiteResultCode.notADatabase.rawValue))"
        case let .damaged(failure), let .io(failure):
            failure.description
        case let .replaced(path):
            "\(path) was replaced or deleted while open (the path names another file now, or none); "
                + "nothing was written and this connection is closed: open the store again to use the file now "
                + "there. To replace a live store's data use `statectl import`; to copy it, `statectl backup` "
                + "(SQLite code \(SQLiteResultCode.readOnlyDatabaseMoved.rawValue))"
        case let .busy(failure) where failure.code == .busySnapshot:
            failure.message
        case let .busy(failure):
            "database is busy (locked by another connection past the busy timeout): \(failure.message)"
        case let .newerSchema(path, found, supported):
            "\(path) has schema version \(found), newer than this build's \(supported); upgrade statectl"
        case let .alreadyExists(message):
            message
        case let .reentrantCall(call):
            "\(call) was called on the store from inside a closure the store is running (update, forEachWindow "
                + "or export) on the same thread, which holds the store; call it after the closure returns"
        }
    }
}
