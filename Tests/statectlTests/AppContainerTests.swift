import Foundation
import StateStore
import Testing

/// `--simulator BUNDLE[:GROUP]` and `--container BUNDLE`: the store at the path a host uses by
/// default in an app's (or its App Group's) container, found through a stand-in `xcrun` on `PATH`
/// that answers as `xcrun simctl` does and records its arguments, and a made-up container tree.
/// Every failure is named.
struct AppContainerTests {
    /// The simulators the stand-in lists: an iPhone booted, an iPad and an Apple TV shut down.
    static let iPhone = "11111111-AAAA-4BBB-8CCC-000000000001"
    static let iPad = "22222222-AAAA-4BBB-8CCC-000000000002"
    static let appleTV = "33333333-AAAA-4BBB-8CCC-000000000003"

    /// A fixture with a stand-in `xcrun` and each simulator's folders under `sim/UDID/`.
    final class Simulator: Sendable {
        let fixture = Fixture()

        init(booted: [String] = [AppContainerTests.iPhone]) throws {
            try FileManager.default.createDirectory(atPath: fixture.path("bin"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: fixture.path("nobin"), withIntermediateDirectories: true)
            try Self.script.write(toFile: fixture.path("bin/xcrun"), atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fixture.path("bin/xcrun"))
            for device in [iPhone, iPad, appleTV] {
                for folder in ["Data/Application/com.example.mail", "Shared/AppGroup/group.com.example.mail"] {
                    try FileManager.default.createDirectory(
                        atPath: fixture.path("sim/\(device)/\(folder)"), withIntermediateDirectories: true)
                }
            }
            try list(booted: booted)
        }

        /// Writes the device list the stand-in prints, `booted` in state Booted.
        func list(booted: [String]) throws {
            func device(_ udid: String, _ name: String) -> String {
                #"{"udid":"\#(udid)","name":"\#(name)","state":"\#(booted.contains(udid) ? "Booted" : "Shutdown")","isAvailable":true}"#
            }
            let json = """
                {"devices":{"com.apple.CoreSimulator.SimRuntime.iOS-17-0":[\(device(iPhone, "iPhone 15")),\(device(iPad, "iPad Air"))],
                "com.apple.CoreSimulator.SimRuntime.tvOS-17-0":[\(device(appleTV, "Apple TV"))],
                "com.apple.CoreSimulator.SimRuntime.watchOS-10-0":[]}}
                """
            try json.write(toFile: fixture.path("sim/devices.json"), atomically: true, encoding: .utf8)
        }

        /// Answers `simctl list devices -j` from `$XCRUN_ROOT/devices.json` and
        /// `simctl get_app_container UDID BUNDLE data|groups|GROUP` from `$XCRUN_ROOT/UDID/` as the
        /// real one does, or fails as `$XCRUN_STATE` says; `simctl spawn` succeeds unless told not to.
        static let script = """
            #!/bin/sh
            printf '%s\\n' "$*" >> "$XCRUN_LOG"
            case "$XCRUN_STATE" in
            hang) echo $$ > "$XCRUN_ROOT/pid"; sleep 1000 & echo $! > "$XCRUN_ROOT/child"; wait; exit 0 ;;
            hangAfterPrinting) echo "/nowhere"; exec >&- 2>&-; sleep 1000 & echo $! > "$XCRUN_ROOT/child"; wait; exit 0 ;;
            flood) head -c 8000000 /dev/zero | tr '\\0' x; exit 0 ;;
            endless) exec yes /an/endless/path ;;
            exit127) echo 'xcrun: error: unable to find utility "simctl", not a developer tool or in PATH'; exit 127 ;;
            esac
            if [ "$1 $2" = "simctl list" ]; then
                [ "$XCRUN_STATE" = listFails ] && { echo "CoreSimulatorService connection invalidated" >&2; exit 1; }
                [ "$XCRUN_STATE" = listGarbage ] && { echo "not json"; exit 0; }
                cat "$XCRUN_ROOT/devices.json"
                exit 0
            fi
            if [ "$1 $2" = "simctl get_app_container" ]; then
                case "$XCRUN_STATE" in
                noBooted) echo "No devices are booted." >&2; exit 149 ;;
                broken) echo "Something unexpected happened." >&2; exit 3 ;;
                crlf) printf 'Something unexpected happened.\\r\\nAnd more.\\r\\n' >&2; exit 3 ;;
                noPath) echo "Usage: simctl get_app_container <device> <app bundle identifier>"; exit 0 ;;
                esac
                if [ "$5" = groups ]; then
                    for group in "$XCRUN_ROOT/$3/Shared/AppGroup/"*; do
                        printf '%s\\t%s\\n' "$(basename "$group")" "$group"
                    done
                    exit 0
                fi
                if [ "$5" = data ]; then folder="$XCRUN_ROOT/$3/Data/Application/$4"; else folder="$XCRUN_ROOT/$3/Shared/AppGroup/$5"; fi
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

        func run(
            _ arguments: [String], state: String = "", path: String? = nil, extra: [String: String] = [:]
        )
            throws -> Run
        {
            try statectl(arguments, environment: environment(state, path: path).merging(extra) { $1 })
        }

        /// What the stand-in was asked, a line a call.
        func calls() -> [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        func store(in container: String) -> String {
            fixture.path(container) + "/Library/Application Support/StateStore/state.db"
        }

        /// The app's data container on `device`.
        func app(_ device: String = AppContainerTests.iPhone) -> String {
            "sim/\(device)/Data/Application/com.example.mail"
        }

        /// The App Group's container on `device`.
        func group(_ device: String = AppContainerTests.iPhone) -> String {
            "sim/\(device)/Shared/AppGroup/group.com.example.mail"
        }
    }

    private func names(_ path: String, prefix: String? = nil) -> [String] {
        CommitNotice.names(
            forResolvedPath: URL(fileURLWithPath: path).resolvingSymlinksInPath().path, prefix: prefix)
    }

    static let list = "simctl list devices -j"

    // MARK: --simulator

    @Test func aWriteGoesToTheSimulatorAppsContainerAndIsPostedInsideTheSimulator() throws {
        let simulator = try Simulator()
        let set = try simulator.run(["--simulator", "com.example.mail", "set", "s", "w", "--push", "Inbox"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stderr.isEmpty, "no store in the app's container, and none in its group: \(set.stderr)")
        let database = simulator.store(in: simulator.app())
        #expect(try WindowStore(path: database).window(session: "s", window: "w")?.revision == 1)
        let posts = names(database).map { "simctl spawn \(Self.iPhone) notifyutil -p \($0)" }
        #expect(
            simulator.calls()
                == [Self.list, "simctl get_app_container \(Self.iPhone) com.example.mail data"]
                + ["simctl get_app_container \(Self.iPhone) com.example.mail groups"] + posts,
            "the booted device by its UDID in every call, never 'booted'")

        // Reading posts nothing, and asks for the groups no more (the app's store has a window);
        // the option stands after the command as well.
        let before = simulator.calls().count
        let list = try simulator.run(["list", "--simulator=com.example.mail", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stderr.isEmpty)
        #expect(list.stdout.contains(#""window":"w""#))
        #expect(simulator.calls().count == before + 2)
    }

    @Test func anAppGroupsContainerPostsTheGroupsNameAndThePlainOne() throws {
        let simulator = try Simulator()
        let run = try simulator.run([
            "--simulator", "com.example.mail:group.com.example.mail", "set", "s", "w", "--dismiss",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let database = simulator.store(in: simulator.group())
        #expect(FileManager.default.fileExists(atPath: database))
        let posted = names(database, prefix: "group.com.example.mail")
        #expect(posted.count == 2)
        #expect(posted[0].hasPrefix("group.com.example.mail.statestore.changes."))
        #expect(
            simulator.calls()
                == [Self.list, "simctl get_app_container \(Self.iPhone) com.example.mail group.com.example.mail"]
                + posted.map { "simctl spawn \(Self.iPhone) notifyutil -p \($0)" })
    }

    @Test func aPostThatFailsInTheSimulatorIsNotedAndTheWriteStands() throws {
        let simulator = try Simulator()
        let run = try simulator.run(
            ["--simulator", "com.example.mail:group.com.example.mail", "set", "s", "w", "--dismiss"],
            state: "spawnFails")
        #expect(run.status == 0)
        #expect(
            run.stderr.hasPrefix("note: could not post group.com.example.mail.statestore.changes."), "\(run.stderr)")
        #expect(run.stderr.contains("Unable to launch notifyutil"))
        #expect(run.stderr.contains("still sees the change"))
        #expect(FileManager.default.fileExists(atPath: simulator.store(in: simulator.group())))
    }

    @Test func withoutXcrunTheErrorSaysSo() throws {
        let simulator = try Simulator()
        let run = try simulator.run(
            ["--simulator", "com.example.mail", "list"], path: simulator.fixture.path("nobin"))
        #expect(run.status == 74)
        #expect(run.stderr.hasPrefix("Error: --simulator com.example.mail: xcrun not found on PATH"), "\(run.stderr)")
    }

    /// An `xcrun` that exits 127 itself (its own "unable to find utility") was found: its failure is
    /// quoted, not called "not found on PATH".
    @Test func anXcrunThatExits127ItselfIsQuotedNotCalledMissing() throws {
        let simulator = try Simulator()
        let run = try simulator.run(["--simulator", "com.example.mail", "list"], state: "exit127")
        #expect(run.status == 74)
        #expect(
            run.stderr
                == "Error: --simulator com.example.mail: xcrun simctl list devices failed (exit 127): xcrun: error: "
                + #"unable to find utility "simctl", not a developer tool or in PATH"# + "\n", "\(run.stderr)")
    }

    @Test func noBootedSimulatorIsNotFound() throws {
        let simulator = try Simulator(booted: [])
        let run = try simulator.run(["--simulator", "com.example.mail", "set", "s", "w", "--dismiss"])
        #expect(run.status == 66)
        #expect(run.stderr.contains("no simulator is booted"), "\(run.stderr)")
        #expect(simulator.calls() == [Self.list])
    }

    /// Two simulators booted: `booted` would be either, for each call. The error lists them, by
    /// name, runtime and UDID, and says how to name one; named, that one is used throughout.
    @Test func severalBootedSimulatorsAreListedAndOneIsNamedByItsUDID() throws {
        let simulator = try Simulator(booted: [Self.iPhone, Self.iPad])
        let ambiguous = try simulator.run(["--simulator", "com.example.mail", "set", "s", "w", "--dismiss"])
        #expect(ambiguous.status == 64)
        #expect(
            ambiguous.stderr == """
                Error: --simulator com.example.mail: 2 simulators are booted; name one by its UDID, as \
                --simulator \(Self.iPhone)/com.example.mail:
                  iPhone 15 (iOS 17.0, \(Self.iPhone))
                  iPad Air (iOS 17.0, \(Self.iPad))

                """, "\(ambiguous.stderr)")
        #expect(simulator.calls() == [Self.list], "nothing else asked, nothing written")
        #expect(!FileManager.default.fileExists(atPath: simulator.store(in: simulator.app(Self.iPhone))))

        let named = try simulator.run([
            "--simulator", "\(Self.iPad.lowercased())/com.example.mail", "set", "s", "w", "--dismiss",
        ])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(FileManager.default.fileExists(atPath: simulator.store(in: simulator.app(Self.iPad))))
        #expect(!FileManager.default.fileExists(atPath: simulator.store(in: simulator.app(Self.iPhone))))
        #expect(simulator.calls().dropFirst(2).allSatisfy { $0.contains(Self.iPad) }, "\(simulator.calls())")
    }

    @Test func aUDIDThatIsUnknownOrNotBootedIsNotFound() throws {
        let simulator = try Simulator()
        let unknown = try simulator.run([
            "--simulator", "44444444-AAAA-4BBB-8CCC-000000000004/com.example.mail", "list",
        ])
        #expect(unknown.status == 66)
        #expect(unknown.stderr.contains("no simulator has the UDID 44444444-AAAA-4BBB-8CCC-000000000004"))
        let shutDown = try simulator.run(["--simulator", "\(Self.iPad)/com.example.mail", "list"])
        #expect(shutDown.status == 66)
        #expect(
            shutDown.stderr.contains(
                "the simulator iPad Air (iOS 17.0, \(Self.iPad)) is not booted (Shutdown): xcrun simctl boot \(Self.iPad)"
            ),
            "\(shutDown.stderr)")
    }

    /// A tvOS app keeps its store in Caches: so does statectl look there on an Apple TV simulator.
    @Test func anAppleTVSimulatorsStoreIsInCaches() throws {
        let simulator = try Simulator(booted: [Self.appleTV])
        let run = try simulator.run(["--simulator", "com.example.mail", "set", "s", "w", "--dismiss"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            FileManager.default.fileExists(
                atPath: simulator.fixture.path(simulator.app(Self.appleTV)) + "/Library/Caches/StateStore/state.db"))
    }

    @Test func anAppOrGroupNotInstalledIsNotFound() throws {
        let simulator = try Simulator()
        let app = try simulator.run(["--simulator", "com.example.other", "list"])
        #expect(app.status == 66)
        #expect(
            app.stderr.hasPrefix(
                "Error: --simulator com.example.other: com.example.other is not installed in the simulator iPhone 15"),
            "\(app.stderr)")
        let group = try simulator.run(["--simulator", "com.example.mail:group.nope", "list"])
        #expect(group.status == 66)
        #expect(group.stderr.contains("the App Group group.nope was not found for com.example.mail"), "\(group.stderr)")
        #expect(
            !FileManager.default.fileExists(
                atPath: simulator.fixture.path("sim/\(Self.iPhone)/Shared/AppGroup/group.nope")))
    }

    @Test func anotherSimctlFailureIsAnIOErrorThatQuotesIt() throws {
        let simulator = try Simulator()
        let broken = try simulator.run(["--simulator", "com.example.mail", "list"], state: "broken")
        #expect(broken.status == 74)
        #expect(broken.stderr.contains("failed (exit 3): Something unexpected happened."), "\(broken.stderr)")
        let noPath = try simulator.run(["--simulator", "com.example.mail", "list"], state: "noPath")
        #expect(noPath.status == 74)
        #expect(noPath.stderr.contains("printed no container path: Usage:"), "\(noPath.stderr)")
        let listFails = try simulator.run(["--simulator", "com.example.mail", "list"], state: "listFails")
        #expect(listFails.status == 74)
        #expect(
            listFails.stderr.contains("xcrun simctl list devices failed (exit 1): CoreSimulatorService"),
            "\(listFails.stderr)")
        let garbage = try simulator.run(["--simulator", "com.example.mail", "list"], state: "listGarbage")
        #expect(garbage.status == 74)
        #expect(garbage.stderr.contains("printed no device list: not json"), "\(garbage.stderr)")
    }

    /// A line `simctl` ends with CR LF is quoted as one line: no raw line break (nor the rest of
    /// its output) inside the message.
    @Test func aLineEndingInCRLFIsQuotedAsOneLine() throws {
        let simulator = try Simulator()
        let run = try simulator.run(["--simulator", "com.example.mail", "list"], state: "crlf")
        #expect(run.status == 74)
        #expect(
            run.stderr
                == "Error: --simulator com.example.mail: xcrun simctl get_app_container failed (exit 3): Something "
                + "unexpected happened.\n", "\(run.stderr)")
    }

    /// A wedged `simctl` (what a stuck CoreSimulatorService gives) is stopped after the wait,
    /// with what it started: statectl exits 74 naming xcrun, and no process of it is left.
    @Test(arguments: ["hang", "hangAfterPrinting"])
    func anXcrunThatHangsIsStoppedAfterTheWait(_ state: String) throws {
        let simulator = try Simulator()
        let start = ContinuousClock.now
        let run = try Self.bounded(
            simulator, ["--simulator", "com.example.mail", "list"], state: state,
            extra: ["STATECTL_XCRUN_TIMEOUT": "1"])
        #expect(run.status == 74, "\(run.stderr)")
        #expect(
            run.stderr.hasPrefix(
                "Error: --simulator com.example.mail: xcrun simctl list devices did not finish within 1 s and was stopped"
            ),
            "\(run.stderr)")
        #expect(run.stderr.contains("STATECTL_XCRUN_TIMEOUT sets the wait"))
        #expect(ContinuousClock.now - start >= .seconds(1), "it waited the time given")
        for file in ["pid", "child"] {
            guard let text = try? String(contentsOfFile: simulator.fixture.path("sim/" + file), encoding: .utf8),
                let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            else { continue }
            #expect(Self.hasEnded(pid), "\(file) \(pid) still runs")
        }
    }

    @Test func aWaitThatIsNotANumberOfSecondsIsAUsageError() throws {
        let simulator = try Simulator()
        for value in ["0", "soon", "3601", "-1"] {
            let run = try simulator.run(
                ["--simulator", "com.example.mail", "list"], extra: ["STATECTL_XCRUN_TIMEOUT": value])
            #expect(run.status == 64, "\(value)")
            #expect(run.stderr.hasPrefix("Error: STATECTL_XCRUN_TIMEOUT=\(value): expected a whole number of seconds"))
        }
        #expect(simulator.calls().isEmpty, "found before anything runs")
        // Without --simulator it is not read.
        #expect(
            try statectl(
                ["--db", simulator.fixture.database, "set", "s", "w", "--dismiss"],
                environment: ["STATECTL_XCRUN_TIMEOUT": "soon"]
            ).status == 0)
    }

    /// An `xcrun` that prints without end, or far more than a path or a device list, is stopped
    /// at 1 MiB: statectl's memory stays small and it exits 74 naming xcrun.
    @Test(arguments: ["flood", "endless"])
    func anXcrunThatPrintsTooMuchIsStopped(_ state: String) throws {
        let simulator = try Simulator()
        let run = try Self.bounded(simulator, ["--simulator", "com.example.mail", "list"], state: state)
        #expect(run.status == 74, "\(run.stderr.prefix(300))")
        #expect(
            run.stderr
                == "Error: --simulator com.example.mail: xcrun simctl list devices printed more than 1 MiB and was "
                + "stopped\n", "\(run.stderr.prefix(300))")
    }

    @Test func watchFollowsTheSimulatorsStore() throws {
        let simulator = try Simulator()
        let run = try simulator.run([
            "--simulator", "com.example.mail:group.com.example.mail", "watch", "--timeout", "0", "--verbose",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("\(simulator.group())/Library/Application Support/StateStore"))
        #expect(simulator.calls().count == 2, "asked once, however often the command needs the path")
    }

    // MARK: the store in the App Group, looked for in the app's container

    /// The sample app keeps its store in its App Group: `--simulator BUNDLE` looks in the app's
    /// container, finds none (or one with no window) and says where the app's store is.
    @Test func anEmptyAppContainerWhileTheGroupHoldsAStoreIsNoted() throws {
        let simulator = try Simulator()
        do {  // closed after this: nothing beside the file
            let store = try WindowStore(path: simulator.store(in: simulator.group()))
            try store.save(WindowState(session: "mail", window: "main"))
        }
        let hint =
            "note: --simulator com.example.mail: the app's container has no store, but its App Group "
            + "group.com.example.mail has one: --simulator com.example.mail:group.com.example.mail\n"

        let missing = try simulator.run(["--simulator", "com.example.mail", "list"])
        #expect(missing.status == 66)
        #expect(
            missing.stderr
                == hint + "Error: no database at \(simulator.store(in: simulator.app()))\n", "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: simulator.store(in: simulator.app())), "nothing created")
        let folder = simulator.fixture.path(simulator.group()) + "/Library/Application Support/StateStore"
        #expect(
            (try? FileManager.default.contentsOfDirectory(atPath: folder)) == ["state.db"],
            "the group's store looked at, nothing left beside it")

        // A store with no window in the app's container: listed as empty, and noted.
        try FileManager.default.createDirectory(
            atPath: simulator.fixture.path(simulator.app()) + "/Library/Application Support/StateStore",
            withIntermediateDirectories: true)
        _ = try WindowStore(path: simulator.store(in: simulator.app()))
        let empty = try simulator.run(["--simulator", "com.example.mail", "list"])
        #expect(empty.status == 0)
        #expect(
            empty.stderr.hasPrefix(
                "note: --simulator com.example.mail: the app's container has a store with no window, but its App Group "
                    + "group.com.example.mail has one"), "\(empty.stderr)")
        #expect(empty.stderr.hasSuffix("No windows.\n"))

        // With a UDID named, the spelling keeps it.
        let named = try simulator.run(["--simulator", "\(Self.iPhone)/com.example.mail", "list"])
        #expect(named.stderr.contains("--simulator \(Self.iPhone)/com.example.mail:group.com.example.mail"))

        // A window in the app's own store: nothing to say.
        try WindowStore(path: simulator.store(in: simulator.app())).save(WindowState(session: "s", window: "w"))
        let full = try simulator.run(["--simulator", "com.example.mail", "list"])
        #expect(full.status == 0)
        #expect(!full.stderr.contains("note:"), "\(full.stderr)")
    }

    @Test func noGroupHoldingAStoreIsNothingToNote() throws {
        let simulator = try Simulator()
        let run = try simulator.run(["--simulator", "com.example.mail", "list"])
        #expect(run.status == 66)
        #expect(run.stderr == "Error: no database at \(simulator.store(in: simulator.app()))\n", "\(run.stderr)")
    }

    /// Runs statectl, killing it and failing if it has not ended within 60 s: what an `xcrun` that
    /// never ends would do to a statectl that waits for it.
    static func bounded(
        _ simulator: Simulator, _ arguments: [String], state: String, extra: [String: String] = [:]
    ) throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        environment["STATECTL_DB"] = nil
        environment.merge(simulator.environment(state).merging(extra) { $1 }) { $1 }
        let output = TemporaryFolder(prefix: "statectl-bounded-")
        let child = try SpawnedChild(
            statectlPath, arguments, environment: environment, stdout: .file(output.file("out")),
            stderr: .file(output.file("err")))
        let deadline = ContinuousClock.now + .seconds(60)
        while child.isRunning {
            guard ContinuousClock.now < deadline else {
                child.signal(SIGKILL)
                child.waitUntilExit()
                throw FixtureError(message: "statectl did not end within 60 s")
            }
            usleep(10_000)
        }
        return Run(
            status: child.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: URL(fileURLWithPath: output.file("out"))), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: output.file("err"))), as: UTF8.self))
    }

    /// Whether `pid` is gone, or a zombie no one has reaped yet.
    static func hasEnded(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return true }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
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

    // MARK: --app and --group

    /// A Mac app that is not sandboxed keeps its store in a folder named by its bundle identifier.
    @Test func aMacAppThatIsNotSandboxed() throws {
        let fixture = Fixture()
        let database = fixture.path("home/Library/Application Support/com.example.mail/StateStore/state.db")
        let missing = try statectl(["--app", "com.example.mail", "list"], environment: fixture.environment)
        #expect(missing.status == 66)
        #expect(missing.stderr == "Error: no database at \(database)\n", "\(missing.stderr)")
        let set = try statectl(
            ["--app", "com.example.mail", "set", "s", "w", "--dismiss"], environment: fixture.environment)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try WindowStore(path: database).window(session: "s", window: "w")?.revision == 1)
        let list = try statectl(["list", "--app=com.example.mail", "--json"], environment: fixture.environment)
        #expect(list.stdout.contains(#""window":"w""#), "\(list.stderr)")
    }

    /// A macOS App Group's container, which its apps and extensions share; the store's Darwin
    /// notification carries the group's prefix, as a sandboxed app there listens for it.
    @Test func aMacAppGroupsContainer() throws {
        let fixture = Fixture()
        let container = fixture.path("home/Library/Group Containers/group.com.example.mail")
        let missing = try statectl(
            ["--group", "group.com.example.mail", "set", "s", "w", "--dismiss"], environment: fixture.environment)
        #expect(missing.status == 66)
        #expect(
            missing.stderr.hasPrefix(
                "Error: --group group.com.example.mail: no group container at \(container): is the group in the "
                    + "entitlements of an installed app"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.path("home/Library")), "nothing created")

        try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
        let set = try statectl(
            ["--group", "group.com.example.mail", "set", "s", "w", "--dismiss"], environment: fixture.environment)
        #expect(set.status == 0, "\(set.stderr)")
        let database = container + "/Library/Application Support/StateStore/state.db"
        #expect(try WindowStore(path: database).window(session: "s", window: "w")?.revision == 1)
    }

    // MARK: the command line

    @Test(arguments: [
        ["--db", "x.db", "--simulator", "com.example.mail", "list"],
        ["--simulator", "com.example.mail", "list", "--container", "com.example.mail"],
        ["list", "--container", "com.example.mail", "--db=x.db"],
        ["--app", "com.example.mail", "--group", "group.com.example.mail", "list"],
        ["--app", "com.example.mail", "list", "--db", "x.db"],
    ])
    func twoWaysOfNamingTheDatabaseAreAUsageError(_ arguments: [String]) throws {
        let simulator = try Simulator()
        let run = try simulator.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains("each name the database: give one"), "\(run.stderr)")
        #expect(simulator.calls().isEmpty, "found before anything is run")
    }

    /// BUNDLE and GROUP name folders: each is checked alike, before anything runs. `:app` would
    /// have been the app's bundle (simctl's container kinds are not groups), `/` and `..` another
    /// folder, a control character a name no app has.
    @Test(arguments: [
        (["--simulator", "", "list"], "expected [UDID/]BUNDLE[:GROUP]"),
        (["--simulator", ":group.x", "list"], "expected [UDID/]BUNDLE[:GROUP]"),
        (["--simulator", "a/b", "list"], "expected a simulator's UDID before '/'"),
        (["--simulator", "com.example.mail:", "list"], "expected an App Group identifier after ':'"),
        (["--simulator", "com.example.mail:app", "list"], "expected an App Group identifier after ':'"),
        (["--simulator", "com.example.mail:data", "list"], "expected an App Group identifier after ':'"),
        (["--simulator", "com.example.mail:groups", "list"], "expected an App Group identifier after ':'"),
        (["--simulator", "com.example.mail:group.a/b", "list"], "expected a simulator's UDID before '/'"),
        (["--simulator", "com.example.mail:..", "list"], "expected an App Group identifier after ':'"),
        (["--simulator", "com.example.mail:group.x\u{1}", "list"], "expected an App Group identifier after ':'"),
        (["--simulator", "com.example.mail:group.x:y", "list"], "expected an App Group identifier after ':'"),
        (["--simulator", "com.example\u{1B}.mail", "list"], "expected [UDID/]BUNDLE[:GROUP]"),
        (["--container", "a/b", "list"], "expected a bundle identifier"),
        (["--container", "..", "list"], "expected a bundle identifier"),
        (["--container=", "list"], "expected a bundle identifier"),
        (["--container", "com.example.mail:group.x", "list"], "for an App Group's container on macOS, --group GROUP"),
        (["--app", "../x", "list"], "expected a bundle identifier"),
        (["--group", "a/b", "list"], "expected an App Group identifier"),
        (["--group", "..", "list"], "expected an App Group identifier"),
    ])
    func aValueThatIsNoIdentifierIsAUsageError(_ arguments: [String], _ expected: String) throws {
        let simulator = try Simulator()
        let run = try simulator.run(arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(simulator.calls().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: simulator.fixture.path("home")))
    }

    /// `:app` used to write a store inside the app's bundle (`get_app_container … app`) and exit 0.
    @Test func aGroupNamedLikeAContainerKindNeverReachesSimctl() throws {
        let simulator = try Simulator()
        try FileManager.default.createDirectory(
            atPath: simulator.fixture.path("sim/\(Self.iPhone)/Shared/AppGroup/app"), withIntermediateDirectories: true)
        let run = try simulator.run(["--simulator", "com.example.mail:app", "set", "s", "w", "--dismiss"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(simulator.calls().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: simulator.store(in: "sim/\(Self.iPhone)/Shared/AppGroup/app")))
    }

    @Test func demoTakesDBOnly() throws {
        let simulator = try Simulator()
        for option in [["--container", "com.example.mail"], ["--app", "com.example.mail"], ["--group", "group.x"]] {
            let run = try simulator.run(["demo"] + option)
            #expect(run.status == 64)
            #expect(run.stderr.contains("'\(option[0])' is not for demo, which takes --db only"), "\(run.stderr)")
        }
    }
}

extension AppContainerTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func everyWayOfNamingAnAppsStoreCompletes(_ shell: String) throws {
        let run = try statectl(["completion", shell])
        #expect(run.status == 0)
        for option in ["--simulator", "--container", "--app", "--group"] {
            #expect(run.stdout.contains(option), "\(option)")
        }
    }
}
