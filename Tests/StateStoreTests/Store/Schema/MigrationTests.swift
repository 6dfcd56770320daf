import Foundation
import StateStore
import Testing

struct MigrationTests {
    /// The repository: the nearest folder above this file that holds `Package.swift`, wherever
    /// the file sits among the tests' folders.
    static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/"
            && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()
    static let migrationsFolder = root.appendingPathComponent("Migrations")

    @Test func embeddedMigrationsAreExactlyTheFolder() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.migrationsFolder.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        let embedded = WindowStore.schemaMigrations
        #expect(embedded.map { String(format: "%04d_%@.sql", $0.version, $0.name) } == files)
        for (migration, file) in zip(embedded, files) {
            let text = try String(contentsOf: Self.migrationsFolder.appendingPathComponent(file), encoding: .utf8)
            #expect(migration.sql == text.replacingOccurrences(of: "\r\n", with: "\n"), "\(file)")
        }
        #expect(embedded.map(\.version) == Array(1...embedded.count))
        #expect(WindowStore.schemaVersion == embedded.count)
    }

    /// The committed Swift form is exactly what the generator writes from the folder today: a
    /// migration added, edited or renamed without running `Scripts/embed-migrations.sh` fails here.
    @Test func committedEmbeddingIsTheGeneratorsOutput() throws {
        let root = Self.root
        let committed = root.appendingPathComponent("Sources/StateStore/Store/Schema/EmbeddedMigrations.swift")
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.migrationsFolder.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
            .map { Self.migrationsFolder.appendingPathComponent($0).path }
        let folder = TemporaryFolder()
        let generated = folder.file("EmbeddedMigrations.swift")
        let embedder = builtBinary("StateStoreMigrationEmbedder", environment: "MIGRATION_EMBEDDER")
        let status = try spawnAndWait(
            embedder, [generated] + files, environment: [:], stdout: .discarded, stderr: .discarded)
        #expect(status == 0)
        let expected = try #require(contents(generated))
        #expect(
            contents(committed.path) == expected,
            "Sources/StateStore/Store/Schema/EmbeddedMigrations.swift differs from Migrations/*.sql: run Scripts/embed-migrations.sh"
        )
    }

    @Test func newStoreRecordsEveryMigration() throws {
        let folder = TemporaryFolder()
        let path = folder.file("new.db")
        let store = try WindowStore(path: path)
        let status = try store.migrationStatus()
        #expect(status.schemaVersion == WindowStore.schemaVersion)
        #expect(status.applied.map(\.version) == Array(1...WindowStore.schemaVersion))
        #expect(status.pending.isEmpty)
        #expect(try rawQuery(path, "PRAGMA user_version") == [String(WindowStore.schemaVersion)])
        #expect(try rawQuery(path, "PRAGMA application_id") == [String(0x5353_5452)])
        #expect(try rawQuery(path, "PRAGMA journal_mode") == ["wal"])
        #expect(try store.check().isOK)
        #expect(try store.migrate().isEmpty, "nothing left to apply")
    }

    @Test func olderSchemaIsReportedThenMigrated() throws {
        let folder = TemporaryFolder()
        let path = folder.file("old.db")
        // The state an older build leaves: migrations up to N-1 (none at all when N is 1, which
        // is a new store's state).
        let old = WindowStore.schemaMigrations.dropLast()
        var sql = "PRAGMA journal_mode = WAL;"
        for migration in old {
            sql += "BEGIN;\(migration.sql);"
            sql += "INSERT INTO schema_migrations VALUES (\(migration.version), '\(migration.name)', 'x', 0);"
            sql += "PRAGMA user_version = \(migration.version); PRAGMA application_id = \(0x5353_5452); COMMIT;"
        }
        try rawSQL(path, sql)

        var inspect = WindowStore.Options()
        inspect.migrate = false
        inspect.createIfMissing = false
        let before = try WindowStore(path: path, options: inspect)
        let status = try before.migrationStatus()
        #expect(status.schemaVersion == old.count)
        #expect(status.pending.map(\.version) == [WindowStore.schemaVersion])
        #expect(throws: StateStoreError.self, "an unmigrated store is inspect-only") {
            try before.windowSummaries()
        }
        #expect(try rawQuery(path, "PRAGMA user_version") == [String(old.count)], "inspecting changed nothing")
        let applied = try before.migrate()
        #expect(applied.map(\.version) == [WindowStore.schemaVersion])
        #expect(try before.windowSummaries().isEmpty)
        #expect(try rawQuery(path, "PRAGMA user_version") == [String(WindowStore.schemaVersion)])
    }

    @Test func checkSeesAnEditedMigration() throws {
        let folder = TemporaryFolder()
        let path = folder.file("edited.db")
        _ = try WindowStore(path: path)
        try rawSQL(path, "UPDATE schema_migrations SET checksum = 'deadbeef' WHERE version = 1")
        let report = try WindowStore(path: path).check()
        #expect(report.integrity == ["ok"])
        #expect(report.schemaProblems.count == 1)
        #expect(!report.isOK)
    }
}
