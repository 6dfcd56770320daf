import Foundation
import StateStore
import Testing

struct ShowRestoreTests {
    /// A regular window with a thread pushed, and a compact one with a sheet carrying a stack.
    private func populate(_ fixture: Fixture) throws {
        try fixture.save("mail", "main") {
            $0.changeSizeClass(to: .regular)
            $0.push(route("Folder", #""inbox""#))
            $0.present(route("Thread", #"{"id":42}"#))
        }
        try fixture.save("mail", "compose") {
            $0.changeSizeClass(to: .compact)
            $0.push(route("Folder", #""inbox""#))
            $0.present(route("Compose", #"{"draft":7}"#))
            $0.push(route("Attachment", #""photo.jpg""#))
        }
    }

    /// Every key of a window's state in JSON, with what a split view and a tab view bind.
    private let stateKeys: Set<String> = [
        "session", "window", "sizeClass", "path", "item", "itemPath", "policy", "columnVisibility",
        "preferredCompactColumn", "selectedTab", "revision", "updatedAt",
    ]

    @Test func showWindowAsJSON() throws {
        let fixture = Fixture()
        try populate(fixture)
        let run = try fixture.run(["show", "mail", "compose", "--json"])
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("}\n"))
        let state = try jsonObject(run.stdout)
        #expect(Set(state.keys) == stateKeys)
        #expect(state["sizeClass"] as? String == "compact")
        #expect((state["path"] as? [Any])?.map(routeText) == [#"Folder:"inbox""#])
        #expect(routeText(state["item"]) == #"Compose:{"draft":7}"#)
        #expect((state["itemPath"] as? [Any])?.map(routeText) == [#"Attachment:"photo.jpg""#])
        #expect(state["policy"] as? String == "migrate")
        #expect(state["revision"] as? Int == 1)
        let stored = try #require(try fixture.store().window(session: "mail", window: "compose"))
        #expect(state["updatedAt"] as? String == stored.updatedAt.description)
    }

    @Test func showWindowAsText() throws {
        let fixture = Fixture()
        try populate(fixture)
        let run = try fixture.run(["show", "mail", "main"])
        #expect(run.status == 0)
        let fields = Dictionary(
            run.stdout.split(separator: "\n").map { line -> (String, String) in
                let parts = line.split(separator: "  ", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
            }, uniquingKeysWith: { $1 })
        #expect(fields["size class"] == "regular")
        #expect(fields["path"] == #"Folder:"inbox""#)
        #expect(fields["item"] == #"Thread:{"id":42}"#)
        #expect(fields["item path"] == "(none)")
        #expect(fields["revision"] == "1")
    }

    @Test func showSessionIsAnArraySortedByWindow() throws {
        let fixture = Fixture()
        try populate(fixture)
        let states = try jsonArray(try fixture.run(["show", "mail", "--json"]).stdout)
        #expect(states.map { $0["window"] as? String } == ["compose", "main"])
        for state in states { #expect(Set(state.keys) == stateKeys) }
        let text = try fixture.run(["show", "mail"]).stdout
        #expect(text.components(separatedBy: "\nwindow ").count == 3)
    }

    @Test func showUnknownSessionOrWindowIsNotFound() throws {
        let fixture = Fixture()
        try populate(fixture)
        let window = try fixture.run(["show", "mail", "nope"])
        #expect(window.status == 66)
        #expect(window.stderr == "Error: window 'mail' 'nope' not found\n")
        #expect(window.stdout.isEmpty)
        let session = try fixture.run(["show", "nope", "--json"])
        #expect(session.status == 66)
        #expect(session.stderr.hasPrefix("Error: session 'nope' not found"))
        #expect(session.stdout.isEmpty)
    }

    @Test func restoreIntoEachSizeClass() throws {
        let fixture = Fixture()
        try populate(fixture)
        func restored(_ window: String, _ sizeClass: String?) throws -> [String: Any] {
            let extra = sizeClass.map { ["--size-class", $0] } ?? []
            let run = try fixture.run(["restore", "mail", window, "--json"] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            return try jsonObject(run.stdout)
        }
        let keys: Set<String> = [
            "session", "window", "sizeClass", "savedSizeClass", "presentation", "stack", "sheet", "columnVisibility",
            "preferredCompactColumn", "selectedTab", "revision",
        ]
        // Saved regular: pushed by default; a sheet in compact and unspecified.
        let asSaved = try restored("main", nil)
        #expect(Set(asSaved.keys) == keys)
        #expect(asSaved["sizeClass"] as? String == "regular")
        #expect(asSaved["savedSizeClass"] as? String == "regular")
        #expect(asSaved["presentation"] as? String == "push")
        #expect((asSaved["stack"] as? [Any])?.map(routeText) == [#"Folder:"inbox""#, #"Thread:{"id":42}"#])
        #expect(asSaved["sheet"] is NSNull)
        #expect(asSaved["revision"] as? Int == 1)
        for sizeClass in ["compact", "unspecified"] {
            let sheet = try restored("main", sizeClass)
            #expect(sheet["sizeClass"] as? String == sizeClass)
            #expect(sheet["savedSizeClass"] as? String == "regular")
            #expect(sheet["presentation"] as? String == "sheet")
            #expect((sheet["stack"] as? [Any])?.map(routeText) == [#"Folder:"inbox""#])
            let stack = (sheet["sheet"] as? [String: Any])?["stack"] as? [Any]
            #expect(stack?.map(routeText) == [#"Thread:{"id":42}"#])
        }
        // Saved compact with a stack in the sheet: all of it pushed in regular.
        let pushed = try restored("compose", "regular")
        #expect(pushed["presentation"] as? String == "push")
        #expect(
            (pushed["stack"] as? [Any])?.map(routeText) == [
                #"Folder:"inbox""#, #"Compose:{"draft":7}"#, #"Attachment:"photo.jpg""#,
            ])
        // Read-only: nothing was written.
        #expect(try fixture.store().window(session: "mail", window: "main")?.revision == 1)
    }

    @Test func restoreUnderTheDismissPolicyClearsTheItemWhenTheModeChanges() throws {
        let fixture = Fixture()
        #expect(
            try fixture.run([
                "set", "s", "w", "--policy", "dismiss", "--size-class", "regular", "--present", "Thread:1",
            ]).status == 0)
        let compact = try jsonObject(
            try fixture.run(["restore", "s", "w", "--size-class", "compact", "--json"]).stdout)
        #expect(compact["presentation"] as? String == "none")
        #expect(compact["sheet"] is NSNull)
        let regular = try jsonObject(try fixture.run(["restore", "s", "w", "--json"]).stdout)
        #expect(regular["presentation"] as? String == "push")
    }

    @Test func restoreSessionAndText() throws {
        let fixture = Fixture()
        try populate(fixture)
        let all = try jsonArray(try fixture.run(["restore", "mail", "--size-class", "compact", "--json"]).stdout)
        #expect(all.map { $0["window"] as? String } == ["compose", "main"])
        #expect(all.map { $0["presentation"] as? String } == ["sheet", "sheet"])
        let text = try fixture.run(["restore", "mail", "main", "--size-class", "compact"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("presentation  sheet"))
        #expect(text.stdout.contains(#"sheet         Thread:{"id":42}"#))
        #expect(try fixture.run(["restore", "mail", "nope"]).status == 66)
        #expect(try fixture.run(["restore", "nope"]).status == 66)
    }
}
