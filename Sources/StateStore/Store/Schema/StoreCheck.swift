/// What `check` looks at beyond SQLite's integrity check: the schema against what this build's
/// migrations create, and every row of every table decoded strictly, as the store would need to
/// read it. Read-only: it runs inside the caller's read transaction.
enum StoreCheck {
    /// Problems listed per table; past this many, a count of the rest (a million bad rows would
    /// bury the report).
    static let problemsListedPerTable = 100

    // MARK: Schema

    /// One row of `sqlite_schema`.
    struct SchemaObject: Hashable {
        var type: String
        var name: String
        var table: String
        var sql: String?
    }

    /// The objects of `database` that differ from those the first `version` migrations create in
    /// an empty database, each named: missing, not ours, or defined otherwise.
    static func schemaProblems(_ database: Database, version: Int) throws(StateStoreError) -> [String] {
        let expected = try referenceSchema(version: version)
        let found = try schemaObjects(database)
        var problems: [String] = []
        for object in expected.values.sorted(by: { $0.name < $1.name }) {
            guard let actual = found[object.name] else {
                problems.append("\(object.type) \(object.name) is missing (this build's migrations create it)")
                continue
            }
            if actual != object {
                problems.append(
                    "\(actual.type) \(actual.name) differs from the \(object.type) this build's migrations create")
            }
        }
        for object in found.values.sorted(by: { $0.name < $1.name }) where expected[object.name] == nil {
            problems.append("\(object.type) \(object.name) is not part of this build's schema")
        }
        return problems
    }

    /// What the migrations up to `version` make of an empty database, made now, in memory.
    private static func referenceSchema(version: Int) throws(StateStoreError) -> [String: SchemaObject] {
        let reference = try Database(path: DatabasePath.inMemory, create: true, busyTimeoutMilliseconds: 0)
        let migrations = Array(Migration.embedded.prefix(max(0, version)))
        _ = try Migrator(migrations: migrations).migrate(reference) { Timestamp(millisecondsSince1970: 0) }
        return try schemaObjects(reference)
    }

    private static func schemaObjects(_ database: Database) throws(StateStoreError) -> [String: SchemaObject] {
        var objects: [String: SchemaObject] = [:]
        // ANALYZE's statistics tables are SQLite's own, made by hand or by `PRAGMA optimize`.
        try database.query(
            "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_stat%' ESCAPE '\\'"
        ) { statement throws(StateStoreError) in
            let object = SchemaObject(
                type: statement.text(0), name: statement.text(1), table: statement.text(2),
                sql: statement.strictText(3))
            objects[object.name] = object
        }
        return objects
    }

    // MARK: Rows

    /// Every row of the store's tables that the store could not read as it writes them, named
    /// (the window, the revision, the change); tables the schema check found missing are skipped.
    /// A file of an older schema (`version`, not migrated) is read in its own columns.
    static func rowProblems(_ database: Database, version: Int) throws(StateStoreError) -> [String] {
        var tables: Set<String> = []
        try database.query("SELECT name FROM sqlite_schema WHERE type = 'table'") { statement throws(StateStoreError) in
            tables.insert(statement.text(0))
        }
        var problems: [String] = []
        // Schema 6 moved the selected tab from the scene facts into the state.
        let columns = version >= 6 ? WindowRow.columns : WindowRow.columnsBeforeSchema6
        let sceneTab = version >= 6 ? "NULL" : "selected_tab"
        let checks: [(table: String, sql: String, check: (Statement) -> String?)] = [
            ("schema_migrations", "SELECT version, name, checksum, applied_at FROM schema_migrations", migrationRecord),
            ("windows", "SELECT \(columns) FROM windows", { window($0, from: 0, in: "window") }),
            (
                "window_history", "SELECT revision, \(columns) FROM window_history",
                { statement in
                    window(statement, from: 1, in: "history of window", revision: statement.literal(0))
                }
            ),
            ("changes", "SELECT seq, revision IS NULL, \(columns) FROM changes", change),
            ("window_scenes", "SELECT session, window, kind, focused_at, \(sceneTab) FROM window_scenes", scene),
            ("sqlite_sequence", "SELECT name, seq FROM sqlite_sequence", sequence),
        ]
        for (table, sql, check) in checks where tables.contains(table) {
            var count = 0
            do {
                try database.query(sql) { statement throws(StateStoreError) in
                    guard let problem = check(statement) else { return }
                    count += 1
                    if count <= problemsListedPerTable { problems.append(problem) }
                }
            } catch {
                problems.append("table \(table) cannot be read through: \(error.readingFailure)")
            }
            if count > problemsListedPerTable {
                problems.append("… and \(count - problemsListedPerTable) more rows of \(table) like these")
            }
        }
        return problems
    }

    /// A row of `windows` (or of `window_history`, from column `first`) that is not a valid
    /// window state, or `nil`.
    // Each check asks a column's type before anything reads it as text: once SQLite has converted
    // a value (a blob read as text), its type is no longer known. The row is named afterwards.

    private static func window(
        _ statement: Statement, from first: Int32, in what: String, revision: String? = nil
    ) -> String? {
        guard let problem = WindowRow.problem(statement, from: first) else { return nil }
        let name = "\(what) '\(statement.text(first))' '\(statement.text(first + 1))'"
        return name + (revision.map { ", revision \($0)" } ?? "") + ": " + problem
    }

    private static func change(_ statement: Statement) -> String? {
        guard let problem = statement.int(1) == 1 ? deletionProblem(statement) : WindowRow.problem(statement, from: 2)
        else { return nil }
        return "change \(statement.literal(0)) (window '\(statement.text(2))' '\(statement.text(3))'): " + problem
    }

    /// A deletion in the log has its ids and nothing else.
    private static func deletionProblem(_ statement: Statement) -> String? {
        for (offset, column) in ["session", "window"].enumerated() where statement.strictText(Int32(2 + offset)) == nil
        {
            return "\(column) is \(statement.literal(Int32(2 + offset))), not UTF-8 text"
        }
        let stateColumns = [
            "size_class", "path", "item", "item_path", "policy", "revision", "updated_at", "column_visibility",
            "preferred_compact_column", "selected_tab",
        ]
        for (offset, column) in stateColumns.enumerated() where !statement.isNull(Int32(4 + offset)) {
            return "a deletion, but its \(column) is \(statement.literal(Int32(4 + offset)))"
        }
        return nil
    }

    /// A row of `window_scenes` whose ids or kind the store would refuse (or its tab, in a file of
    /// a schema before 6), or whose time is not milliseconds.
    private static func scene(_ statement: Statement) -> String? {
        func problem() -> String? {
            // Column, name, what an error calls it, its limit, and whether it may be NULL.
            let texts: [(Int32, String, String, ClosedRange<Int>, Bool)] = [
                (0, "session", "session id", Limits.identifierBytes, false),
                (1, "window", "window id", Limits.identifierBytes, false),
                (2, "kind", "kind", Limits.kindBytes, true),
                (4, "selected_tab", "selected tab", Limits.identifierBytes, true),
            ]
            for (column, name, what, bytes, optional) in texts where !(optional && statement.isNull(column)) {
                guard let text = statement.strictText(column) else {
                    return "\(name) is \(statement.literal(column)), not UTF-8 text"
                }
                do throws(StateStoreError) {
                    try validateIdentifier(text, what, bytes: bytes)
                } catch {
                    return error.description
                }
            }
            if !statement.isNull(3) && statement.exactInt64(3) == nil {
                return "focused_at is \(statement.literal(3)), not milliseconds"
            }
            return nil
        }
        guard let problem = problem() else { return nil }
        return "scene of window '\(statement.text(0))' '\(statement.text(1))': " + problem
    }

    private static func migrationRecord(_ statement: Statement) -> String? {
        let problem: String
        if let version = statement.exactInt64(0), version >= 1 {
            if statement.strictText(1) == nil {
                problem = "name is \(statement.literal(1)), not UTF-8 text"
            } else if let checksum = statement.strictText(2), checksum.utf8.count == 16,
                checksum.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            {
                guard statement.exactInt64(3) == nil else { return nil }
                problem = "applied_at is \(statement.literal(3)), not milliseconds"
            } else {
                problem = "checksum is \(statement.literal(2)), not 16 hex digits"
            }
        } else {
            problem = "version is not a whole number ≥ 1"
        }
        return "migration record \(statement.literal(0)): \(problem)"
    }

    private static func sequence(_ statement: Statement) -> String? {
        guard let seq = statement.exactInt64(1), seq >= 0 else {
            return "sqlite_sequence of '\(statement.text(0))': seq is \(statement.literal(1)), not a whole number"
        }
        return nil
    }
}

extension WindowRow {
    /// Why a row selected with ``columns`` (from column `first`) is not a window state the store
    /// could have written — a column of the wrong type, an id or route the model refuses, JSON
    /// that does not parse, a value out of range, a limit exceeded — or `nil` when it is one.
    static func problem(_ statement: Statement, from first: Int32) -> String? {
        do {
            try checkStrictly(statement, from: first)
            return nil
        } catch {
            return error.message
        }
    }

    private struct Problem: Error {
        let message: String
    }

    private static func checkStrictly(_ statement: Statement, from first: Int32) throws(Problem) {
        func text(_ index: Int32, _ name: String) throws(Problem) -> String {
            guard let text = statement.strictText(first + index) else {
                throw Problem(message: "\(name) is \(statement.literal(first + index)), not UTF-8 text")
            }
            return text
        }
        func routes(_ index: Int32, _ name: String) throws(Problem) -> [Route] {
            let json = try text(index, name)
            do throws(JSONReader.Failure) {
                return try JSONReader.read(json) { reader throws(JSONReader.Failure) in
                    let routes = try reader.readRoutes()
                    try reader.expectEnd()
                    return routes
                }
            } catch {
                throw Problem(message: "\(name) is not an array of routes: \(error.description)")
            }
        }
        let (session, window) = (try text(0, "session"), try text(1, "window"))
        var content = WindowContent()
        guard let sizeClass = SizeClass(rawValue: try text(2, "size_class")) else {
            throw Problem(message: "size_class is \(statement.literal(first + 2)), not compact, regular or unspecified")
        }
        content.sizeClass = sizeClass
        content.path = try routes(3, "path")
        if !statement.isNull(first + 4) {
            let json = try text(4, "item")
            do throws(JSONReader.Failure) {
                content.item = try JSONReader.read(json) { reader throws(JSONReader.Failure) in
                    let route = try reader.readRoute()
                    try reader.expectEnd()
                    return route
                }
            } catch {
                throw Problem(message: "item is not a route: \(error.description)")
            }
        }
        content.itemPath = try routes(5, "item_path")
        guard let policy = SizeChangePolicy(rawValue: try text(6, "policy")) else {
            throw Problem(message: "policy is \(statement.literal(first + 6)), not migrate or dismiss")
        }
        content.policy = policy
        guard let revision = statement.exactInt64(first + 7), revision >= 1 else {
            throw Problem(message: "revision is \(statement.literal(first + 7)), not a whole number ≥ 1")
        }
        guard statement.exactInt64(first + 8) != nil else {
            throw Problem(message: "updated_at is \(statement.literal(first + 8)), not milliseconds")
        }
        guard let visibility = ColumnVisibility(rawValue: try text(9, "column_visibility")) else {
            let choices = ColumnVisibility.allCases.map(\.rawValue).joined(separator: ", ")
            throw Problem(message: "column_visibility is \(statement.literal(first + 9)), not one of \(choices)")
        }
        content.columnVisibility = visibility
        if !statement.isNull(first + 10) {
            guard let column = SplitViewColumn(rawValue: try text(10, "preferred_compact_column")) else {
                throw Problem(
                    message:
                        "preferred_compact_column is \(statement.literal(first + 10)), not NULL, sidebar, content or detail"
                )
            }
            content.preferredCompactColumn = column
        }
        if !statement.isNull(first + 11) { content.selectedTab = try text(11, "selected_tab") }
        do throws(StateStoreError) {
            try WindowState(session: session, window: window, content: content).validate()
        } catch {
            throw Problem(message: error.description)
        }
    }
}

extension StateStoreError {
    /// SQLite's reason for a failed read, without the query.
    fileprivate var readingFailure: String {
        switch self {
        case .damaged(let failure), .io(let failure), .busy(let failure): failure.message
        default: description
        }
    }
}
