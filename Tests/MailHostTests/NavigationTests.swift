import Foundation
import Testing

/// Keys in, the screen out: arrows select in the list of what the top of the stack holds, enter
/// pushes it (presents a message or a compose), backspace and escape go back one.
struct NavigationTests {
    @Test func arrowsEnterBackspaceAndEscapeMoveThroughTheMailbox() async throws {
        let fixture = MailFixture()
        let run = try fixture.launch(columns: 120)
        var screen = try await run.waitForText("> Inbox (3)")
        #expect(screen.breadcrumbs == "Mail")
        #expect(screen.text.contains("  Work (2)"))
        #expect(screen.text.contains("  Drafts (2)"))

        run.type(Keys.down)
        screen = try await run.waitForText("> Work (2)")
        #expect(!screen.text.contains("> Inbox"), "one row is selected")
        run.type(Keys.up)
        try await run.waitForText("> Inbox")
        run.type(Keys.enter)
        screen = try await run.waitForScreen("the inbox") { $0.breadcrumbs == "Mail › Inbox" }
        #expect(screen.text.contains("> Quarterly numbers  (3 messages)"))
        run.type(Keys.down)
        run.type(Keys.enter)
        screen = try await run.waitForScreen("the thread") { $0.breadcrumbs.hasSuffix("› Release train 4.2") }
        #expect(screen.text.contains("> Linus  Tue 4 Nov 14:30  The 4.2 branch is cut."))

        run.type(Keys.enter)
        screen = try await run.waitForScreen("the message, pushed") {
            $0.breadcrumbs == "Mail › Inbox › Release train 4.2 › From Linus"
        }
        #expect(screen.text.contains("From:    Linus <linus@work.example>"))
        #expect(!screen.showsSheet, "regular: the presented message is pushed, not a sheet")

        run.type(Keys.backspace)
        try await run.waitForScreen("back at the thread") { $0.breadcrumbs.hasSuffix("› Release train 4.2") }
        run.type(Keys.escape)
        screen = try await run.waitForScreen("back at the inbox") { $0.breadcrumbs == "Mail › Inbox" }
        #expect(screen.text.contains("> Release train 4.2"), "the inbox keeps its selection")

        run.type("q")
        #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
        let stored = try fixture.stored()
        let path = stored["path"] as? [Any] ?? []
        #expect(path.map(routeValue) == [#"{"folder":{"_0":"Inbox"}}"#])
        #expect(stored["item"] is NSNull, "the message was dismissed by going back")
    }

    @Test func aComposeIsASheetInCompactAndWhatItOpensIsPushedInsideIt() async throws {
        let fixture = MailFixture()
        let run = try fixture.launch(columns: 80)
        try await run.waitForText("> Inbox (3)")
        run.type(Keys.down + Keys.down + Keys.down + Keys.down)
        try await run.waitForText("> Drafts (2)")
        run.type(Keys.enter)
        try await run.waitForText("> Q3 summary for the board  to board@work.example")
        run.type(Keys.enter)
        var screen = try await run.waitForScreen("the compose sheet") {
            $0.text.contains("┌─ Q3 summary for the board ─")
        }
        #expect(screen.breadcrumbs == "Mail › Drafts", "the window's stack is under the sheet")
        #expect(screen.text.contains("Attached: q3-figures.csv, revenue-chart.png"))
        #expect(screen.text.contains("> Attach…"))

        run.type(Keys.enter)
        screen = try await run.waitForScreen("the search, inside the sheet") {
            $0.text.contains("┌─ Q3 summary for the board › Search: attachments ─")
        }
        #expect(screen.text.contains("> Quarterly numbers  (3 messages)"))
        #expect(screen.breadcrumbs == "Mail › Drafts")

        run.type(Keys.backspace)
        try await run.waitForText("┌─ Q3 summary for the board ─")
        run.type(Keys.backspace)
        screen = try await run.waitForScreen("the sheet dismissed") { !$0.showsSheet }
        #expect(screen.text.contains("> Q3 summary for the board"))

        run.type("c")
        screen = try await run.waitForText("┌─ New message ─")
        #expect(screen.text.contains("(a new message)"))
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
        #expect(routeValue(try fixture.stored()["item"]) == #"{"compose":{"draft":0}}"#)
    }

    @Test func pSwitchesThePolicyAndTheStatusLineSaysSo() async throws {
        let fixture = MailFixture()
        let run = try fixture.launch()
        var screen = try await run.waitForText("> Inbox (3)")
        #expect(screen.status.contains("session mailhost · window main"))
        #expect(screen.status.contains("policy migrate"))
        run.type("p")
        screen = try await run.waitForText("policy dismiss")
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
        #expect(try fixture.stored()["policy"] as? String == "dismiss")

        let again = try fixture.launch()
        try await again.waitForText("policy dismiss")
        again.type("p")
        try await again.waitForText("policy migrate")
        again.type("q")
        #expect(await again.waitForTermination() == .exited(0))
        #expect(try fixture.stored()["policy"] as? String == "migrate")
    }

    @Test func goingBackWithNothingToGoBackToChangesNothing() async throws {
        let fixture = MailFixture()
        try fixture.prepare(["--size-class", "regular"])
        let run = try fixture.launch()
        try await run.waitForText("> Inbox (3)")
        run.type(Keys.backspace + Keys.escape + Keys.down)
        let screen = try await run.waitForText("> Work (2)")
        #expect(screen.breadcrumbs == "Mail")
        #expect(!screen.text.contains("error:"), "nothing to go back to is not an error")
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0))
        #expect(try fixture.revisions() == 1)
    }
}
