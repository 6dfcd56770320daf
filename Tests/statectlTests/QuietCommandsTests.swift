import Foundation
import StateStore
import Testing

/// Commands that write nothing take no write lock, so a host writing at the time never makes them
/// busy; and a migration that fails is named with SQLite's reason, never printed whole.
struct QuietCommandsTests {
    /// A store with a session last written in 1970 (so `prune` finds it) and a current one.
    private func populate(_ fixture: Fixture) throws {
        var options = WindowStore.Options()
        options.clock = { Timestamp(millisecondsSince1970: 1000) }
        try WindowStore(path: fixture.database, options: options).save(WindowState(session: "old", window: "w"))
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

    /// A file as the outside sees it: its bytes, size and modification time (to the nanosecond),
    /// and which files SQLite keeps beside it exist.
    struct FileState: Equatable, CustomStringConvertible {
        var bytes: Data?
        var size: Int
        var modified: timespec
        var beside: [String]

        init(_ path: String) {
            var info = stat()
            _ = stat(path, &info)
            bytes = FileManager.default.contents(atPath: path)
            size = Int(info.st_size)
            modified = info.st_mtim
            beside = ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) }
        }

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.bytes == rhs.bytes && lhs.size == rhs.size && lhs.modified.tv_sec == rhs.modified.tv_sec
                && lhs.modified.tv_nsec == rhs.modified.tv_nsec && lhs.beside == rhs.beside
        }

        var description: String {
            "\(size) bytes, modified \(modified.tv_sec).\(modified.tv_nsec), beside: \(beside)"
        }
    }

    /// The commands that only read or report, each with its exit status on an empty store.
    static let readingCommands: [([String], Int32)] = [
        (["list"], 0), (["list", "s", "--json"], 0), (["show", "s"], 66), (["show", "s", "w"], 66),
        (["restore", "s"], 66), (["restore", "s", "w", "--size-class", "regular"], 66), (["export"], 0),
        (["export", "s"], 66), (["history", "s", "w"], 66), (["prune", "--older-than", "1d", "--dry-run"], 0),
        (["watch", "--timeout", "0.2"], 0), (["check"], 0), (["migrate", "--status"], 0),
    ]

    /// A zero-length file is an empty store to every command that reads or reports: each answers
    /// as for an empty store and leaves the file zero-length, its time unchanged, nothing beside it.
    @Test func readingCommandsWriteNothingIntoAZeroLengthFile() throws {
        let fixture = Fixture()
        #expect(FileManager.default.createFile(atPath: fixture.database, contents: Data()))
        let before = FileState(fixture.database)
        for (arguments, status) in Self.readingCommands + [(["backup", fixture.path("copy.db")], 0)] {
            let run = try fixture.run(arguments)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            let after = FileState(fixture.database)
            #expect(after == before, "\(arguments): \(before) → \(after)")
        }
        #expect(try fixture.run(["export"]).stdout == #"{"format":"statectl/1","windows":[]}"# + "\n")
        // The copy of an empty store is an empty store.
        #expect(try WindowStore(path: fixture.path("copy.db")).windowSummaries().isEmpty)
    }

    /// A backup copy is a store in rollback-journal mode. Reading it — every reading command,
    /// another backup included — leaves its bytes and time as they were: it is not switched to
    /// WAL, and no -wal or -shm is left beside it. A store in WAL mode at rest is left so too
    /// (SQLite makes its -wal and -shm while a reader has it open and removes them at the close).
    @Test(arguments: ["backup copy", "WAL store"])
    func readingCommandsLeaveAStoresBytesAsTheyWere(_ kind: String) throws {
        let fixture = Fixture()
        try populate(fixture)
        try fixture.save("s", "w") { $0.push(route("A")) }
        var path = fixture.database
        if kind == "backup copy" {
            path = fixture.path("copy.db")
            #expect(try fixture.run(["backup", path]).status == 0)
            #expect(try rawQuery(path, "PRAGMA journal_mode") == ["delete"])
        }
        let before = FileState(path)
        #expect(before.beside.isEmpty)
        let statuses: [String: Int32] = [
            "show s": 0, "show s w": 0, "restore s": 0, "restore s w": 0,
            "export s": 0, "history s w": 0,
        ]
        for (arguments, empty) in Self.readingCommands + [(["backup", fixture.path("copy-\(UUID()).db")], 0)] {
            let run = try statectl(["--db", path] + arguments, environment: fixture.environment)
            let expected = statuses[arguments.prefix(3).filter { !$0.hasPrefix("-") }.joined(separator: " ")] ?? empty
            #expect(run.status == expected, "\(arguments): \(run.stderr)")
            let after = FileState(path)
            #expect(after == before, "\(kind), \(arguments): \(before) → \(after)")
        }
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
