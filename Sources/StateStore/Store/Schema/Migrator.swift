/// Applies migrations in order, each in its own `BEGIN IMMEDIATE` transaction together with its
/// record in `schema_migrations` and the new `user_version`, so a failed migration leaves the
/// previous schema and data as they were. Safe against another process migrating at once: each
/// step re-reads `user_version` under the write lock.
package struct Migrator {
    /// `PRAGMA application_id` of a store file: "SSTR".
    package static let applicationID: Int32 = 0x5353_5452

    let migrations: [Migration]

    package init(migrations: [Migration] = Migration.embedded) {
        self.migrations = migrations
    }

    var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Applies what is pending and returns what this call applied.
    package func migrate(_ database: Database, clock: () -> Timestamp) throws(StateStoreError) -> [Migration] {
        var applied: [Migration] = []
        for migration in migrations {
            // Read first, outside any write: a file that is up to date is never write-locked, so
            // a host writing at the time does not make `migrate` (or any open) busy.
            guard try database.integer("PRAGMA user_version") ?? 0 < migration.version else { continue }
            let didApply = try database.writeTransaction { () throws(StateStoreError) -> Bool in
                let current = try database.integer("PRAGMA user_version") ?? 0
                guard current < migration.version else { return false }
                guard current == migration.version - 1 else {
                    throw .damaged(
                        SQLiteFailure(
                            code: .ok,
                            message: "schema version \(current) cannot take migration \(migration.version)"))
                }
                do throws(StateStoreError) {
                    try database.execute(migration.sql)
                } catch {
                    throw Self.failure(of: migration, error)
                }
                try database.run(
                    "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)"
                ) {
                    statement throws(StateStoreError) in
                    try statement.bind(1, migration.version)
                    try statement.bind(2, migration.name)
                    try statement.bind(3, migration.checksum)
                    try statement.bind(4, clock().millisecondsSince1970)
                }
                if migration.version == 1 {
                    try database.execute("PRAGMA application_id = \(Self.applicationID)")
                }
                try database.execute("PRAGMA user_version = \(migration.version)")
                return true
            }
            if didApply { applied.append(migration) }
        }
        return applied
    }

    /// A migration's failure, named (`0003_name`) with SQLite's reason: a whole migration's SQL
    /// would bury the reason in a page of text.
    private static func failure(of migration: Migration, _ error: StateStoreError) -> StateStoreError {
        let name = MigrationInfo(version: migration.version, name: migration.name)
        switch error {
        case .damaged(let failure):
            return .damaged(SQLiteFailure(code: failure.code, message: "migration \(name) failed: \(failure.message)"))
        case .io(let failure):
            return .io(SQLiteFailure(code: failure.code, message: "migration \(name) failed: \(failure.message)"))
        case .busy(let failure):
            return .busy(SQLiteFailure(code: failure.code, message: "migration \(name) failed: \(failure.message)"))
        default:
            return error
        }
    }

    /// The database's migration state, read without changing anything.
    func status(_ database: Database) throws(StateStoreError) -> MigrationStatus {
        let version = try database.integer("PRAGMA user_version") ?? 0
        var applied: [MigrationInfo] = []
        if try database.integer("SELECT count(*) FROM sqlite_schema WHERE name = 'schema_migrations'") == 1 {
            try database.query("SELECT version, name FROM schema_migrations ORDER BY version") {
                statement throws(StateStoreError) in
                applied.append(MigrationInfo(version: statement.int(0), name: statement.text(1)))
            }
        }
        return MigrationStatus(
            schemaVersion: version, latestVersion: latestVersion, applied: applied,
            pending: migrations.filter { $0.version > version }.map {
                MigrationInfo(version: $0.version, name: $0.name)
            })
    }

    /// Schema problems: applied migrations whose record differs from this build's, and a version
    /// that disagrees with the record.
    func problems(_ database: Database) throws(StateStoreError) -> [String] {
        var problems: [String] = []
        let version = try database.integer("PRAGMA user_version") ?? 0
        if version == 0 { return [] }
        let applicationID = try database.integer("PRAGMA application_id") ?? 0
        if applicationID != Int(Self.applicationID) {
            problems.append("application_id is \(applicationID), not StateStore's \(Self.applicationID)")
        }
        var recorded: [Int: (name: String, checksum: String)] = [:]
        try database.query("SELECT version, name, checksum FROM schema_migrations") {
            statement throws(StateStoreError) in
            recorded[statement.int(0)] = (statement.text(1), statement.text(2))
        }
        for migration in migrations where migration.version <= version {
            guard let record = recorded[migration.version] else {
                problems.append("migration \(migration.version) (\(migration.name)) is not recorded as applied")
                continue
            }
            if record.name != migration.name || record.checksum != migration.checksum {
                problems.append(
                    "migration \(migration.version) was applied as '\(record.name)' with checksum \(record.checksum); this build has '\(migration.name)' with \(migration.checksum)"
                )
            }
        }
        return problems
    }
}
