import Foundation
import StateStore
import Testing

struct MigrateTests {
    @Test func migrateCreatesAndAppliesThenHasNothingToDo() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        let first = try fixture.run(["migrate", "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        let applied = try jsonObject(first.stdout)
        #expect(applied["schemaVersion"] as? Int == StateStore.schemaVersion)
        let migrations = try #require(applied["applied"] as? [[String: Any]])
        #expect(migrations.map { $0["version"] as? Int } == StateStore.schemaMigrations.map(\.version))
        #expect(migrations.map { $0["name"] as? String } == StateStore.schemaMigrations.map(\.name))
        #expect(try Fixture.query(fixture.database, "PRAGMA user_version") == [String(StateStore.schemaVersion)])
        let second = try fixture.run(["migrate", "--json"])
        #expect((try jsonObject(second.stdout)["applied"] as? [Any])?.isEmpty == true)
        #expect(try fixture.run(["migrate"]).stdout.contains("nothing applied"))
    }

    @Test func migrateNamesWhatItApplied() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        let run = try fixture.run(["migrate"])
        #expect(run.status == 0)
        for migration in StateStore.schemaMigrations {
            #expect(run.stdout.contains("Applied \(String(format: "%04d", migration.version))_\(migration.name)."))
        }
    }

    @Test func statusListsAppliedAndPendingWithoutChangingAnything() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        // A zero-length file is a new store with every migration pending; --status leaves it so.
        #expect(FileManager.default.createFile(atPath: fixture.database, contents: Data()))
        let pending = try jsonObject(try fixture.run(["migrate", "--status", "--json"]).stdout)
        #expect(pending["schemaVersion"] as? Int == 0)
        #expect((pending["pending"] as? [Any])?.count == StateStore.schemaVersion)
        #expect(try fixture.run(["check"]).status == 0)
        let size = try FileManager.default.attributesOfItem(atPath: fixture.database)[.size] as? Int
        #expect(size == 0, "inspecting a zero-length file writes nothing, not even the journal mode")
        #expect(try Fixture.query(fixture.database, "PRAGMA user_version") == ["0"])
        #expect(try Fixture.query(fixture.database, "SELECT count(*) FROM sqlite_schema") == ["0"])

        #expect(try fixture.run(["migrate"]).status == 0)
        let run = try fixture.run(["migrate", "--status", "--json"])
        let status = try jsonObject(run.stdout)
        #expect(Set(status.keys) == ["schemaVersion", "latestVersion", "applied", "pending"])
        #expect(status["schemaVersion"] as? Int == StateStore.schemaVersion)
        #expect(status["latestVersion"] as? Int == StateStore.schemaVersion)
        #expect((status["applied"] as? [Any])?.count == StateStore.schemaVersion)
        #expect((status["pending"] as? [Any])?.isEmpty == true)
        let table = try fixture.run(["migrate", "--status"]).stdout
        #expect(table.hasPrefix("VERSION  NAME"))
        #expect(table.contains("applied"))
        #expect(table.contains("up to date"))
    }
}

struct CheckTests {
    @Test func aSoundStoreIsOK() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        try fixture.save("s", "w") { $0.push(route("A")) }
        let run = try fixture.run(["check", "--json"])
        #expect(run.status == 0)
        let report = try jsonObject(run.stdout)
        #expect(report["ok"] as? Bool == true)
        #expect(report["exists"] as? Bool == true)
        #expect(report["path"] as? String == fixture.database)
        #expect(report["integrity"] as? [String] == ["ok"])
        #expect(report["schemaProblems"] as? [String] == [])
        #expect(report["schemaVersion"] as? Int == StateStore.schemaVersion)
        let text = try fixture.run(["check"])
        #expect(text.stdout.contains("integrity  ok\n"))
        #expect(text.stdout.contains("result     ok\n"))
    }

    @Test func aDamagedFileIsReportedWithExit74() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        do {  // the store is closed after this: everything is in the main file
            let store = try fixture.store()
            let value = "\"" + String(repeating: "x", count: 300) + "\""
            for index in 0..<40 {
                try store.save(WindowState(session: "s", window: "w\(index)", path: [route("A", value)]))
            }
        }
        // Garbage over the last page's content.
        let handle = try #require(FileHandle(forUpdatingAtPath: fixture.database))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size - 4096 + 100)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 2000))
        try handle.close()
        let run = try fixture.run(["check", "--json"])
        #expect(run.status == 74)
        #expect(run.stderr.hasPrefix("Error: \(fixture.database) is damaged: the integrity check failed"))
        let report = try jsonObject(run.stdout)
        #expect(report["ok"] as? Bool == false)
        #expect((report["integrity"] as? [String])?.first != "ok")
        let text = try fixture.run(["check"])
        #expect(text.status == 74)
        #expect(text.stdout.contains("result     DAMAGED"))
    }

    @Test func anEditedMigrationIsASchemaProblem() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        try fixture.save("s", "w") { $0.push(route("A")) }
        try Fixture.execute(
            fixture.database, "UPDATE schema_migrations SET checksum = '0000000000000000' WHERE version = 1")
        let run = try fixture.run(["check", "--json"])
        #expect(run.status == 74)
        #expect(run.stderr == "Error: \(fixture.database) is damaged: 1 schema problem\n")
        let report = try jsonObject(run.stdout)
        #expect(report["ok"] as? Bool == false)
        #expect((report["schemaProblems"] as? [String])?.count == 1)
        #expect(report["integrity"] as? [String] == ["ok"])
    }
}
