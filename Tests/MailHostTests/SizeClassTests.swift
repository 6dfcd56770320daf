import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal's width is the window's size class: regular from 100 columns, compact below,
/// unspecified until a size is known. The layout follows the model, and a size-class change
/// counts only once it has held for the settle time, through real resizes and suspensions.
struct SizeClassTests {
    @Test func aPushedMessageBecomesAFramedSheetBelowTheRegularWidthAndBack() async throws {
        let fixture = MailFixture()
        try fixture.prepareMessageOverItsThread(policy: "migrate")
        let run = try fixture.launch(columns: 120)
        var screen = try await run.waitForText("From:    Grace Hopper")
        #expect(screen.breadcrumbs == "Mail › Inbox › Quarterly numbers › From Grace Hopper")
        #expect(!screen.showsSheet)
        #expect(screen.status.contains("regular"))

        run.resize(columns: 99, rows: 24)
        screen = try await run.waitForScreen("the message in a sheet") { $0.text.contains("┌─ From Grace Hopper ─") }
        #expect(screen.breadcrumbs == "Mail › Inbox › Quarterly numbers", "the message left the breadcrumbs")
        #expect(screen.text.contains("│ From:    Grace Hopper <grace@work.example>"))
        #expect(screen.status.contains("compact"))
        #expect(screen.overflows == 0, "nothing is drawn past the new width")

        run.resize(columns: 100, rows: 24)
        screen = try await run.waitForScreen("the message pushed again") {
            $0.breadcrumbs.hasSuffix("› From Grace Hopper") && !$0.showsSheet
        }
        #expect(screen.status.contains("regular"))
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
    }

    @Test func theRegularWidthIsAnOption() async throws {
        let fixture = MailFixture()
        try fixture.prepareMessageOverItsThread(policy: "migrate")
        let run = try fixture.launch(["--regular-width", "130"], columns: 120)
        let screen = try await run.waitForText("┌─ From Grace Hopper ─")
        #expect(screen.status.contains("compact"))
        run.resize(columns: 130, rows: 24)
        try await run.waitForScreen("regular at 130 columns") { $0.status.contains("regular") && !$0.showsSheet }
    }

    @Test func theSizeClassIsUnspecifiedUntilTheTerminalHasASize() async throws {
        let fixture = MailFixture()
        try fixture.prepareMessageOverItsThread(policy: "migrate")
        let run = try fixture.launch(columns: 0, rows: 0)
        // Unspecified presents as compact does: a sheet (drawn the frame after the stack under it).
        var screen = try await run.waitForScreen("the message as a sheet, unspecified") {
            $0.status.contains("unspecified") && $0.showsSheet
        }
        #expect(screen.text.contains("┌─ From Grace Hopper ─"))
        run.resize(columns: 120, rows: 24)
        screen = try await run.waitForScreen("regular once the size is known") {
            $0.status.contains("regular") && !$0.showsSheet
        }
        #expect(screen.breadcrumbs.hasSuffix("› From Grace Hopper"))
    }

    @Test func aRelaunchAtAnotherWidthRestoresTheWindowInTheNewForm() async throws {
        let fixture = MailFixture()
        let wide = try fixture.launch(columns: 120)
        try await wide.waitForText("> Inbox (3)")
        for (key, shown) in [(Keys.enter, "> Quarterly numbers"), (Keys.enter, "> Grace Hopper"), (Keys.down, "> Ada")]
        {
            wide.type(key)
            try await wide.waitForText(shown)
        }
        wide.type(Keys.enter)
        try await wide.waitForScreen("the reply pushed") { $0.breadcrumbs.hasSuffix("› Quarterly numbers › From Ada") }
        wide.type("q")
        #expect(await wide.waitForTermination() == .exited(0), "\(wide.standardError)")

        let narrow = try fixture.launch(columns: 80)
        var screen = try await narrow.waitForText("┌─ From Ada ─")
        #expect(screen.breadcrumbs == "Mail › Inbox › Quarterly numbers")
        #expect(screen.text.contains("Checked. The forecast holds"))

        // And back: a compose with a search pushed inside the sheet comes back pushed.
        narrow.type(Keys.backspace + Keys.backspace + Keys.backspace)
        try await narrow.waitForScreen("the mailboxes") { $0.breadcrumbs == "Mail" && !$0.showsSheet }
        narrow.type(Keys.down + Keys.down + Keys.down + Keys.down)
        try await narrow.waitForText("> Drafts (2)")
        narrow.type(Keys.enter)
        try await narrow.waitForText("> Q3 summary")
        narrow.type(Keys.enter)
        try await narrow.waitForText("> Attach…")
        narrow.type(Keys.enter)
        try await narrow.waitForText("┌─ Q3 summary for the board › Search: attachments ─")
        narrow.type("q")
        #expect(await narrow.waitForTermination() == .exited(0), "\(narrow.standardError)")

        let wideAgain = try fixture.launch(columns: 120)
        screen = try await wideAgain.waitForScreen("the compose and its search pushed") {
            $0.breadcrumbs == "Mail › Drafts › Q3 summary for the board › Search: attachments"
        }
        #expect(!screen.showsSheet)
        #expect(screen.text.contains("Quarterly numbers  (3 messages)"))
    }

    @Test func aResizeBackWithinTheSettleTimeKeepsADismissItemAndWritesNothing() async throws {
        let fixture = MailFixture()
        try fixture.prepareMessageOverItsThread(policy: "dismiss")
        // A settle time no run of this test can outlast, so the flip is always within it.
        let run = try fixture.launch(["--settle", "600000"], columns: 120)
        try await run.waitForText("From:    Grace Hopper")

        run.resize(columns: 80, rows: 24)
        var screen = try await run.waitForScreen("compact, the dismiss item hidden") {
            $0.status.contains("compact") && !$0.text.contains("Grace Hopper <grace")
        }
        #expect(!screen.showsSheet, "hidden while the change settles, not moved to a sheet")
        #expect(screen.breadcrumbs == "Mail › Inbox › Quarterly numbers")

        run.resize(columns: 120, rows: 24)
        screen = try await run.waitForScreen("the item back") { $0.text.contains("From:    Grace Hopper") }
        #expect(screen.breadcrumbs.hasSuffix("› From Grace Hopper"))
        #expect(screen.status.contains("revision 1"))
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
        #expect(try fixture.revisions() == 1, "no revision was written")
        #expect(routeValue(try fixture.stored()["item"]) == #"{"message":{"_0":11}}"#)
    }

    @Test func aResizeThatHoldsForTheSettleTimeClearsADismissItemInOneRevision() async throws {
        let fixture = MailFixture()
        try fixture.prepareMessageOverItsThread(policy: "dismiss")
        let run = try fixture.launch(["--settle", "100"], columns: 120)
        try await run.waitForText("From:    Grace Hopper")
        run.resize(columns: 80, rows: 24)
        let screen = try await run.waitForText("revision 2")
        #expect(!screen.text.contains("Grace Hopper <grace"))
        #expect(!screen.showsSheet)
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
        let stored = try fixture.stored()
        #expect(stored["item"] is NSNull, "the change of mode held: dismissed")
        #expect(stored["sizeClass"] as? String == "compact")
        #expect(try fixture.revisions() == 2, "one revision for the settled change")
    }

    @Test func suspendingRestoresTheTerminalAndStopsAndResumingRedrawsInTheNewSize() async throws {
        let fixture = MailFixture()
        try fixture.prepareMessageOverItsThread(policy: "migrate")
        let run = try fixture.launch(columns: 120)
        let before = run.modesAtLaunch.modes
        try await run.waitForText("From:    Grace Hopper")
        #expect(run.terminalModes().modes != before, "raw mode while running")

        run.type(Keys.suspend)
        #expect(await run.waitForTermination(untilStopped: true) == .stopped(SIGSTOP))
        var screen = try await run.finalScreen()
        #expect(!screen.inAlternateScreen, "the shell's screen is back while suspended")
        #expect(screen.cursorVisible)
        #expect(run.terminalModes().modes == before, "and the terminal's modes")

        run.resize(columns: 80, rows: 24)
        kill(run.pid, SIGCONT)
        screen = try await run.waitForScreen("redrawn as a sheet") { $0.inAlternateScreen && $0.showsSheet }
        #expect(screen.text.contains("│ From:    Grace Hopper"))
        #expect(screen.status.contains("compact"))
        #expect(run.terminalModes().modes != before, "raw mode again")
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
        #expect(run.terminalModes().modes == before)
    }

    /// The line of keys fits the terminal: what it leaves out to fit, it leaves out from the least
    /// needed, and "q quit" is always there (at 60 columns it was cut off).
    @Test(arguments: [30, 45, 60, 80, 99, 120])
    func theKeysAlwaysShowHowToQuit(_ columns: Int) async throws {
        let fixture = MailFixture()
        let run = try fixture.launch(columns: columns, rows: 12)
        let screen = try await run.waitForScreen("the mailboxes") { $0.breadcrumbs == "Mail" }
        let keys = screen.lines[screen.lines.count - 2]
        #expect(keys.hasSuffix("q quit"), "\(columns) columns: '\(keys)'")
        #expect(keys.count < columns, "\(columns) columns: '\(keys)'")
        #expect(keys.contains("up/down select"), "\(columns) columns: '\(keys)'")
        if columns >= 80 { #expect(keys.contains("p policy")) }
        #expect(screen.overflows == 0)
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
    }
}
