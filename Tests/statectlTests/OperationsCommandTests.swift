import Foundation
import StateStore
import Testing

/// export, import, watch, prune and the NavigationPath forms of show and set, run as a user runs them.
struct ExportImportCommandTests {
    private func populate(_ fixture: Fixture) throws {
        try fixture.save("mail", "main") { state in
            state.sizeClass = .regular
            state.push(route("Folder", #""inbox""#))
            state.present(route("Thread", #"{"id":42,"ratio":1.50}"#))
            state.push(route("Attachment", #""a.pdf""#))
        }
        try fixture.save("mail", "compose") { $0.policy = .dismiss }
        try fixture.save("notes", "n1") { $0.push(route("Note", "[1,2]")) }
    }

    /// A document's windows with the fields the store stamps left out.
    private func content(_ text: String) throws -> [[String: String]] {
        let windows = try #require(try jsonObject(text)["windows"] as? [[String: Any]])
        return windows.map { window in
            window.filter { $0.key != "revision" && $0.key != "updatedAt" }.mapValues { value in
                String(
                    decoding: try! JSONSerialization.data(
                        withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]), as: UTF8.self)
            }
        }
    }

    @Test func exportImportExportRoundTrips() throws {
        let source = Fixture()
        defer { source.cleanUp() }
        try populate(source)
        let exported = try source.run(["export"])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.hasSuffix("}\n"))
        #expect(try jsonObject(exported.stdout)["format"] as? String == "statectl/1")
        #expect(exported.stdout.contains(#"{"id":42,"ratio":1.50}"#), "values as written")

        let target = Fixture()
        defer { target.cleanUp() }
        let imported = try target.run(["import"], stdin: Data(exported.stdout.utf8))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("SESSION"))
        #expect(imported.stderr == "Imported 3 windows.\n")
        let again = try target.run(["export"])
        #expect(try content(again.stdout) == content(exported.stdout))
    }

    @Test func importWritesNextRevisionsFromAFile() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        try populate(fixture)
        let file = fixture.path("doc.json")
        try Data(
            #"{"format":"statectl/1","windows":[{"session":"mail","window":"main","sizeClass":"compact","revision":7}]}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: file))
        let run = try fixture.run(["import", file, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let written = try jsonArray(run.stdout)
        #expect(written.first?["revision"] as? Int == 2)
        #expect(written.first?["sizeClass"] as? String == "compact")
        #expect((written.first?["path"] as? [Any])?.isEmpty == true, "left out: as a new window")
        #expect(try fixture.store().history(session: "mail", window: "main").count == 2)
    }

    @Test func exportOfNamedSessionsAndUnknownOnes() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        try populate(fixture)
        let notes = try jsonObject(try fixture.run(["export", "notes", "notes"]).stdout)
        #expect((notes["windows"] as? [[String: Any]])?.map { $0["window"] as? String } == ["n1"])
        let before = try fixture.dump()
        let unknown = try fixture.run(["export", "notes", "nope"])
        #expect(unknown.status == 66)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains("session 'nope' not found"))
        #expect(try fixture.dump() == before)
    }

    @Test func exportOfAMissingDatabaseCreatesNothing() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        let run = try fixture.run(["export"])
        #expect(run.status == 0)
        #expect(run.stdout == #"{"format":"statectl/1","windows":[]}"# + "\n")
        #expect(try fixture.run(["export", "s"]).status == 66)
        #expect(!fixture.exists(fixture.database))
    }

    static let badDocuments: [(String, String)] = [
        (#"{"format":"statectl/9","windows":[]}"#, "statectl/9"),
        (#"{"format":"statectl/1","windows":[{"session":"a","window":"b","colour":1}]}"#, "windows[0].colour"),
        (
            #"{"format":"statectl/1","windows":[{"session":"a","window":"b"},{"session":"a","window":"b"}]}"#,
            "windows[1]"
        ),
        (#"{"format":"statectl/1","windows":[{"session":"a","window":"b","itemPath":[{"type":"X"}]}]}"#, "itemPath"),
        (#"{"format":"statectl/1","windows":[{"session":"a","window":"b","path":[{"type":"T","value":01}]}]}"#, "path"),
        ("not json", "document"),
        ("", "document"),
    ]

    @Test(arguments: badDocuments)
    func badDocumentsAre65AndWriteNothing(_ document: String, _ named: String) throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        // Into a missing database: nothing is created.
        let fresh = try fixture.run(["import", "-"], stdin: Data(document.utf8))
        #expect(fresh.status == 65)
        #expect(fresh.stderr.contains(named), "\(fresh.stderr)")
        #expect(!fixture.exists(fixture.database))
        // Into an existing one: nothing changes, even with good windows before the bad one.
        try populate(fixture)
        let before = try fixture.dump()
        let run = try fixture.run(["import"], stdin: Data(document.utf8))
        #expect(run.status == 65)
        #expect(run.stdout.isEmpty)
        #expect(try fixture.dump() == before)
    }

    @Test func importOfInvalidUTF8AndMissingFiles() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        var bytes = Data(#"{"format":"statectl/1","windows":[{"session":""#.utf8)
        bytes += Data([0xC3, 0x28])
        bytes += Data(#"","window":"w"}]}"#.utf8)
        let invalid = try fixture.run(["import"], stdin: bytes)
        #expect(invalid.status == 65)
        #expect(invalid.stderr.contains("UTF-8"))
        let missing = try fixture.run(["import", fixture.path("no-such.json")])
        #expect(missing.status == 66)
        #expect(!fixture.exists(fixture.database))
        #expect(try fixture.run(["import", "a.json", "b.json"]).status == 64)
    }
}

struct NavigationPathCommandTests {
    @Test func showPrintsTheRepresentationAndSetTakesItBack() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        try fixture.save("s", "w") { state in
            state.push(route("App.Folder", #""inbox""#))
            state.push(route("App.Thread", #"{"id":42}"#))
        }
        let shown = try fixture.run(["show", "s", "w", "--navigation-path"])
        #expect(shown.status == 0)
        #expect(shown.stdout == #"["App.Thread","{\"id\":42}","App.Folder","\"inbox\""]"# + "\n")
        #expect(try fixture.run(["show", "s", "w", "--navigation-path", "--json"]).stdout == shown.stdout)

        let set = try fixture.run([
            "set", "s", "other", "--navigation-path", shown.stdout.trimmingCharacters(in: .newlines), "--push", "Tail",
        ])
        #expect(set.status == 0, "\(set.stderr)")
        let other = try #require(try fixture.store().window(session: "s", window: "other"))
        #expect(other.path == [route("App.Folder", #""inbox""#), route("App.Thread", #"{"id":42}"#), route("Tail")])
    }

    @Test func navigationPathNeedsAWindowAndAnExistingOne() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        try fixture.save("s", "w") { $0.push(route("A")) }
        let usage = try fixture.run(["show", "s", "--navigation-path"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("needs a window"))
        #expect(try fixture.run(["show", "s", "nope", "--navigation-path"]).status == 66)
    }

    static let malformed = [
        #"["T"]"#, #"["T",1]"#, #"["T","{"]"#, #"{"T":"1"}"#, "not json", #"["","1"]"#, #"["T","1","U"]"#,
    ]

    @Test(arguments: malformed)
    func malformedRepresentationsAre65AndWriteNothing(_ text: String) throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        try fixture.save("s", "w") { $0.push(route("A")) }
        let before = try fixture.dump()
        let run = try fixture.run(["set", "s", "w", "--push", "B", "--navigation-path", text])
        #expect(run.status == 65)
        #expect(run.stderr.contains("NavigationPath"))
        #expect(try fixture.dump() == before)
    }
}

struct PruneCommandTests {
    /// Sessions written long ago (through the library with an old clock) and just now.
    private func populate(_ fixture: Fixture) throws {
        var options = StateStore.Options()
        options.clock = { Timestamp(millisecondsSince1970: Timestamp.now().millisecondsSince1970 - 40 * 86_400_000) }
        let old = try StateStore(path: fixture.database, options: options)
        try old.save(WindowState(session: "old", window: "a"))
        try old.save(WindowState(session: "old", window: "b"))
        try old.save(WindowState(session: "mixed", window: "old"))
        try fixture.save("mixed", "new") { $0.push(route("A")) }
        try fixture.save("fresh", "w") { $0.push(route("A")) }
    }

    @Test func dryRunReportsThenPruneRemoves() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        try populate(fixture)
        let before = try fixture.dump()
        let dry = try fixture.run(["prune", "--older-than", "30d", "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let report = try jsonObject(dry.stdout)
        #expect(report["dryRun"] as? Bool == true)
        let sessions = try #require(report["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["session"] as? String } == ["old"])
        #expect(sessions.first?["windows"] as? [String] == ["a", "b"])
        #expect(try fixture.dump() == before, "a dry run removes nothing")

        let run = try fixture.run(["prune", "--older-than=30d"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("SESSION"))
        #expect(run.stdout.contains("old"))
        #expect(run.stderr == "Removed 1 session.\n")
        #expect(try fixture.store().windowSummaries().map(\.session) == ["fresh", "mixed", "mixed"])
        #expect(try fixture.run(["prune", "--older-than", "41d"]).stderr == "Removed 0 sessions.\n")
    }

    @Test(arguments: [
        ["prune"], ["prune", "--older-than", "30"], ["prune", "--older-than", "5w"], ["prune", "--older-than", "-1d"],
    ])
    func badDurationsAreUsageErrors(_ arguments: [String]) throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        let run = try fixture.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains("--older-than"))
    }

    @Test func aMissingDatabaseRemovesNothingAndStaysMissing() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        let run = try fixture.run(["prune", "--older-than", "1s", "--json"])
        #expect(run.status == 0)
        #expect(try jsonObject(run.stdout)["sessions"] as? [Any] != nil)
        #expect(!fixture.exists(fixture.database))
    }
}

struct WatchCommandTests {
    /// Starts `statectl watch` in the background; its output goes to a file read at the end.
    final class Watcher {
        let process = Process()
        let output: URL
        let errors: URL

        init(_ fixture: Fixture, _ arguments: [String]) throws {
            output = URL(fileURLWithPath: fixture.path("watch-\(UUID().uuidString).out"))
            errors = URL(fileURLWithPath: fixture.path("watch-\(UUID().uuidString).err"))
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: statectlPath)
            process.arguments = ["--db", fixture.database, "watch"] + arguments
            var environment = ProcessInfo.processInfo.environment
            environment["STATECTL_DB"] = nil
            process.environment = environment.merging(fixture.environment) { $1 }
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
        }

        /// Waits until the watcher has said something on standard error containing `text`.
        func waitForMessage(_ text: String) throws {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if String(decoding: try Data(contentsOf: errors), as: UTF8.self).contains(text) { return }
                usleep(10_000)
            }
            throw FixtureError(message: "watch never said '\(text)'")
        }

        /// Waits for the watcher to exit by itself (a generous bound catches a hang).
        func finish() throws -> (status: Int32, lines: [String]) {
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
            return (process.terminationStatus, text.split(separator: "\n").map(String.init))
        }
    }

    @Test func followsAnotherProcessFromTheFirstChangeOfANewDatabase() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        // The database does not exist yet: watch waits for it and prints its changes from the start.
        let watcher = try Watcher(fixture, ["--json", "--count", "5", "--timeout", "20"])
        try watcher.waitForMessage("Waiting for \(fixture.database) to be created")
        #expect(try fixture.run(["set", "s", "a", "--push", "A"]).status == 0)
        #expect(try fixture.run(["set", "s", "a", "--present", #"Thread:{"id":1}"#]).status == 0)
        #expect(try fixture.run(["set", "s", "b", "--size-class", "regular"]).status == 0)
        #expect(try fixture.run(["delete", "s"]).status == 0)
        let (status, lines) = try watcher.finish()
        #expect(status == 0)
        let changes = try lines.map(jsonObject)
        #expect(changes.count == 5)
        #expect(changes.map { $0["window"] as? String } == ["a", "a", "b", "a", "b"])
        #expect(changes.map { $0["revision"] as? Int } == [1, 2, 1, nil, nil])
        #expect(changes.allSatisfy { Set($0.keys) == ["session", "window", "revision", "state"] })
        let second = try #require(changes[1]["state"] as? [String: Any])
        #expect(routeText(second["item"]) == #"Thread:{"id":1}"#)
        #expect(changes[3]["state"] is NSNull, "a deletion has a null state")
    }

    @Test func printsEachChangeOfARunningDatabaseInOrder() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        try fixture.save("s", "w") { $0.push(route("Start")) }
        try fixture.save("other", "w") { $0.push(route("Start")) }
        let watcher = try Watcher(fixture, ["s", "--count", "3", "--timeout", "20"])
        // Write until the watcher has seen three changes and exited; it may have started after some.
        let store = try fixture.store()
        var writes = 0
        while watcher.process.isRunning && writes < 400 {
            try store.update(session: "other", window: "w") { $0.push(route("Noise")) }
            try store.update(session: "s", window: "w") {
                $0.sizeClass = writes.isMultiple(of: 2) ? .compact : .regular
            }
            writes += 1
            usleep(50_000)
        }
        let (status, lines) = try watcher.finish()
        #expect(status == 0)
        #expect(lines.count == 3)
        let revisions = lines.compactMap { line in
            line.firstMatch(of: #/^s w: revision (\d+), /#).flatMap { Int($0.output.1) }
        }
        #expect(revisions.count == 3, "\(lines)")
        if let first = revisions.first { #expect(revisions == [first, first + 1, first + 2], "each change, in order") }
    }

    @Test func timeoutExitsZeroWhenNothingChanges() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        try fixture.save("s", "w") { $0.push(route("A")) }
        let run = try fixture.run(["watch", "--timeout", "0.3"])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        let missing = Fixture()
        defer { missing.cleanUp() }
        let waited = try missing.run(["watch", "--timeout", "0.2"])
        #expect(waited.status == 0)
        #expect(waited.stderr.contains("Waiting for"))
        #expect(!missing.exists(missing.database), "waiting for a database creates none")
    }

    @Test(arguments: [["--timeout", "soon"], ["--timeout", "-1"], ["--count", "0"], ["a", "b"]])
    func badArgumentsAreUsageErrors(_ arguments: [String]) throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        #expect(try fixture.run(["watch"] + arguments).status == 64)
    }
}
