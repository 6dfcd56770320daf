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

    @Test func readCommandsCreateNothing() throws {
        let fixture = Fixture()
        let missing = fixture.path("nowhere/deeper/state.db")
        let env = fixture.environment
        func run(_ arguments: [String]) throws -> Run {
            try statectl(["--db", missing] + arguments, environment: env)
        }
        let list = try run(["list"])
        #expect(list.status == 0)
        #expect(list.stdout.isEmpty)
        #expect(list.stderr == "No windows.\n")
        #expect(try run(["list", "--json"]).stdout == "[]\n")
        #expect(try run(["list", "s", "--size-class", "compact", "--json"]).stdout == "[]\n")
        for arguments in [
            ["show", "s"], ["show", "s", "w"], ["restore", "s"], ["restore", "s", "w", "--size-class", "compact"],
            ["delete", "s"], ["delete", "s", "w"], ["history", "s", "w"], ["revert", "s", "w", "1"],
        ] {
            let result = try run(arguments)
            #expect(result.status == 66, "\(arguments)")
            #expect(result.stderr == "Error: no database at \(missing)\n", "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
        let check = try run(["check", "--json"])
        #expect(check.status == 0)
        let report = try jsonObject(check.stdout)
        #expect(report["exists"] as? Bool == false)
        #expect(report["ok"] as? Bool == true)
        #expect(report["schemaVersion"] as? Int == 0)
        #expect((report["pending"] as? [[String: Any]])?.count == WindowStore.schemaVersion)
        let status = try jsonObject(try run(["migrate", "--status", "--json"]).stdout)
        #expect(status["schemaVersion"] as? Int == 0)
        #expect((status["applied"] as? [Any])?.isEmpty == true)
        #expect((status["pending"] as? [Any])?.count == WindowStore.schemaVersion)
        #expect(try run(["migrate", "--status"]).stdout.contains("pending"))
        #expect(try run(["check"]).stdout.contains("missing"))
        #expect(!fixture.exists(fixture.path("nowhere")), "no file or folder was created")
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
