import Foundation
import StateStore
import Testing

/// A file of the first schema (`Tests/Fixtures/schema1.db`, see its README) upgrades to the
/// current schema with all its data; a migration that fails midway leaves the schema and the
/// data exactly as they were before it.
struct MigrationReliabilityTests {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/schema1.db").path

    /// A copy of the fixture to work on: the committed file is never opened for writing.
    static func copyOfFixture(in folder: TemporaryFolder, _ name: String = "old.db") throws -> String {
        let path = folder.file(name)
        try FileManager.default.copyItem(atPath: fixture, toPath: path)
        return path
    }

    static func at(_ milliseconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: milliseconds) }

    /// What the fixture holds, window by window (see `Tests/Fixtures/schema1.sql`).
    static let expectedWindows: [WindowState] = {
        var inbox = WindowState(
            session: "main", window: "inbox", sizeClass: .regular, path: [route("MailApp.Folder", #""inbox""#)],
            item: route("MailApp.Thread", #"{"id":42}"#),
            itemPath: [route("MailApp.Attachment", #"{"name":"a.pdf","size":1.50e3}"#)])
        inbox.revision = 3
        inbox.updatedAt = at(1_764_460_803_123)
        var compose = WindowState(
            session: "main", window: "compose", sizeClass: .compact,
            item: route("Draft", #"{"to":["a@example.com"],"body":"line\nnext \"quoted\" \u00e9 ✓"}"#), policy: .dismiss
        )
        compose.revision = 1
        compose.updatedAt = at(1_764_460_804_000)
        var unicode = WindowState(
            session: "ünïcødé 🚀", window: "e\u{301}", path: [route("Settings"), route("Tab", #""x y""#)])
        unicode.revision = 2
        unicode.updatedAt = at(1_764_460_805_000)
        var other = WindowState(session: "other", window: "w")
        other.revision = 1
        other.updatedAt = at(1_764_460_806_000)
        return [compose, inbox, other, unicode]
    }()

    @Test func fixtureIsTheFirstSchema() throws {
        #expect(try rawQuery(Self.fixture, "PRAGMA user_version") == ["1"])
        #expect(try rawQuery(Self.fixture, "PRAGMA application_id") == [String(Migrator.applicationID)])
        #expect(
            try rawQuery(Self.fixture, "SELECT version || ' ' || name || ' ' || checksum FROM schema_migrations")
                == ["1 initial \(Migration.embedded[0].checksum)"])
        #expect(try rawQuery(Self.fixture, "PRAGMA integrity_check") == ["ok"])
    }

    @Test func firstSchemaUpgradesWithAllDataIntact() throws {
        let folder = TemporaryFolder()
        let original = try #require(contents(Self.fixture))
        let path = try Self.copyOfFixture(in: folder)

        var inspect = WindowStore.Options()
        inspect.migrate = false
        let status = try WindowStore(path: path, options: inspect).migrationStatus()
        #expect(status.schemaVersion == 1)
        #expect(status.pending.map(\.version) == Array(2..<(WindowStore.schemaVersion + 1)))

        let store = try WindowStore(path: path)
        #expect(try rawQuery(path, "PRAGMA user_version") == [String(WindowStore.schemaVersion)])
        #expect(try store.check().isOK)
        #expect(try store.migrationStatus().applied.map(\.version) == Array(1...WindowStore.schemaVersion))

        var windows: [WindowState] = []
        for summary in try store.windowSummaries() {
            windows.append(try #require(try store.window(session: summary.session, window: summary.window)))
        }
        #expect(windows == Self.expectedWindows)
        // Ids keep their bytes (a decomposed é is not the composed one).
        #expect(windows.map { Array($0.window.utf8) }.last == [0x65, 0xCC, 0x81])
        #expect(try store.window(session: "ünïcødé 🚀", window: "é") == nil)
        // Every kept revision, as it was.
        let inbox = try store.history(session: "main", window: "inbox")
        #expect(inbox.map(\.revision) == [3, 2, 1])
        #expect(inbox.map(\.sizeClass) == [.regular, .regular, .unspecified])
        #expect(inbox[1].path == [route("MailApp.Folder", #""inbox""#)] && inbox[1].item == nil)
        #expect(inbox[2].updatedAt == Self.at(1_764_460_801_000))
        #expect(try store.history(session: "ünïcødé 🚀", window: "e\u{301}").map(\.revision) == [2])
        // And it goes on from there.
        let next = try store.update(session: "main", window: "inbox") { $0.changeSizeClass(to: .compact) }
        #expect(next.revision == 4 && next.item == Self.expectedWindows[1].item)
        #expect(try store.revert(session: "main", window: "inbox", to: 1).sizeClass == .unspecified)
        #expect(contents(Self.fixture) == original, "the fixture itself is untouched")
    }

    /// A migration that makes changes and then fails: each step of the schema's history is tried
    /// as the failing one. The file must be exactly as the steps before it left it.
    @Test(arguments: Array(2...(Migration.embedded.count + 1)))
    func migrationFailingMidwayLeavesPreviousSchemaAndData(failingVersion: Int) throws {
        let folder = TemporaryFolder()
        let clock = { Timestamp(millisecondsSince1970: 1_764_460_900_000) }
        let before = Array(Migration.embedded.prefix(failingVersion - 1))

        // What the steps before the failing one make of the fixture.
        let reference = try Self.copyOfFixture(in: folder, "reference.db")
        do {
            let database = try Database(path: reference, create: false, busyTimeoutMilliseconds: 1000)
            _ = try Migrator(migrations: before).migrate(database, clock: clock)
        }
        let expected = try rawDump(reference)

        let broken = Migration(
            version: failingVersion, name: "broken",
            sql: """
                CREATE TABLE extra (x);
                INSERT INTO extra VALUES (1);
                ALTER TABLE windows ADD COLUMN extra_column;
                UPDATE windows SET size_class = 'compact';
                DELETE FROM window_history;
                DROP TABLE schema_migrations;
                SELECT no_such_function();
                """)
        let path = try Self.copyOfFixture(in: folder)
        do {
            let database = try Database(path: path, create: false, busyTimeoutMilliseconds: 1000)
            #expect {
                try Migrator(migrations: before + [broken]).migrate(database, clock: clock)
            } throws: { error in
                // Named with SQLite's reason; its SQL is not in the message.
                guard case .damaged(let failure) = error as? StateStoreError else { return false }
                let name = MigrationInfo(version: failingVersion, name: "broken").description
                return failure.message.hasPrefix("migration \(name) failed: ")
                    && failure.message.contains("no_such_function") && failure.sql == nil
                    && !"\(error)".contains("CREATE TABLE extra")
            }
        }
        #expect(try rawDump(path) == expected, "schema, data and user_version as before the failed step")
        #expect(try rawQuery(path, "PRAGMA integrity_check") == ["ok"])

        // The real migrations then go on from where the file is.
        let store = try WindowStore(path: path)
        #expect(try store.check().isOK)
        #expect(try store.window(session: "main", window: "inbox") == Self.expectedWindows[1])
    }
}
