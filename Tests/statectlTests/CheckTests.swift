import Foundation
import StateStore
import Testing

struct CheckTests {
    @Test func aSoundStoreIsOK() throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("A")) }
        let run = try fixture.run(["check", "--json"])
        #expect(run.status == 0)
        let report = try jsonObject(run.stdout)
        #expect(report["ok"] as? Bool == true)
        #expect(report["exists"] as? Bool == true)
        #expect(report["path"] as? String == fixture.database)
        #expect(report["integrity"] as? [String] == ["ok"])
        #expect(report["schemaProblems"] as? [String] == [])
        #expect(report["schemaVersion"] as? Int == WindowStore.schemaVersion)
        let text = try fixture.run(["check"])
        #expect(text.stdout.contains("integrity  ok\n"))
        #expect(text.stdout.contains("result     ok\n"))
    }

    @Test func aDamagedFileIsReportedWithExit74() throws {
        let fixture = Fixture()
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
        try fixture.save("s", "w") { $0.push(route("A")) }
        try rawSQL(
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
