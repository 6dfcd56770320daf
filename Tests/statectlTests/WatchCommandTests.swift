import Foundation
import StateStore
import Testing

struct WatchCommandTests {
    /// Starts `statectl watch` in the background; its output goes to a file read at the end.
    final class Watcher {
        let process: SpawnedChild
        let output: URL
        let errors: URL

        init(_ fixture: Fixture, _ arguments: [String], database: String? = nil) throws {
            output = URL(fileURLWithPath: fixture.path("watch-\(UUID().uuidString).out"))
            errors = URL(fileURLWithPath: fixture.path("watch-\(UUID().uuidString).err"))
            var environment = ProcessInfo.processInfo.environment
            environment["STATECTL_DB"] = nil
            process = try SpawnedChild(
                statectlPath, ["--db", database ?? fixture.database, "watch"] + arguments,
                environment: environment.merging(fixture.environment) { $1 }, stdout: .file(output.path),
                stderr: .file(errors.path))
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

        /// Waits until the watcher has printed something on standard output containing `text`.
        func waitForOutput(_ text: String) throws {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if String(decoding: try Data(contentsOf: output), as: UTF8.self).contains(text) { return }
                usleep(10_000)
            }
            throw FixtureError(message: "watch never printed '\(text)'")
        }

        /// Waits until the watcher has printed at least `count` lines on standard output.
        func waitForLines(_ count: Int) throws {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
                if text.split(separator: "\n").count >= count { return }
                usleep(10_000)
            }
            throw FixtureError(message: "watch never printed \(count) lines")
        }

        /// Waits for the watcher to exit by itself (a generous bound catches a hang).
        func finish() throws -> (status: Int32, lines: [String]) {
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { process.signal(SIGTERM) }
            process.waitUntilExit()
            let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
            return (process.terminationStatus, text.split(separator: "\n").map(String.init))
        }
    }

    @Test func followsAnotherProcessFromTheFirstChangeOfANewDatabase() throws {
        let fixture = Fixture()
        // The database does not exist yet: watch waits for it and prints its changes from the start.
        let watcher = try Watcher(fixture, ["--json", "--count", "5", "--timeout", "20"])
        try watcher.waitForMessage("Waiting for \(fixture.database) to be created")
        #expect(try fixture.run(["set", "s", "a", "--push", "A"]).status == 0)
        #expect(try fixture.run(["set", "s", "a", "--present", #"Thread:{"id":1}"#]).status == 0)
        #expect(try fixture.run(["set", "s", "b", "--size-class", "regular"]).status == 0)
        // Printed before the delete: a deleted window's states leave the log, so a watch that read
        // only after the delete would print the sets as the windows' deletions.
        try watcher.waitForOutput(#""window":"b""#)
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
        try fixture.save("s", "w") { $0.push(route("A")) }
        let run = try fixture.run(["watch", "--timeout", "0.3"])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        let missing = Fixture()
        let waited = try missing.run(["watch", "--timeout", "0.2"])
        #expect(waited.status == 0)
        #expect(waited.stderr.contains("Waiting for"))
        #expect(!missing.exists(missing.database), "waiting for a database creates none")
    }

    @Test func pollPrintsTheChangesOfAnotherProcessAndVerboseSaysItPolls() throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("Start")) }
        let watcher = try Watcher(fixture, ["s", "--poll", "--verbose", "--json", "--count", "2", "--timeout", "20"])
        try watcher.waitForMessage("Watching for changes: polling every 50 ms, because polling was asked for")
        #expect(try fixture.run(["set", "s", "w", "--push", "A"]).status == 0)
        // Printed before the delete: a deleted window's states leave the log, so a watch that
        // polled only after the delete would print the set as the window's deletion.
        try watcher.waitForOutput(#""revision":2"#)
        #expect(try fixture.run(["delete", "s", "w"]).status == 0)
        let (status, lines) = try watcher.finish()
        #expect(status == 0)
        let changes = try lines.map(jsonObject)
        #expect(changes.map { $0["revision"] as? Int } == [2, nil])
        #expect(changes.allSatisfy { $0["window"] as? String == "w" })
    }

    @Test func verboseNamesTheFolderWhoseNotificationsItWaitsFor() throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("Start")) }
        let folder = URL(fileURLWithPath: fixture.folder).resolvingSymlinksInPath().path
        let run = try fixture.run(["watch", "--verbose", "--timeout", "0.2"])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr
                == "Watching for changes: file notifications on \(folder), and a poll every 2 s as a safety net\n")
        let quiet = try fixture.run(["watch", "--timeout", "0.2"])
        #expect(quiet.stderr.isEmpty, "without --verbose, nothing is said")
    }

    @Test func verboseWhileWaitingForTheDatabaseNamesTheFolderAboveAndThenTheDatabases() throws {
        let fixture = Fixture()
        let database = fixture.path("sub/state.db")
        let folder = URL(fileURLWithPath: fixture.folder).resolvingSymlinksInPath().path
        let watcher = try Watcher(fixture, ["--verbose", "--count", "1", "--timeout", "20"], database: database)
        try watcher.waitForMessage("file notifications on \(folder),")
        #expect(
            try statectl(["--db", database, "set", "s", "w", "--push", "A"], environment: fixture.environment).status
                == 0)
        let (status, lines) = try watcher.finish()
        #expect(status == 0)
        #expect(lines.count == 1 && lines.first?.hasPrefix("s w: revision 1, ") == true, "\(lines)")
        let messages = String(decoding: try Data(contentsOf: watcher.errors), as: UTF8.self)
        #expect(messages.contains("Waiting for \(database) to be created"))
        #expect(messages.contains("file notifications on \(folder)/sub,"), "\(messages)")
    }

    @Test func aFileThatIsNotADatabaseCreatedWhileWaitingEndsTheWatchWith74() throws {
        let fixture = Fixture()
        let watcher = try Watcher(fixture, ["--timeout", "20"])
        try watcher.waitForMessage("Waiting for \(fixture.database) to be created")
        #expect(FileManager.default.createFile(atPath: fixture.database, contents: Data("not SQLite\n".utf8)))
        let (status, lines) = try watcher.finish()
        #expect(status == 74)
        #expect(lines.isEmpty)
        let messages = String(decoding: try Data(contentsOf: watcher.errors), as: UTF8.self)
        #expect(messages.contains("Error: "), "\(messages)")
        #expect(try String(contentsOfFile: fixture.database, encoding: .utf8) == "not SQLite\n", "left untouched")
    }

    @Test(arguments: [["--timeout", "soon"], ["--timeout", "-1"], ["--count", "0"], ["a", "b"]])
    func badArgumentsAreUsageErrors(_ arguments: [String]) throws {
        let fixture = Fixture()
        #expect(try fixture.run(["watch"] + arguments).status == 64)
    }
}
