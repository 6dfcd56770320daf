import Foundation
import StateStore
import Testing

/// SPEC §5's database location, and that nothing is created to read, report or fail.
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
