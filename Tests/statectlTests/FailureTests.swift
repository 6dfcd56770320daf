import Foundation
import StateStore
import Testing

/// Every failing command exits with the status Documentation/statectl.md's table gives its failure
/// (64 usage, 65 bad data, 66 not found, 74 I/O, 75 busy, 78 newer schema), says why on standard
/// error, prints nothing on standard output, and leaves the database exactly as it was.
struct FailureTests {
    /// A store with one window at revision 2: path [A], item I, itemPath [B].
    private func populate(_ fixture: Fixture) throws {
        try fixture.save("s", "w") { $0.push(route("A")) }
        try fixture.save("s", "w") {
            $0.present(route("I"))
            $0.push(route("B"))
        }
    }

    static let badData: [(String, [String], String)] = [
        ("route with nothing after ':'", ["set", "s", "w", "--push", "Folder:"], "nothing after ':'"),
        ("bad JSON", ["set", "s", "w", "--push", #"Thread:{"id":}"#], "invalid JSON"),
        ("bad JSON in present", ["set", "s", "w", "--present", "Thread:[1,]"], "invalid JSON"),
        ("two JSON values", ["set", "s", "w", "--push", "Thread:1 2"], "invalid JSON"),
        ("empty route type", ["set", "s", "w", "--push", ":1"], "route type is empty"),
        ("control character in a type", ["set", "s", "w", "--push", "A\u{7}"], "control character"),
        ("empty session id", ["set", "", "w", "--dismiss"], "session id is empty"),
        ("window id too long", ["set", "s", String(repeating: "w", count: 257), "--dismiss"], "257 bytes"),
        ("control character in an id", ["show", "s", "w\u{1}"], "control character"),
        ("over-pop", ["set", "s", "w", "--pop", "4"], "cannot pop 4"),
        ("over-pop after pushes", ["set", "s", "w", "--push", "C", "--pop", "5"], "cannot pop 5"),
        (
            "route value over 64 KiB",
            ["set", "s", "w", "--push", "A:\"" + String(repeating: "x", count: 65_536) + "\""], "limit"
        ),
        (
            "more than 512 routes", ["set", "s", "w"] + Array(repeating: ["--push", "R"], count: 510).flatMap { $0 },
            "limit"
        ),
    ]

    @Test(arguments: badData)
    func badDataIs65(_ what: String, _ arguments: [String], _ message: String) throws {
        let fixture = Fixture()
        try populate(fixture)
        let before = try fixture.dump()
        let run = try fixture.run(arguments)
        #expect(run.status == 65, "\(what): \(run.stderr)")
        #expect(run.stderr.hasPrefix("Error: ") && run.stderr.contains(message), "\(what): \(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(try fixture.dump() == before, "\(what): nothing written")
    }

    @Test func badDataOnAMissingFileCreatesNothing() throws {
        let fixture = Fixture()
        for arguments in [["set", "s", "w", "--push", "Folder:"], ["set", "", "w", "--dismiss"]] {
            #expect(try fixture.run(arguments).status == 65)
        }
        #expect(!fixture.exists(fixture.database))
    }

    static let notFound: [[String]] = [
        ["show", "nope"], ["show", "s", "nope"], ["restore", "nope"], ["restore", "s", "nope"], ["delete", "nope"],
        ["delete", "s", "nope"], ["history", "s", "nope"], ["history", "nope", "w"], ["revert", "s", "w", "3"],
        ["revert", "s", "nope", "1"], ["revert", "s", "w", "99", "--json"],
    ]

    @Test(arguments: notFound)
    func unknownSessionWindowOrRevisionIs66(_ arguments: [String]) throws {
        let fixture = Fixture()
        try populate(fixture)
        let before = try fixture.dump()
        let run = try fixture.run(arguments)
        #expect(run.status == 66, "\(arguments): \(run.stderr)")
        #expect(run.stderr.hasPrefix("Error: ") && run.stderr.contains("not found"))
        #expect(run.stdout.isEmpty)
        #expect(try fixture.dump() == before)
    }

    @Test func aConflictIs1() throws {
        let fixture = Fixture()
        try populate(fixture)
        let before = try fixture.dump()
        let run = try fixture.run(["set", "s", "w", "--dismiss", "--expect-revision", "1"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("revision 2, not 1"))
        #expect(try fixture.dump() == before)
    }

    @Test(arguments: [
        ["list"], ["show", "s"], ["set", "s", "w", "--dismiss"], ["delete", "s"], ["check"], ["migrate"],
        ["migrate", "--status"], ["history", "s", "w"], ["demo"],
    ])
    func aFileThatIsNotADatabaseIs74(_ arguments: [String]) throws {
        let fixture = Fixture()
        let text = Data(String(repeating: "These are my notes, not a database.\n", count: 20).utf8)
        #expect(FileManager.default.createFile(atPath: fixture.database, contents: text))
        let run = try fixture.run(arguments)
        #expect(run.status == 74, "\(arguments): \(run.stderr)")
        #expect(run.stderr == "Error: \(fixture.database) is not a database (SQLite code 26)\n")
        #expect(run.stdout.isEmpty)
        #expect(FileManager.default.contents(atPath: fixture.database) == text)
        #expect(fixture.contents(of: fixture.folder) == ["state.db", "tmp"])
    }

    @Test(arguments: [
        ["list"], ["set", "s", "w", "--dismiss"], ["check"], ["migrate", "--status"], ["migrate"], ["demo"],
    ])
    func aSQLiteFileThatIsNotOursIs65(_ arguments: [String]) throws {
        let fixture = Fixture()
        try rawSQL(fixture.database, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');")
        let bytes = FileManager.default.contents(atPath: fixture.database)
        let run = try fixture.run(arguments)
        #expect(run.status == 65, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains("does not belong to StateStore"))
        #expect(run.stdout.isEmpty)
        #expect(FileManager.default.contents(atPath: fixture.database) == bytes)
    }

    @Test(arguments: [
        ["list"], ["show", "s", "w"], ["set", "s", "w", "--dismiss"], ["delete", "s"], ["check"], ["migrate"],
        ["migrate", "--status"], ["revert", "s", "w", "1"], ["demo"],
    ])
    func aNewerSchemaIs78(_ arguments: [String]) throws {
        let fixture = Fixture()
        try populate(fixture)
        try rawSQL(
            fixture.database,
            "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA user_version = \(WindowStore.schemaVersion + 1); PRAGMA journal_mode = DELETE;"
        )
        let before = try fixture.dump()
        let bytes = FileManager.default.contents(atPath: fixture.database)
        let run = try fixture.run(arguments)
        #expect(run.status == 78, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains("newer than this build"))
        #expect(run.stdout.isEmpty)
        #expect(FileManager.default.contents(atPath: fixture.database) == bytes)
        #expect(try fixture.dump() == before)
    }

    @Test(arguments: [
        ["set", "s", "w", "--dismiss"], ["delete", "s", "w"], ["delete", "s"], ["revert", "s", "w", "1"], ["demo"],
    ])
    func aLockHeldPastTheBusyTimeoutIs75(_ arguments: [String]) throws {
        let fixture = Fixture()
        try populate(fixture)
        let before = try fixture.dump()
        let lock = try WriteLock(fixture.database)
        let run = try fixture.run(["--busy-timeout", "100"] + arguments)
        lock.release()
        #expect(run.status == 75, "\(arguments): \(run.stderr)")
        #expect(run.stderr.hasPrefix("Error: database is busy"))
        #expect(run.stdout.isEmpty)
        #expect(try fixture.dump() == before)
    }

    @Test func readsDoNotWaitForAWriter() throws {
        let fixture = Fixture()
        try populate(fixture)
        let lock = try WriteLock(fixture.database)
        defer { lock.release() }
        for arguments in [
            ["list", "--json"], ["show", "s", "w"], ["restore", "s"], ["history", "s", "w"], ["check"],
        ] {
            let run = try fixture.run(["--busy-timeout", "0"] + arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }
    }

    @Test func busyTimeoutAfterTheCommandWorksToo() throws {
        let fixture = Fixture()
        try populate(fixture)
        let lock = try WriteLock(fixture.database)
        // Waits out a lock released while it waits.
        let release = Thread {
            Thread.sleep(forTimeInterval: 0.2)
            lock.release()
        }
        release.start()
        let run = try fixture.run(["set", "s", "w", "--dismiss", "--busy-timeout=20000"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try fixture.store().window(session: "s", window: "w")?.revision == 3)
    }

    @Test func anUnwritableStandardOutputIs74() throws {
        let fixture = Fixture()
        try populate(fixture)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let run = try statectl(
            ["--db", fixture.database, "list", "--json"], environment: fixture.environment, standardOutput: full)
        #expect(run.status == 74)
        #expect(run.stderr.hasPrefix("Error: cannot write to standard output: "))
    }
}
