import Foundation
import StateStore
import Testing

/// `--simulator BUNDLE[:GROUP]` and `--container BUNDLE` (issue 28, SPEC §8): the store in an app's
/// container, found through a stand-in `xcrun` on `PATH` that answers as `xcrun simctl` does and
/// records its arguments, and a made-up container tree. Every failure is named.
struct AppContainerTests {
    /// A fixture with a stand-in `xcrun` and a simulator's folders under `sim/`.
    final class Simulator: Sendable {
        let fixture = Fixture()

        init() throws {
            try FileManager.default.createDirectory(atPath: fixture.path("bin"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: fixture.path("nobin"), withIntermediateDirectories: true)
            try Self.script.write(toFile: fixture.path("bin/xcrun"), atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fixture.path("bin/xcrun"))
            for folder in ["sim/Data/Application/com.example.mail", "sim/Shared/AppGroup/group.com.example.mail"] {
                try FileManager.default.createDirectory(atPath: fixture.path(folder), withIntermediateDirectories: true)
            }
        }

        /// Answers `simctl get_app_container booted BUNDLE data|GROUP` from `$XCRUN_ROOT` as the real
        /// one does, or fails as `$XCRUN_STATE` says; `simctl spawn` succeeds unless told not to.
        static let script = """
            #!/bin/sh
            printf '%s\\n' "$*" >> "$XCRUN_LOG"
            if [ "$1 $2" = "simctl get_app_container" ]; then
                case "$XCRUN_STATE" in
                noBooted) echo "No devices are booted." >&2; exit 149 ;;
                broken) echo "Something unexpected happened." >&2; exit 3 ;;
                noPath) echo "Usage: simctl get_app_container <device> <app bundle identifier>"; exit 0 ;;
                esac
                if [ "$5" = data ]; then folder="$XCRUN_ROOT/Data/Application/$4"; else folder="$XCRUN_ROOT/Shared/AppGroup/$5"; fi
                if [ ! -d "$folder" ]; then
                    printf 'An error was encountered processing the command (domain=NSPOSIXErrorDomain, code=2):\\n' >&2
                    printf 'Failed to get the container of %s\\nNo such file or directory\\n' "$4" >&2
                    exit 2
                fi
                echo "$folder"
                exit 0
            fi
            if [ "$1 $2" = "simctl spawn" ]; then
                if [ "$XCRUN_STATE" = spawnFails ]; then echo "Unable to launch notifyutil" >&2; exit 1; fi
                exit 0
            fi
            exit 64

            """

        var log: String { fixture.path("xcrun.log") }

        func environment(_ state: String = "", path: String? = nil) -> [String: String] {
            fixture.environment.merging([
                "PATH": path ?? (fixture.path("bin") + ":/usr/bin:/bin"), "XCRUN_LOG": log,
                "XCRUN_ROOT": fixture.path("sim"), "XCRUN_STATE": state,
            ]) { $1 }
        }

        func run(_ arguments: [String], state: String = "", path: String? = nil) throws -> Run {
            try statectl(arguments, environment: environment(state, path: path))
        }

        /// What the stand-in was asked, a line a call.
        func calls() -> [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        func store(in container: String) -> String {
            fixture.path(container) + "/Library/Application Support/StateStore/state.db"
        }
    }

    private func names(_ path: String, prefix: String? = nil) -> [String] {
        CommitNotice.names(
            forResolvedPath: URL(fileURLWithPath: path).resolvingSymlinksInPath().path, prefix: prefix)
    }

    // MARK: --simulator

    @Test func aWriteGoesToTheSimulatorAppsContainerAndIsPostedInsideTheSimulator() throws {
        let simulator = try Simulator()
        let set = try simulator.run(["--simulator", "com.example.mail", "set", "s", "w", "--push", "Inbox"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stderr.isEmpty)
        let database = simulator.store(in: "sim/Data/Application/com.example.mail")
        #expect(try WindowStore(path: database).window(session: "s", window: "w")?.revision == 1)
        let posts = names(database).map { "simctl spawn booted notifyutil -p \($0)" }
        #expect(simulator.calls() == ["simctl get_app_container booted com.example.mail data"] + posts)

        // Reading posts nothing; the option stands after the command as well.
        let list = try simulator.run(["list", "--simulator=com.example.mail", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains(#""window":"w""#))
        #expect(simulator.calls().count == 1 + posts.count + 1)
    }

    @Test func anAppGroupsContainerPostsTheGroupsNameAndThePlainOne() throws {
        let simulator = try Simulator()
        let run = try simulator.run([
            "--simulator", "com.example.mail:group.com.example.mail", "set", "s", "w", "--dismiss",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let database = simulator.store(in: "sim/Shared/AppGroup/group.com.example.mail")
        #expect(FileManager.default.fileExists(atPath: database))
        let posted = names(database, prefix: "group.com.example.mail")
        #expect(posted.count == 2)
        #expect(posted[0].hasPrefix("group.com.example.mail.statestore.changes."))
        #expect(
            simulator.calls()
                == ["simctl get_app_container booted com.example.mail group.com.example.mail"]
                + posted.map { "simctl spawn booted notifyutil -p \($0)" })
    }

    @Test func aPostThatFailsInTheSimulatorIsNotedAndTheWriteStands() throws {
        let simulator = try Simulator()
        let run = try simulator.run(
            ["--simulator", "com.example.mail", "set", "s", "w", "--dismiss"], state: "spawnFails")
        #expect(run.status == 0)
        #expect(run.stderr.hasPrefix("note: could not post statestore.changes."), "\(run.stderr)")
        #expect(run.stderr.contains("Unable to launch notifyutil"))
        #expect(run.stderr.contains("still sees the change"))
        #expect(FileManager.default.fileExists(atPath: simulator.store(in: "sim/Data/Application/com.example.mail")))
    }

    @Test func withoutXcrunTheErrorSaysSo() throws {
        let simulator = try Simulator()
        let run = try simulator.run(
            ["--simulator", "com.example.mail", "list"], path: simulator.fixture.path("nobin"))
        #expect(run.status == 74)
        #expect(run.stderr.hasPrefix("Error: --simulator com.example.mail: xcrun not found on PATH"), "\(run.stderr)")
    }

    @Test func noBootedSimulatorIsNotFound() throws {
        let simulator = try Simulator()
        let run = try simulator.run(
            ["--simulator", "com.example.mail", "set", "s", "w", "--dismiss"], state: "noBooted")
        #expect(run.status == 66)
        #expect(run.stderr.contains("no simulator is booted"), "\(run.stderr)")
        #expect(run.stderr.contains("No devices are booted."))
    }

    @Test func anAppOrGroupNotInstalledIsNotFound() throws {
        let simulator = try Simulator()
        let app = try simulator.run(["--simulator", "com.example.other", "list"])
        #expect(app.status == 66)
        #expect(
            app.stderr.hasPrefix(
                "Error: --simulator com.example.other: com.example.other is not installed in the booted simulator"),
            "\(app.stderr)")
        let group = try simulator.run(["--simulator", "com.example.mail:group.nope", "list"])
        #expect(group.status == 66)
        #expect(group.stderr.contains("the App Group group.nope was not found for com.example.mail"), "\(group.stderr)")
        #expect(!FileManager.default.fileExists(atPath: simulator.fixture.path("sim/Shared/AppGroup/group.nope")))
    }

    @Test func anotherSimctlFailureIsAnIOErrorThatQuotesIt() throws {
        let simulator = try Simulator()
        let broken = try simulator.run(["--simulator", "com.example.mail", "list"], state: "broken")
        #expect(broken.status == 74)
        #expect(broken.stderr.contains("failed (exit 3): Something unexpected happened."), "\(broken.stderr)")
        let noPath = try simulator.run(["--simulator", "com.example.mail", "list"], state: "noPath")
        #expect(noPath.status == 74)
        #expect(noPath.stderr.contains("printed no container path: Usage:"), "\(noPath.stderr)")
    }

    @Test func watchFollowsTheSimulatorsStore() throws {
        let simulator = try Simulator()
        let run = try simulator.run(["--simulator", "com.example.mail", "watch", "--timeout", "0", "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("sim/Data/Application/com.example.mail/Library/Application Support/StateStore"))
        #expect(simulator.calls().count == 1, "asked once, however often the command needs the path")
    }

    // MARK: --container

    @Test func aSandboxedMacAppsContainer() throws {
        let fixture = Fixture()
        let data = fixture.path("home/Library/Containers/com.example.mail/Data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let set = try statectl(
            ["--container", "com.example.mail", "set", "s", "w", "--dismiss"], environment: fixture.environment)
        #expect(set.status == 0, "\(set.stderr)")
        let database = data + "/Library/Application Support/StateStore/state.db"
        #expect(try WindowStore(path: database).window(session: "s", window: "w")?.revision == 1)
    }

    @Test func aMissingContainerIsNotFoundAndNothingIsCreated() throws {
        let fixture = Fixture()
        let run = try statectl(
            ["--container", "com.example.mail", "set", "s", "w", "--dismiss"], environment: fixture.environment)
        #expect(run.status == 66)
        #expect(
            run.stderr.hasPrefix(
                "Error: --container com.example.mail: no container at \(fixture.path("home/Library/Containers/com.example.mail/Data")): is the app installed"
            ), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.path("home/Library")))
    }

    @Test func aContainerThatCannotBeReadIsAnIOErrorThatSaysWhy() throws {
        let fixture = Fixture()
        let containers = fixture.path("home/Library/Containers/com.example.mail")
        try FileManager.default.createDirectory(atPath: containers, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: containers + "/Data", withDestinationPath: containers + "/Data")
        let run = try statectl(["--container", "com.example.mail", "list"], environment: fixture.environment)
        #expect(run.status == 74)
        #expect(run.stderr.contains("cannot read \(containers)/Data"), "\(run.stderr)")
    }

    /// What macOS's privacy refusal gives a tool (EPERM or EACCES): here a folder another user
    /// cannot read, and statectl run as that user.
    @Test func aContainerTheSystemWillNotLetStatectlReadSaysSo() throws {
        let fixture = Fixture()
        let data = fixture.path("home/Library/Containers/com.example.mail/Data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fixture.folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: data)
        var environment = ProcessInfo.processInfo.environment
        environment["STATECTL_DB"] = nil
        environment.merge(fixture.environment) { $1 }
        let status = try spawnAndWait(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "--", statectlPath, "--container",
                "com.example.mail",
                "list",
            ],
            environment: environment, stdout: .file(fixture.path("out")), stderr: .file(fixture.path("err")))
        let stderr = try String(contentsOfFile: fixture.path("err"), encoding: .utf8)
        #expect(status == 74, "\(stderr)")
        #expect(
            stderr.contains(
                "cannot read \(data) (Permission denied): macOS asks before a tool reads another app's data"))
    }

    // MARK: the command line

    @Test(arguments: [
        ["--db", "x.db", "--simulator", "com.example.mail", "list"],
        ["--simulator", "com.example.mail", "list", "--container", "com.example.mail"],
        ["list", "--container", "com.example.mail", "--db=x.db"],
    ])
    func twoWaysOfNamingTheDatabaseAreAUsageError(_ arguments: [String]) throws {
        let simulator = try Simulator()
        let run = try simulator.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains("each name the database: give one"), "\(run.stderr)")
        #expect(simulator.calls().isEmpty, "found before anything is run")
    }

    @Test(arguments: [
        ["--simulator", "", "list"], ["--simulator", "com.example.mail:", "list"], ["--simulator", ":group", "list"],
        ["--container", "a/b", "list"], ["--container", "..", "list"], ["--container=", "list"],
    ])
    func aValueThatIsNoBundleIdentifierIsAUsageError(_ arguments: [String]) throws {
        let simulator = try Simulator()
        let run = try simulator.run(arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("expected a bundle identifier"), "\(run.stderr)")
    }

    @Test func demoTakesDBOnly() throws {
        let simulator = try Simulator()
        let run = try simulator.run(["demo", "--container", "com.example.mail"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("'--container' is not for demo, which takes --db only"), "\(run.stderr)")
    }
}

extension AppContainerTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func bothOptionsComplete(_ shell: String) throws {
        let run = try statectl(["completion", shell])
        #expect(run.status == 0)
        #expect(run.stdout.contains("--simulator"))
        #expect(run.stdout.contains("--container"))
    }
}
