import Foundation
import StateStore
import Testing

struct DemoTests {
    @Test func demoShowsTheRuleInATemporaryDatabaseItRemoves() throws {
        let fixture = Fixture()
        var env = fixture.environment
        env["STATECTL_DB"] = fixture.path("ignored.db")  // demo without --db never touches it
        let run = try statectl(["demo"], environment: env)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let out = run.stdout
        for text in [
            "statectl set demo main", "statectl set demo compose", "main in regular (as saved): push",
            "main in compact: sheet", "compose in compact (as saved): sheet", "compose in regular: push",
            #"stack  Folder:"inbox" › Thread:{"id":42}"#, #"sheet  Thread:{"id":42}"#,
            #"sheet  Compose:{"draft":7} › Attachment:"photo.jpg""#,
            #"stack  Folder:"inbox" › Compose:{"draft":7} › Attachment:"photo.jpg""#,
        ] {
            #expect(out.contains(text), "\(text)")
        }
        #expect(out.split(separator: "\n").count < 60, "short")
        #expect(fixture.contents(of: fixture.path("tmp")).isEmpty, "the temporary database is gone")
        #expect(!fixture.exists(fixture.path("ignored.db")))
        #expect(!fixture.exists(fixture.path("home")) && !fixture.exists(fixture.path("state")))
    }

    @Test func demoWithDBWritesTheSessionThere() throws {
        let fixture = Fixture()
        try fixture.save("demo", "old") { $0.push(route("Gone")) }
        try fixture.save("other", "w") { $0.push(route("Kept")) }
        let run = try fixture.run(["demo"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(fixture.database))
        let store = try fixture.store()
        let windows = try store.windows(session: "demo")
        #expect(windows.map(\.window) == ["compose", "main"])
        let main = windows[1]
        #expect(main.sizeClass == .regular)
        #expect(main.path == [route("Folder", #""inbox""#)])
        #expect(main.item == route("Thread", #"{"id":42}"#))
        let compose = windows[0]
        #expect(compose.sizeClass == .compact)
        #expect(compose.item == route("Compose", #"{"draft":7}"#))
        #expect(compose.itemPath == [route("Attachment", #""photo.jpg""#)])
        #expect(try store.window(session: "other", window: "w")?.path == [route("Kept")])
        // Run again: the session is replaced, not added to.
        #expect(try fixture.run(["demo"]).status == 0)
        #expect(try store.windows(session: "demo").map(\.revision) == [1, 1])
    }

    @Test func demoFailsCleanlyWithoutATemporaryFolder() throws {
        let fixture = Fixture()
        var env = fixture.environment
        env["TMPDIR"] = fixture.path("no/such/folder")
        let run = try statectl(["demo"], environment: env)
        #expect(run.status == 74)
        #expect(run.stderr.hasPrefix("Error: cannot create a temporary folder in \(fixture.path("no/such/folder"))"))
        #expect(run.stdout.isEmpty)
    }
}
