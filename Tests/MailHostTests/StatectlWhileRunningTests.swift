import Foundation
import Testing

/// Another process's writes reach the running app: `statectl set` from another terminal changes
/// what it shows; `statectl list` shows every mailhost window.
struct StatectlWhileRunningTests {
    @Test func statectlSetWhileRunningChangesTheScreen() async throws {
        let fixture = MailFixture()
        try fixture.prepare(["--size-class", "compact"])
        let run = try fixture.launch(columns: 80)
        try await run.waitForText("> Inbox (3)")

        let present = try fixture.statectl([
            "set", "mailhost", "main", "--present", mailRoute(#"{"message":{"_0":61}}"#),
        ])
        #expect(present.status == 0, "\(present.stderr)")
        var screen = try await run.waitForText("┌─ From Mary ─")
        #expect(screen.text.contains("You are on watering duty next week."))
        #expect(screen.status.contains("revision 2"))

        let push = try fixture.statectl([
            "set", "mailhost", "main", "--dismiss", "--push", mailRoute(#"{"folder":{"_0":"Home"}}"#), "--policy",
            "dismiss",
        ])
        #expect(push.status == 0, "\(push.stderr)")
        screen = try await run.waitForScreen("the outside push") { $0.breadcrumbs == "Mail › Home" }
        #expect(!screen.showsSheet)
        #expect(screen.status.contains("policy dismiss"))

        // The app's own next change goes on from there.
        run.type(Keys.enter)
        try await run.waitForScreen("the thread") { $0.breadcrumbs == "Mail › Home › Book club: Middlemarch" }
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
        let path = try fixture.stored()["path"] as? [Any] ?? []
        #expect(path.map(routeValue) == [#"{"folder":{"_0":"Home"}}"#, #"{"thread":{"_0":7}}"#])
    }

    @Test func statectlListShowsEveryMailhostWindow() async throws {
        let fixture = MailFixture()
        let main = try fixture.launch()
        let other = try fixture.launch(["--window", "reading"], columns: 80)
        try await main.waitForText("> Inbox (3)")
        try await other.waitForText("window reading")
        main.type(Keys.enter)
        other.type(Keys.down + Keys.enter)
        try await main.waitForText("> Quarterly numbers")
        try await other.waitForText("> Offsite agenda")
        for run in [main, other] {
            run.type("q")
            #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
        }
        let list = try fixture.statectl(["list", "mailhost", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        let windows = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(windows.map { $0["window"] as? String } == ["main", "reading"])
        #expect(windows.map { $0["depth"] as? Int } == [1, 1])
    }

    /// An outside write the app cannot decode — the likeliest typo, a route type without its
    /// module — is named on the error line as what it is, and nothing else reaches the terminal:
    /// the library writes nothing to standard error, which here is the screen.
    @Test func anUndecodableOutsideWriteLeavesTheScreenWhole() async throws {
        let fixture = MailFixture()
        try fixture.prepare(["--size-class", "regular", "--push", mailRoute(#"{"folder":{"_0":"Inbox"}}"#)])
        let run = try fixture.launch(standardErrorOnTheTerminal: true)
        try await run.waitForText("> Quarterly numbers")
        let before = run.screen.lines.count
        let set = try fixture.statectl(["set", "mailhost", "main", "--present", #"MailRoute:{"message":{"_0":61}}"#])
        #expect(set.status == 0, "\(set.stderr)")
        let screen = try await run.waitForText("does not decode")
        #expect(!screen.text.contains("StateStoreHost"), "nothing of the library's on the screen:\n\(screen.text)")
        #expect(screen.breadcrumbs == "Mail › Inbox", "the screen did not scroll")
        #expect(screen.lines.count == before)
        #expect(screen.lines.filter { $0.contains("revision") }.count == 1, "one status line:\n\(screen.text)")
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0))
    }

    /// The same write with standard error kept apart: the library wrote nothing there at all.
    @Test func anUndecodableOutsideWriteWritesNothingToStandardError() async throws {
        let fixture = MailFixture()
        try fixture.prepare(["--size-class", "regular", "--push", mailRoute(#"{"folder":{"_0":"Inbox"}}"#)])
        let run = try fixture.launch()
        try await run.waitForText("> Quarterly numbers")
        let set = try fixture.statectl(["set", "mailhost", "main", "--present", #"MailRoute:{"message":{"_0":61}}"#])
        #expect(set.status == 0, "\(set.stderr)")
        try await run.waitForText("does not decode")
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0))
        #expect(run.standardError.isEmpty, "\(run.standardError)")
    }

    @Test func aStoredRouteTheAppCannotReadIsNamedOnTheErrorLine() async throws {
        let fixture = MailFixture()
        try fixture.prepare(["--size-class", "regular", "--push", mailRoute(#"{"folder":{"_0":"Inbox"}}"#)])
        let run = try fixture.launch()
        try await run.waitForText("> Quarterly numbers")
        let set = try fixture.statectl(["set", "mailhost", "main", "--push", "Calendar.Event:7"])
        #expect(set.status == 0, "\(set.stderr)")
        let screen = try await run.waitForText("error: the stored route Calendar.Event:7 does not decode")
        #expect(screen.breadcrumbs == "Mail › Inbox", "what lies from it on is hidden")

        // Going on from what is shown replaces it.
        run.type(Keys.enter)
        try await run.waitForScreen("the thread") { $0.breadcrumbs == "Mail › Inbox › Quarterly numbers" }
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
        let path = try fixture.stored()["path"] as? [Any] ?? []
        #expect(path.map(routeValue) == [#"{"folder":{"_0":"Inbox"}}"#, #"{"thread":{"_0":1}}"#])
    }

    @Test func aDeletedWindowShowsAnEmptyWindow() async throws {
        let fixture = MailFixture()
        try fixture.prepare(["--size-class", "regular", "--push", mailRoute(#"{"folder":{"_0":"Home"}}"#)])
        let run = try fixture.launch()
        try await run.waitForScreen("the folder") { $0.breadcrumbs == "Mail › Home" }
        let delete = try fixture.statectl(["delete", "mailhost", "main"])
        #expect(delete.status == 0, "\(delete.stderr)")
        let screen = try await run.waitForScreen("the empty window") { $0.breadcrumbs == "Mail" }
        #expect(screen.status.contains("revision 0"))
        run.type("q")
        #expect(await run.waitForTermination() == .exited(0), "\(run.standardError)")
        let show = try fixture.statectl(["show", "mailhost", "main"])
        #expect(show.status == 66, "nothing written again until the user navigates")
    }
}
