import Foundation
import StateStore
import Testing

/// Commands that write nothing take no write lock, so a host writing at the time never makes them
/// busy; and a migration that fails is named with SQLite's reason, never printed whole.
struct QuietCommandsTests {
    /// A store with a session last written in 1970 (so `prune` finds it) and a current one.
    private func populate(_ fixture: Fixture) throws {
        var options = StateStore.Options()
        options.clock = { Timestamp(millisecondsSince1970: 1000) }
        try StateStore(path: fixture.database, options: options).save(WindowState(session: "old", window: "w"))
        try fixture.save("new", "w") { $0.push(route("A")) }
    }

    @Test func pruneDryRunAndAnUpToDateMigrateTakeNoWriteLock() throws {
        let fixture = Fixture()
        try populate(fixture)
        let before = try fixture.dump()
        let lock = try WriteLock(fixture.database)
        defer { lock.release() }

        let dry = try fixture.run(["--busy-timeout", "0", "prune", "--older-than", "1d", "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let sessions = try #require(try jsonObject(dry.stdout)["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["session"] as? String } == ["old"])

        let migrate = try fixture.run(["--busy-timeout", "0", "migrate"])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(migrate.stdout.contains("nothing applied"))
        for arguments in [["migrate", "--status"], ["check"], ["export"], ["watch", "--timeout", "0.1"]] {
            let run = try fixture.run(["--busy-timeout", "0"] + arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }

        // The lock is real: what does write waits for it, then gives up.
        let prune = try fixture.run(["--busy-timeout", "0", "prune", "--older-than", "1d"])
        #expect(prune.status == 75, "\(prune.stderr)")
        lock.release()
        #expect(try fixture.dump() == before, "nothing written")
    }

    @Test func aMigrationThatFailsIsNamedWithSQLitesReasonNotItsText() throws {
        let fixture = Fixture()
        // A file of the first schema where a program made a table the second migration creates.
        let schema1 = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/schema1.db").path
        try FileManager.default.copyItem(atPath: schema1, toPath: fixture.database)
        try rawSQL(fixture.database, "CREATE TABLE changes (x)")
        let before = try fixture.dump()
        for arguments in [["migrate"], ["list"], ["set", "s", "w", "--dismiss"]] {
            let run = try fixture.run(arguments)
            #expect(run.status == 74, "\(arguments): \(run.stderr)")
            #expect(
                run.stderr.hasPrefix("Error: migration 0002_change_log failed: table changes already exists"),
                "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("CREATE"), "\(arguments): the migration's SQL is not printed")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): one line")
        }
        #expect(try fixture.dump() == before, "nothing written")
    }
}
