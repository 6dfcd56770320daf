/// How a ``WindowState`` maps onto the columns of `windows` and `window_history`: the same
/// column order in both, routes as minified JSON text.
package enum WindowRow {
    /// The columns, in the order ``decode(_:)`` reads them.
    package static let columns =
        "session, window, size_class, path, item, item_path, policy, revision, updated_at, "
        + "column_visibility, preferred_compact_column, selected_tab"

    /// ``columns`` as the schemas before 6 have them: the last three, which they lack, as a new
    /// window has them (all NULL in a deletion of the change log, which has no revision).
    static let columnsBeforeSchema6 =
        "session, window, size_class, path, item, item_path, policy, revision, updated_at, "
        + "iif(revision IS NULL, NULL, 'automatic'), NULL, NULL"
    /// The columns of ``columns`` holding routes: what a window's size in memory comes from.
    static let pathColumn: Int32 = 3
    static let itemColumn: Int32 = 4
    static let itemPathColumn: Int32 = 5

    /// Reads a row selected with ``columns``, starting at column `first`. Text the store wrote is
    /// not validated again, only parsed; a row it cannot parse is damage. A `session` or `window`
    /// the row was selected by is taken as it is: SQLite matched it byte for byte.
    static func decode(
        _ statement: Statement, from first: Int32 = 0, session: String? = nil, window: String? = nil
    ) throws(StateStoreError) -> WindowState {
        let column = { (index: Int32) in first + index }
        let session = session ?? statement.withText(column(0)) { statement.reading.sessions.string($0) }
        let window = window ?? statement.withText(column(1)) { statement.reading.windows.string($0) }
        // Every column is read into a local and the state built once at the end: a state built
        // first and filled in was copied and destroyed again on the way (about 300 instructions).
        let sizeClass: SizeClass
        let policy: SizeChangePolicy
        let columnVisibility: ColumnVisibility
        let preferredCompactColumn: SplitViewColumn?
        let path: [Route]
        let item: Route?
        let itemPath: [Route]
        do throws(JSONReader.Failure) {
            guard let storedClass = statement.withText(column(2), SizeClass.init(utf8:)),
                let storedPolicy = statement.withText(column(6), SizeChangePolicy.init(utf8:))
            else { throw JSONReader.Failure(message: "unknown size class or policy", offset: 0) }
            guard let storedVisibility = statement.withText(column(9), ColumnVisibility.init(utf8:)) else {
                throw JSONReader.Failure(message: "unknown column visibility", offset: 0)
            }
            if statement.isNull(column(10)) {
                preferredCompactColumn = nil
            } else {
                guard let storedColumn = statement.withText(column(10), SplitViewColumn.init(utf8:)) else {
                    throw JSONReader.Failure(message: "unknown preferred compact column", offset: 0)
                }
                preferredCompactColumn = storedColumn
            }
            sizeClass = storedClass
            policy = storedPolicy
            columnVisibility = storedVisibility
            path = try routes(statement, column(3))
            item = try self.item(statement, column(4))
            itemPath = try routes(statement, column(5))
        } catch {
            throw unreadable(session, window, error, statement)
        }
        let revision = try revision(statement, column(7), (session, window))
        let updatedAt = try updatedAt(statement, column(8), (session, window))
        let selectedTab = statement.isNull(column(11)) ? nil : statement.text(column(11))
        var state = WindowState(
            session: session, window: window,
            content: WindowContent(
                sizeClass: sizeClass, path: path, item: item, itemPath: itemPath, policy: policy,
                columnVisibility: columnVisibility, preferredCompactColumn: preferredCompactColumn,
                selectedTab: selectedTab))
        state.revision = revision
        state.updatedAt = updatedAt
        return state
    }

    /// Reads a row of the listing query: `session, window, size_class, json_array_length(path),
    /// item, revision, updated_at`; the path is counted by SQLite, not parsed. Checked as
    /// ``ListedWindow/init(_:)`` checks it, with the same calls, but built into strings at once.
    static func decodeSummary(_ statement: Statement) throws(StateStoreError) -> WindowSummary {
        let session = statement.withText(0) { statement.reading.sessions.string($0) }
        let window = statement.withText(1) { statement.reading.windows.string($0) }
        guard let sizeClass = statement.withText(2, SizeClass.init(utf8:)) else {
            throw damaged("stored window '\(session)' '\(window)' has an unknown size class", statement)
        }
        let item: Route?
        do {
            item = try self.item(statement, 4)
        } catch {
            throw unreadable(session, window, error, statement)
        }
        return WindowSummary(
            session: session, window: window, sizeClass: sizeClass, depth: statement.int(3), item: item,
            revision: try revision(statement, 5, (session, window)),
            updatedAt: try updatedAt(statement, 6, (session, window)))
    }

    /// The item column: a route, or `nil` for NULL. The one place it is decoded.
    static func item(_ statement: Statement, _ column: Int32) throws(JSONReader.Failure) -> Route? {
        // Only a NULL item, or a failed allocation, gives no text: its type is asked only then.
        try statement.withText(column) { bytes throws(JSONReader.Failure) -> Route? in
            if bytes.baseAddress == nil && statement.isNull(column) { return nil }
            var reader = JSONReader(bytes)
            let route = try reader.readStoredRoute()
            try reader.expectEnd()
            return route
        }
    }

    /// A route column (`path`, `item_path`): an array of routes.
    private static func routes(_ statement: Statement, _ column: Int32) throws(JSONReader.Failure) -> [Route] {
        try statement.withText(column) { bytes throws(JSONReader.Failure) in
            var reader = JSONReader(bytes)
            let routes = try reader.readStoredRoutes(&statement.reading.spans)
            try reader.expectEnd()
            return routes
        }
    }

    /// A row of `session, window, path` whose path SQLite could not count the routes of, as an
    /// error naming it with what the store's reader finds wrong (SQLite's reason where the reader
    /// finds nothing), and the SQL of `failure`, the listing it stopped.
    static func unreadablePath(_ statement: Statement, _ failure: SQLiteFailure) -> StateStoreError {
        var problem = failure.message
        do { _ = try routes(statement, 2) } catch { problem = error.description }
        let session = statement.withText(0) { String(decoding: $0, as: UTF8.self) }
        let window = statement.withText(1) { String(decoding: $0, as: UTF8.self) }
        return .damaged(
            SQLiteFailure(
                code: .corrupt,
                message: "stored window '\(session)' '\(window)' has a path that cannot be read: \(problem)",
                sql: failure.sql))
    }

    /// A row whose JSON does not parse, or whose size class, policy, column visibility or
    /// preferred compact column is unknown.
    static func unreadable(
        _ session: String, _ window: String, _ failure: JSONReader.Failure, _ statement: Statement
    ) -> StateStoreError {
        damaged("stored window '\(session)' '\(window)' cannot be read: \(failure.description)", statement)
    }

    /// A stored revision: a whole number ≥ 1. Anything else (text a writer by hand put there,
    /// which SQLite's `CHECK (revision >= 1)` lets through) is damage, never read as a number.
    static func revision(
        _ statement: Statement, _ column: Int32, _ names: @autoclosure () -> (session: String, window: String)
    ) throws(StateStoreError) -> Int {
        guard let revision = statement.exactInt64(column), revision >= 1 else {
            throw damaged(
                "stored window '\(names().session)' '\(names().window)' has revision \(statement.literal(column)), not a whole number ≥ 1",
                statement)
        }
        return Int(revision)
    }

    /// A stored time stamp: an integer of milliseconds (any, however far from now).
    static func updatedAt(
        _ statement: Statement, _ column: Int32, _ names: @autoclosure () -> (session: String, window: String)
    ) throws(StateStoreError) -> Timestamp {
        guard let milliseconds = statement.exactInt64(column) else {
            throw damaged(
                "stored window '\(names().session)' '\(names().window)' has updated_at \(statement.literal(column)), not milliseconds",
                statement)
        }
        return Timestamp(millisecondsSince1970: milliseconds)
    }

    /// A row the store cannot use: damage in the file, whoever wrote it.
    static func damaged(_ message: String, _ statement: Statement) -> StateStoreError {
        .damaged(SQLiteFailure(code: .corrupt, message: message, sql: statement.sql))
    }

    /// The JSON columns of a row to write (`path`, `item`, `item_path`), written into one buffer
    /// that is bound in place, not copied by SQLite.
    struct Content {
        let bytes: [UInt8]
        private let path: Range<Int>
        private let item: Range<Int>?
        private let itemPath: Range<Int>

        init(_ state: WindowState) {
            var writer = JSONWriter()
            state.path.write(to: &writer)
            path = 0..<writer.bytes.count
            // Each column is a whole value at the top level, so the next one follows without a comma.
            if let stateItem = state.item {
                let start = writer.bytes.count
                stateItem.write(to: &writer)
                item = start..<writer.bytes.count
            } else {
                item = nil
            }
            let start = writer.bytes.count
            state.itemPath.write(to: &writer)
            itemPath = start..<writer.bytes.count
            bytes = writer.bytes
        }

        /// Binds `state` to parameters 3–12 in ``WindowRow/columns`` order (the key, 1 and 2, is
        /// bound by the caller), the JSON columns from `bytes`, this content's ``bytes`` lent.
        func bind(
            _ state: WindowState, _ bytes: UnsafeBufferPointer<UInt8>, to statement: Statement
        ) throws(StateStoreError) {
            try statement.bind(3, borrowing: state.sizeClass.storedName)
            try statement.bind(4, borrowing: UnsafeBufferPointer(rebasing: bytes[path]))
            if let item {
                try statement.bind(5, borrowing: UnsafeBufferPointer(rebasing: bytes[item]))
            } else {
                try statement.bind(5, nil as String?)
            }
            try statement.bind(6, borrowing: UnsafeBufferPointer(rebasing: bytes[itemPath]))
            try statement.bind(7, borrowing: state.policy.storedName)
            try statement.bind(8, state.revision)
            try statement.bind(9, state.updatedAt.millisecondsSince1970)
            try statement.bind(10, borrowing: state.columnVisibility.storedName)
            if let column = state.preferredCompactColumn {
                try statement.bind(11, borrowing: column.storedName)
            } else {
                try statement.bind(11, nil as String?)
            }
            try statement.bind(12, state.selectedTab)
        }
    }
}
