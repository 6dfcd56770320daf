/// What ``StateStore/WindowStore/check()`` found.
public struct CheckReport: Hashable, Sendable {
    /// `PRAGMA integrity_check`'s lines: `["ok"]` for a sound file.
    public var integrity: [String]
    /// Schema problems: a migration recorded differently from this build's, a wrong application
    /// id, a table, index or trigger missing, changed or not this build's.
    public var schemaProblems: [String]
    /// Rows the store could not read as it writes them, each naming the window, the revision or
    /// the change, and what is wrong.
    public var rowProblems: [String]
    /// The migrations applied and pending.
    public var migrations: MigrationStatus
    /// Pages of the file that hold nothing (SQLite's freelist): what a write gives back to the file
    /// system once they pass a quarter of the file, and a delete at once.
    public var freePages = 0
    /// ``freePages`` in bytes.
    public var freeBytes = 0

    /// Sound file, known schema, every row readable.
    public var isOK: Bool { integrity == ["ok"] && schemaProblems.isEmpty && rowProblems.isEmpty }
}

extension WindowStore {
    /// Applied and pending migrations, read without changing anything.
    public func migrationStatus() throws(StateStoreError) -> MigrationStatus {
        try withConnection { database throws(StateStoreError) in try Migrator().status(database) }
    }

    /// Applies pending migrations and returns those this call applied (none when up to date).
    @discardableResult
    public func migrate() throws(StateStoreError) -> [MigrationInfo] {
        try withConnection { database throws(StateStoreError) -> [MigrationInfo] in
            let migrator = Migrator()
            try database.useWAL()
            let applied = try migrator.migrate(database, clock: options.clock)
            database.schemaVersion = migrator.latestVersion
            try database.useIncrementalVacuum()
            return applied.map { MigrationInfo(version: $0.version, name: $0.name) }
        }
    }

    /// Runs SQLite's integrity check, compares the recorded migrations and the schema with what
    /// this build's migrations create, and decodes every row strictly. Read-only, in one read
    /// transaction: it takes no write lock.
    public func check() throws(StateStoreError) -> CheckReport {
        try withConnection { database throws(StateStoreError) -> CheckReport in
            try database.readTransaction { () throws(StateStoreError) -> CheckReport in try Self.check(database) }
        }
    }

    private static func check(_ database: Database) throws(StateStoreError) -> CheckReport {
        var integrity: [String] = []
        do throws(StateStoreError) {
            try database.query("PRAGMA integrity_check") { statement throws(StateStoreError) in
                integrity.append(statement.text(0))
            }
        } catch .damaged(let failure) where failure.code.primary == .corrupt {
            // Damage bad enough to stop the check itself (a page that is not a b-tree page
            // at all) is its finding, not a failure to check.
            integrity.append(failure.message)
        }
        let migrator = Migrator()
        let status = try migrator.status(database)
        var schemaProblems = try migrator.problems(database)
        do throws(StateStoreError) {
            schemaProblems += try StoreCheck.schemaProblems(database, version: status.schemaVersion)
        } catch .damaged(let failure) {
            schemaProblems.append("the schema cannot be read: \(failure.message)")
        }
        var report = CheckReport(
            integrity: integrity, schemaProblems: schemaProblems,
            rowProblems: try StoreCheck.rowProblems(database, version: status.schemaVersion),
            migrations: status)
        report.freePages = try database.integer("PRAGMA freelist_count") ?? 0
        report.freeBytes = report.freePages * (try database.integer("PRAGMA page_size") ?? 0)
        return report
    }
}
