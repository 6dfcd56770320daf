/// What ``StateStore/check()`` found.
public struct CheckReport: Hashable, Sendable {
    /// `PRAGMA integrity_check`'s lines: `["ok"]` for a sound file.
    public var integrity: [String]
    /// Schema problems: a migration recorded differently from this build's, a wrong application id.
    public var schemaProblems: [String]
    public var migrations: MigrationStatus

    /// Sound file, known schema.
    public var isOK: Bool { integrity == ["ok"] && schemaProblems.isEmpty }
}

extension StateStore {
    /// Applied and pending migrations, read without changing anything.
    public func migrationStatus() throws(StateStoreError) -> MigrationStatus {
        try connection.withLock { database throws(StateStoreError) in try Migrator().status(database) }
    }

    /// Applies pending migrations and returns those this call applied (none when up to date).
    @discardableResult
    public func migrate() throws(StateStoreError) -> [MigrationInfo] {
        try connection.withLock { database throws(StateStoreError) -> [MigrationInfo] in
            let migrator = Migrator()
            try database.useWAL()
            let applied = try migrator.migrate(database, clock: options.clock)
            database.schemaVersion = migrator.latestVersion
            return applied.map { MigrationInfo(version: $0.version, name: $0.name) }
        }
    }

    /// Runs SQLite's integrity check and compares the recorded migrations with this build's.
    /// Read-only.
    public func check() throws(StateStoreError) -> CheckReport {
        try connection.withLock { database throws(StateStoreError) -> CheckReport in
            var integrity: [String] = []
            try database.query("PRAGMA integrity_check") { statement throws(StateStoreError) in
                integrity.append(statement.text(0))
            }
            let migrator = Migrator()
            return CheckReport(
                integrity: integrity, schemaProblems: try migrator.problems(database),
                migrations: try migrator.status(database))
        }
    }
}
