import Foundation
import StateStore
import Testing

/// Where statectl finds its database (`--db`, else `$STATECTL_DB`, else the default under
/// `$XDG_STATE_HOME` or `$HOME`), and that nothing is created to read, report or fail.
struct LocationTests {
    @Test func statectlDBIsUsedWithoutDB() throws {
        let fixture = Fixture()
        let chosen = fixture.path("chosen/state.db")
        var env = fixture.environment
        env["STATECTL_DB"] = chosen
        #expect(try statectl(["set", "s", "w", "--dismiss"], environment: env).status == 0)
        #expect(fixture.exists(chosen))
        #expect(!fixture.exists(fixture.path("state/statectl")))
        // --db wins over it.
        #expect(try statectl(["--db", fixture.database, "set", "s", "w", "--dismiss"], environment: env).status == 0)
        #expect(try fixture.store().window(session: "s", window: "w")?.revision == 1)
        #expect(try WindowStore(path: chosen).window(session: "s", window: "w")?.revision == 1)
        // An empty STATECTL_DB counts as unset.
        env["STATECTL_DB"] = ""
        #expect(try statectl(["set", "s", "w", "--dismiss"], environment: env).status == 0)
        #expect(fixture.exists(fixture.path("state/statectl/state.db")))
    }

    @Test func xdgStateHomeWhenAbsolute() throws {
        let fixture = Fixture()
        var env = fixture.environment
        env["XDG_STATE_HOME"] = fixture.path("xdg/")
        #expect(try statectl(["set", "s", "w", "--dismiss"], environment: env).status == 0)
        #expect(fixture.exists(fixture.path("xdg/statectl/state.db")))
        #expect(!fixture.exists(fixture.path("home")))
    }

    @Test(arguments: [nil, "", "relative/state"])
    func homeWhenXDGStateHomeIsUnsetEmptyOrRelative(_ xdg: String?) throws {
        let fixture = Fixture()
        var env = fixture.environment
        env["XDG_STATE_HOME"] = xdg
        if xdg == nil {
            // Process inherits the test's environment: remove XDG_STATE_HOME by running through env -u.
            let run = try statectl(["set", "s", "w", "--dismiss"], environment: env, unsetting: ["XDG_STATE_HOME"])
            #expect(run.status == 0, "\(run.stderr)")
        } else {
            #expect(try statectl(["set", "s", "w", "--dismiss"], environment: env).status == 0)
        }
        #expect(fixture.exists(fixture.path("home/.local/state/statectl/state.db")))
        #expect(!fixture.exists(fixture.path("state")))
    }

    /// A path where no store exists (a mistyped --db) is not an empty store: every command that
    /// reads, reports or deletes says so (66) and creates nothing; only `watch` waits for it.
    @Test func readCommandsOnAMissingFileSaySoAndCreateNothing() throws {
        let fixture = Fixture()
        let missing = fixture.path("nowhere/deeper/state.db")
        let env = fixture.environment
        func run(_ arguments: [String]) throws -> Run {
            try statectl(["--db", missing] + arguments, environment: env)
        }
        for arguments in [
            ["list"], ["list", "--json"], ["list", "s", "--size-class", "compact", "--json"], ["show", "s"],
            ["show", "s", "w"], ["restore", "s"], ["restore", "s", "w", "--size-class", "compact"], ["delete", "s"],
            ["delete", "s", "w"], ["history", "s", "w"], ["revert", "s", "w", "1"], ["export"], ["export", "s"],
            ["prune", "--older-than", "1d"], ["prune", "--older-than", "1d", "--dry-run", "--json"], ["check"],
            ["check", "--json"], ["migrate", "--status"], ["migrate", "--status", "--json"],
            ["backup", fixture.path("copy.db")], ["show", "s", "--focused"], ["set", "s", "--focused", "--dismiss"],
        ] {
            let result = try run(arguments)
            #expect(result.status == 66, "\(arguments)")
            #expect(result.stderr == "Error: no database at \(missing)\n", "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        let watch = try run(["watch", "--timeout", "0"])
        #expect(watch.status == 0, "watch waits for the file to appear: \(watch.stderr)")
        #expect(!fixture.exists(fixture.path("nowhere")), "no file or folder was created")
        #expect(!fixture.exists(fixture.path("copy.db")))
    }

    @Test func writeCommandsCreateTheFileAndItsFolder() throws {
        let fixture = Fixture()
        let path = fixture.path("a/b/state.db")
        #expect(
            try statectl(["--db", path, "set", "s", "w", "--dismiss"], environment: fixture.environment).status == 0)
        #expect(fixture.exists(path))
        let other = fixture.path("c/state.db")
        #expect(try statectl(["--db", other, "migrate"], environment: fixture.environment).status == 0)
        #expect(try rawQuery(other, "PRAGMA user_version") == [String(WindowStore.schemaVersion)])
    }
}

/// Environment variables that name the database as bytes that are not UTF-8: decoded, they would
/// be another path (each bad byte U+FFFD), so they are refused as `--db` refuses such bytes (65),
/// before anything is opened or created. A variable statectl does not need is not read.
struct EnvironmentBytesTests {
    static let bad: [UInt8] = [0x73, 0xFF, 0x74]  // "s", a byte no UTF-8 has, "t"

    /// Runs statectl through `env(1)`, which sets `raw` (names and byte values) and unsets `unset`,
    /// since `Process` and a `[String: String]` cannot carry bytes that are not UTF-8.
    static func run(
        _ arguments: [String], _ fixture: Fixture, raw: [(String, [UInt8])], unset: [String] = []
    ) throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        environment["STATECTL_DB"] = nil
        environment.merge(fixture.environment) { $1 }
        let output = TemporaryFolder(prefix: "statectl-env-")
        var envArguments: [[UInt8]] = []
        for name in unset { envArguments += [Array("-u".utf8), Array(name.utf8)] }
        for (name, value) in raw { envArguments.append(Array("\(name)=".utf8) + value) }
        let child = try SpawnedChild(
            "/usr/bin/env", bytes: envArguments + [Array(statectlPath.utf8)] + arguments.map { Array($0.utf8) },
            environment: environment, stdout: .file(output.file("out")), stderr: .file(output.file("err")))
        child.waitUntilExit()
        return Run(
            status: child.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: URL(fileURLWithPath: output.file("out"))), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: output.file("err"))), as: UTF8.self))
    }

    /// `STATECTL_DB` naming `db/s\xFFt.db`: the store at `db/s\u{FFFD}t.db` (what decoding makes
    /// of it) is neither listed nor written; a new file is not created.
    @Test func aStatectlDBThatIsNotUTF8IsRefused() throws {
        let fixture = Fixture()
        try FileManager.default.createDirectory(atPath: fixture.path("db"), withIntermediateDirectories: true)
        let decoded = fixture.path("db/s\u{FFFD}t.db")
        do {  // closed after this: nothing beside the file
            let store = try WindowStore(path: decoded)
            try store.save(WindowState(session: "other", window: "w"))
        }
        let before = try Fixture.dump(decoded)
        let path = Array(fixture.path("db/").utf8) + Self.bad + Array(".db".utf8)
        for arguments in [["list"], ["set", "s", "w", "--dismiss"], ["show", "other", "w"], ["check"]] {
            let run = try Self.run(arguments, fixture, raw: [("STATECTL_DB", path)])
            #expect(run.status == 65, "\(arguments): \(run.stderr)")
            #expect(
                run.stderr.hasPrefix(#"Error: the environment variable STATECTL_DB is not valid UTF-8 ("#),
                "\(run.stderr)")
            #expect(run.stderr.contains(#"s\xFFt.db)"#), "\(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
        let files = fixture.contents(of: fixture.path("db")).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        #expect(files == ["s\u{FFFD}t.db"], "nothing created")
        #expect(try Fixture.dump(decoded) == before)
    }

    @Test(arguments: ["HOME", "XDG_STATE_HOME"])
    func aHomeThatIsNotUTF8IsRefusedWhenItNamesTheDatabase(_ name: String) throws {
        let fixture = Fixture()
        let folder = Array(fixture.path("").utf8) + Self.bad
        // HOME names the database only when XDG_STATE_HOME does not.
        let unset = name == "HOME" ? ["XDG_STATE_HOME"] : []
        let run = try Self.run(["set", "s", "w", "--dismiss"], fixture, raw: [(name, folder)], unset: unset)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("Error: the environment variable \(name) is not valid UTF-8"), "\(run.stderr)")
        #expect(fixture.contents(of: fixture.folder) == ["tmp"], "nothing created")
        // Not read when --db or STATECTL_DB names the database.
        let withDB = try Self.run(
            ["--db", fixture.database, "set", "s", "w", "--dismiss"], fixture, raw: [(name, folder)], unset: unset)
        #expect(withDB.status == 0, "\(withDB.stderr)")
        let withVariable = try Self.run(
            ["list"], fixture, raw: [(name, folder), ("STATECTL_DB", Array(fixture.database.utf8))], unset: unset)
        #expect(withVariable.status == 0, "\(withVariable.stderr)")
    }

    @Test func aHomeThatIsNotUTF8IsRefusedForAnAppsContainer() throws {
        let fixture = Fixture()
        for arguments in [["--container", "com.example.mail", "list"], ["--app", "com.example.mail", "list"]] {
            let run = try Self.run(arguments, fixture, raw: [("HOME", Array(fixture.path("h").utf8) + Self.bad)])
            #expect(run.status == 65, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: the environment variable HOME is not valid UTF-8"), "\(run.stderr)")
        }
    }

    @Test func aTemporaryFolderThatIsNotUTF8IsRefusedByDemo() throws {
        let fixture = Fixture()
        let run = try Self.run(["demo"], fixture, raw: [("TMPDIR", Array(fixture.path("tmp").utf8) + Self.bad)])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("Error: the environment variable TMPDIR is not valid UTF-8"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}
