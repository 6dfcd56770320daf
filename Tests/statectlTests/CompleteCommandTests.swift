import Foundation
import StateStore
import Testing

/// The hidden `statectl __complete`, which the completion scripts run for ids: what it prints, and
/// that it never creates, migrates or waits for anything, nor prints an error about the database.
struct CompleteCommandTests {
    @Test func printsSessionsOnceEachAndTheWindowsOfASession() throws {
        let completion = try CompletionFixture.populated()
        let fixture = completion.fixture
        let sessions = try fixture.run(["__complete", "sessions"])
        #expect(sessions.status == 0)
        #expect(sessions.stderr.isEmpty)
        #expect(sessions.stdout == "mail\nnotes\n", "sorted, each once, without the one holding control characters")
        let windows = try fixture.run(["__complete", "windows", "mail"])
        #expect(windows.stdout == "main\nside car\n", "without the one holding control characters")
        let other = try statectl(["__complete", "--db", completion.other, "--", "windows", "other"])
        #expect(other.stdout == "o1\n", "--db after the command, -- before the arguments")
        #expect(try fixture.run(["__complete", "windows", "nobody"]).stdout.isEmpty)
    }

    @Test func aMissingDatabaseGivesNothingAndCreatesNothing() throws {
        let fixture = Fixture()
        for database in [fixture.database, fixture.path("missing/state.db")] {
            for arguments in [["sessions"], ["windows", "mail"]] {
                let run = try statectl(["--db", database, "__complete"] + arguments, environment: fixture.environment)
                #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty, "\(database) \(arguments): \(run)")
            }
            // Nor through STATECTL_DB or the default location.
            var environment = fixture.environment
            environment["STATECTL_DB"] = database
            #expect(try statectl(["__complete", "sessions"], environment: environment).stdout.isEmpty)
        }
        #expect(try statectl(["__complete", "sessions"], environment: fixture.environment).stdout.isEmpty)
        #expect(fixture.contents(of: fixture.folder) == ["tmp"], "no database, no folder, no -wal or -shm")
    }

    /// Another process holds every lock (as one recovering the WAL does). The lock goes after
    /// four seconds even if the test is still waiting: a completion that waited for it, as
    /// `list` does for up to five, would then print the ids.
    @Test func aLockedDatabaseGivesNothingWithoutWaitingForTheLock() throws {
        let completion = try CompletionFixture.populated()
        let fixture = completion.fixture
        let lock = try WriteLock(fixture.database, exclusive: true)
        let done = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        Thread {
            _ = done.wait(timeout: .now() + 4)
            lock.release()
            released.signal()
        }.start()
        let before = fixture.contents(of: fixture.folder)
        let run = try fixture.run(["__complete", "sessions"])
        let after = fixture.contents(of: fixture.folder)
        done.signal()
        released.wait()
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty, "gave up on the lock at once: \(run.stdout)")
        #expect(run.stderr.isEmpty)
        #expect(after == before)
        #expect(try fixture.run(["__complete", "sessions"]).stdout == "mail\nnotes\n", "the lock is gone")
    }

    /// A file that is not a store, and a store of an older schema, are read as nothing and left
    /// as they were: completing never migrates.
    @Test func aFileThatIsNotACurrentStoreGivesNothingAndIsLeftAlone() throws {
        let fixture = Fixture()
        let text = fixture.path("notes.txt")
        try Data("not a database\n".utf8).write(to: URL(fileURLWithPath: text))
        let foreign = fixture.path("foreign.db")
        try rawSQL(foreign, "CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        let old = fixture.path("schema1.db")
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(
                atPath: fixtures.appendingPathComponent("schema1.db" + suffix).path, toPath: old + suffix)
        }
        let oldBefore = try rawDump(old)
        for database in [text, foreign, old] {
            let before = try? Fixture.dump(database)
            let run = try statectl(["--db", database, "__complete", "sessions"], environment: fixture.environment)
            #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty, "\(database): \(run)")
            #expect((try? Fixture.dump(database)) == before, "\(database) is unchanged")
        }
        #expect(try rawDump(old) == oldBefore)
        #expect(try rawQuery(old, "PRAGMA user_version") == ["1"], "not migrated")
        #expect(contents(text) == Data("not a database\n".utf8))
    }

    @Test func isHiddenFromHelpSuggestionsAndTheManualPage() throws {
        #expect(!(try statectl(["help"]).stdout.contains("__complete")))
        #expect(!(try statectl(["help", "--man"]).stdout.contains("__complete")))
        let misspelt = try statectl(["__completes"])
        #expect(misspelt.status == 64)
        #expect(!misspelt.stderr.contains("Did you mean"), "a hidden command is never suggested: \(misspelt.stderr)")
        let help = try statectl(["__complete", "--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: "), "it has help, as every command does")
    }

    @Test(arguments: [
        (["__complete"], "missing argument '<what>'"),
        (["__complete", "everything"], "invalid value 'everything' for '<what>': expected one of sessions, windows"),
        (["__complete", "windows"], "windows needs a session"),
        (["__complete", "sessions", "mail"], "sessions takes no session"),
    ])
    func aBadCommandLineIsAUsageError(_ arguments: [String], _ message: String) throws {
        let fixture = Fixture()
        let run = try fixture.run(arguments)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Error: \(message)"), "\(run.stderr)")
        #expect(!fixture.exists(fixture.database))
    }
}
