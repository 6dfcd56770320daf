import Foundation
import StateStoreTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a full-screen program owes the terminal it borrows: raw mode and the alternate screen
/// only while it runs, the terminal's own modes back however it ends, nothing drawn where there
/// is no terminal, `NO_COLOR`, and no more output than a change needs.
struct TerminalMannersTests {
    @Test func quittingLeavesTheAlternateScreenAndPutsTheTerminalsModesBack() async throws {
        let fixture = MailFixture()
        let run = try fixture.launch()
        let before = run.modesAtLaunch.modes
        let running = try await run.waitForText("> Inbox (3)")
        #expect(running.inAlternateScreen)
        #expect(!running.cursorVisible)
        #expect(run.terminalModes().modes != before, "raw mode while it runs")
        #expect(running.unknown.isEmpty, "only sequences the model knows: \(running.unknown)")

        run.type("q")
        #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
        let after = try await run.finalScreen()
        #expect(after.enteredAlternateScreen)
        #expect(!after.synchronizing, "every frame was closed")
        #expect(!after.inAlternateScreen)
        #expect(after.cursorVisible)
        #expect(run.terminalModes().modes == before)
        #expect(run.standardError.isEmpty)
    }

    @Test(arguments: [(SIGINT, true), (SIGINT, false), (SIGTERM, false), (SIGHUP, false)])
    func aSignalPutsTheTerminalBackAndEndsByThatSignal(_ signal: Int32, typed: Bool) async throws {
        let fixture = MailFixture()
        let run = try fixture.launch()
        let before = run.modesAtLaunch.modes
        try await run.waitForText("> Inbox (3)")
        run.type(Keys.enter)
        try await run.waitForText("> Quarterly numbers")
        if typed { run.type(Keys.interrupt) } else { kill(run.pid, signal) }

        #expect(await run.waitForTermination() == .signaled(signal), "\(run.standardError)")
        let after = try await run.finalScreen()
        #expect(!after.inAlternateScreen)
        #expect(after.cursorVisible)
        #expect(run.terminalModes().modes == before)
        let path = try fixture.stored()["path"] as? [Any] ?? []
        #expect(path.map(routeValue) == [#"{"folder":{"_0":"Inbox"}}"#], "what was shown was saved first")
    }

    @Test func closingTheTerminalEndsItBySIGHUPAfterSavingWhatWasShown() async throws {
        let fixture = MailFixture()
        let run = try fixture.launch()
        try await run.waitForText("> Inbox (3)")
        run.type(Keys.down + Keys.enter)
        try await run.waitForText("> Offsite agenda")
        run.hangUp()
        #expect(await run.waitForTermination() == .signaled(SIGHUP), "\(run.standardError)")
        let path = try fixture.stored()["path"] as? [Any] ?? []
        #expect(path.map(routeValue) == [#"{"folder":{"_0":"Work"}}"#])
    }

    @Test func aTypedControlBackslashNeitherKillsItNorLeavesTheTerminalRaw() async throws {
        let fixture = MailFixture()
        let run = try fixture.launch()
        let before = run.modesAtLaunch.modes
        try await run.waitForText("> Inbox (3)")
        run.type("\u{1C}" + Keys.down)  // ^\: SIGQUIT, which would dump core, if the terminal sent it
        try await run.waitForText("> Work (2)")
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
        #expect(run.terminalModes().modes == before)
    }

    @Test func standardOutputNotATerminalExits64AndWritesNothing() throws {
        let fixture = MailFixture()
        let result = try fixture.mailhostWithoutTerminal(["--db", fixture.database])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("Error: standard output is not a terminal"))
        #expect(!exists(fixture.database), "no database was created")
    }

    @Test func standardInputNotATerminalExits64AndWritesNothing() throws {
        let fixture = MailFixture()
        let master = PseudoTerminal.open(O_RDWR | O_NOCTTY | O_CLOEXEC)
        #expect(master >= 0 && PseudoTerminal.grant(master) == 0 && PseudoTerminal.unlock(master) == 0)
        defer { close(master) }
        let name = try #require(PseudoTerminal.name(master))
        let descriptor = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        #expect(descriptor >= 0)
        let terminal = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let errors = TemporaryFolder(prefix: "mailhost-stderr-")
        let status = try spawnAndWait(
            MailHostRun.binary, ["--db", fixture.database],
            environment: ProcessInfo.processInfo.environment.merging(fixture.environment) { $1 },
            stdout: .descriptor(terminal.fileDescriptor), stderr: .file(errors.file("stderr")))
        let message = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: errors.file("stderr"))), as: UTF8.self)
        #expect(status == 64)
        #expect(message.contains("Error: standard input is not a terminal"))
        #expect(!exists(fixture.database))
    }

    @Test func helpDescribesTheOptionsAndKeysEvenWithoutATerminal() throws {
        let fixture = MailFixture()
        for arguments in [["--help"], ["-h"], ["--window", "x", "--help"], ["--bogus", "--help"]] {
            let result = try fixture.mailhostWithoutTerminal(arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stderr.isEmpty)
            for part in [
                "OVERVIEW:", "USAGE: mailhost", "--db PATH", "--window NAME", "--regular-width", "--settle MS",
            ] {
                #expect(result.stdout.contains(part), "\(part) in the help")
            }
            for key in ["backspace, esc", "Compose a new message", "between migrate and dismiss", "^Z suspends"] {
                #expect(result.stdout.contains(key), "\(key) in the help")
            }
        }
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["extra"], "unexpected argument 'extra'"),
        (["--window"], "--window needs a value"),
        (["--window", "a", "--window", "b"], "--window given twice"),
        (["--regular-width", "0"], "--regular-width takes a whole number from 1 to 10000, not '0'"),
        (["--regular-width=wide"], "--regular-width takes a whole number"),
        (["--settle", "-1"], "--settle takes a whole number from 0"),
        (["--db", ""], "--db needs a path"),
        (["--db", ":memory:"], "':memory:' would be a database in memory"),
    ])
    func aBadCommandLineExits64BeforeAnythingIsOpened(_ arguments: [String], message: String) throws {
        let fixture = MailFixture()
        let result = try fixture.mailhostWithoutTerminal(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("Error: " + message), "\(result.stderr)")
        #expect(result.stderr.contains("See 'mailhost --help'."))
        #expect(!exists(fixture.database))
        #expect(!exists(fixture.environment["XDG_STATE_HOME"]! + "/statectl/state.db"))
    }

    @Test func aWindowIdTheStoreRefusesExits65AndLeavesTheTerminalAlone() async throws {
        let fixture = MailFixture()
        let run = try fixture.launch(["--window", "tab\there"])
        #expect(await run.waitForTermination() == .exited(65))
        #expect(run.standardError.contains("Error: window id"), "\(run.standardError)")
        #expect(try await !run.finalScreen().enteredAlternateScreen)
        #expect(!exists(fixture.database))
    }

    @Test func aFileThatIsNotADatabaseExits74AndLeavesTheTerminalAlone() async throws {
        let fixture = MailFixture()
        try Data("not a database, just text\n".utf8).write(to: URL(fileURLWithPath: fixture.database))
        let run = try fixture.launch()
        #expect(await run.waitForTermination() == .exited(74))
        #expect(run.standardError.hasPrefix("Error: "), "\(run.standardError)")
        #expect(try await !run.finalScreen().enteredAlternateScreen)
        #expect(contents(fixture.database) == Data("not a database, just text\n".utf8), "untouched")
    }

    @Test func theDatabaseIsFoundAsStatectlFindsIt() async throws {
        let fixture = MailFixture()
        let run = try MailHostRun(arguments: [], environment: fixture.environment, columns: 120, rows: 24)
        try await run.waitForText("> Inbox (3)")
        run.type(Keys.enter)
        try await run.waitForText("> Quarterly numbers")
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
        let xdg = fixture.environment["XDG_STATE_HOME"]! + "/statectl/state.db"
        #expect(exists(xdg), "$XDG_STATE_HOME/statectl/state.db, as statectl's default")
        let list = try fixture.statectl(withoutDatabaseOption: ["list", "mailhost"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("mailhost  main"), "statectl, by the same rule, lists the window")
    }

    @Test func quittingWhileTheDatabaseStaysLockedSaysWhatWasNotSavedAndExits75() async throws {
        let fixture = MailFixture()
        try fixture.prepare(["--size-class", "regular"])
        let run = try fixture.launch()
        let before = run.modesAtLaunch.modes
        try await run.waitForText("> Inbox (3)")
        let lock = try WriteLock(fixture.database)
        defer { lock.release() }
        run.type(Keys.enter)
        try await run.waitForText("> Quarterly numbers")
        run.type("q")
        #expect(await run.waitForTermination() == .exited(75))
        #expect(run.standardError.contains("Error: changes to window 'main' were not saved"), "\(run.standardError)")
        #expect(run.terminalModes().modes == before)
        #expect(try await !run.finalScreen().inAlternateScreen)
        lock.release()
        #expect(try fixture.revisions() == 1, "nothing was written")
    }

    @Test func noColorDrawsWithoutAnyStyleAndColorDrawsWithStyles() async throws {
        let fixture = MailFixture()
        let plain = try fixture.launch(environment: ["NO_COLOR": ""])
        try await plain.waitForText("> Inbox (3)")
        plain.type("q")
        #expect(await plain.waitForTermination() == .exited(0))
        #expect(plain.screen.styleChanges == 0, "NO_COLOR, even empty: no SGR at all")

        let styled = try fixture.launch()
        try await styled.waitForText("> Inbox (3)")
        #expect(styled.screen.styleChanges > 0)
    }

    @Test func aChangeRewritesOnlyTheLinesThatChanged() async throws {
        let fixture = MailFixture()
        try fixture.prepare(["--size-class", "regular"])  // nothing left to settle after the launch
        let run = try fixture.launch()
        let first = try await run.waitForText("> Inbox (3)")
        let inbox = try #require(first.lines.firstIndex { $0.contains("> Inbox") })
        run.markUntouched()
        run.type(Keys.down)
        let screen = try await run.waitForText("> Work (2)")
        #expect(screen.touchedRows == [inbox, inbox + 1], "the two rows whose selection changed")
    }

    @Test func controlCharactersInAStoredRouteNeverReachTheTerminal() async throws {
        let fixture = MailFixture()
        try fixture.prepare([
            "--size-class", "regular", "--push", mailRoute(#"{"folder":{"_0":"\u001b]0;owned\u0007x"}}"#),
        ])
        let run = try fixture.launch()
        let screen = try await run.waitForText(#"Mail › \u{1B}]0;owned\u{7}x"#)
        #expect(screen.unknown.isEmpty, "no sequence but mailhost's own: \(screen.unknown)")
        #expect(screen.text.contains(#"No mail in \u{1B}]0;owned\u{7}x."#))
    }
}
