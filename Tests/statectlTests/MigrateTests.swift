import Foundation
import StateStore
import Testing

struct MigrateTests {
    @Test func migrateCreatesAndAppliesThenHasNothingToDo() throws {
        let fixture = Fixture()
        let first = try fixture.run(["migrate", "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        let applied = try jsonObject(first.stdout)
        #expect(applied["schemaVersion"] as? Int == WindowStore.schemaVersion)
        let migrations = try #require(applied["applied"] as? [[String: Any]])
        #expect(migrations.map { $0["version"] as? Int } == WindowStore.schemaMigrations.map(\.version))
        #expect(migrations.map { $0["name"] as? String } == WindowStore.schemaMigrations.map(\.name))
        #expect(try rawQuery(fixture.database, "PRAGMA user_version") == [String(WindowStore.schemaVersion)])
        let second = try fixture.run(["migrate", "--json"])
        #expect((try jsonObject(second.stdout)["applied"] as? [Any])?.isEmpty == true)
        #expect(try fixture.run(["migrate"]).stdout.contains("nothing applied"))
    }

    @Test func migrateNamesWhatItApplied() throws {
        let fixture = Fixture()
        let run = try fixture.run(["migrate"])
        #expect(run.status == 0)
        for migration in WindowStore.schemaMigrations {
            #expect(run.stdout.contains("Applied \(String(format: "%04d", migration.version))_\(migration.name)."))
        }
    }

    @Test func statusListsAppliedAndPendingWithoutChangingAnything() throws {
        let fixture = Fixture()
        // A zero-length file is a new store with every migration pending; --status leaves it so.
        #expect(FileManager.default.createFile(atPath: fixture.database, contents: Data()))
        let pending = try jsonObject(try fixture.run(["migrate", "--status", "--json"]).stdout)
        #expect(pending["schemaVersion"] as? Int == 0)
        #expect((pending["pending"] as? [Any])?.count == WindowStore.schemaVersion)
        #expect(try fixture.run(["check"]).status == 0)
        let size = try FileManager.default.attributesOfItem(atPath: fixture.database)[.size] as? Int
        #expect(size == 0, "inspecting a zero-length file writes nothing, not even the journal mode")
        #expect(try rawQuery(fixture.database, "PRAGMA user_version") == ["0"])
        #expect(try rawQuery(fixture.database, "SELECT count(*) FROM sqlite_schema") == ["0"])

        #expect(try fixture.run(["migrate"]).status == 0)
        let run = try fixture.run(["migrate", "--status", "--json"])
        let status = try jsonObject(run.stdout)
        #expect(Set(status.keys) == ["schemaVersion", "latestVersion", "applied", "pending"])
        #expect(status["schemaVersion"] as? Int == WindowStore.schemaVersion)
        #expect(status["latestVersion"] as? Int == WindowStore.schemaVersion)
        #expect((status["applied"] as? [Any])?.count == WindowStore.schemaVersion)
        #expect((status["pending"] as? [Any])?.isEmpty == true)
        let table = try fixture.run(["migrate", "--status"]).stdout
        #expect(table.hasPrefix("VERSION  NAME"))
        #expect(table.contains("applied"))
        #expect(table.contains("up to date"))
    }
}
