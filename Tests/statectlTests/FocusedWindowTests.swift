import Foundation
import StateStore
import Testing

/// `--focused` (and `--kind`) in place of a window id in `show`, `restore` and `set`: the window
/// the app recorded as focused (`WindowStore.focus`), the latest call winning.
struct FocusedWindowTests {
    /// A session `mail` with a window of state `inbox` (kind mail), then `settings` (kind
    /// settings, no state yet) focused after it; `other` has a window and no focus.
    static func focusedFixture() throws -> Fixture {
        let fixture = Fixture()
        try fixture.save("mail", "inbox") { $0.push(route("Folder", #""inbox""#)) }
        try fixture.save("other", "w") { $0.push(route("A")) }
        let store = try fixture.store()
        try store.focus(session: "mail", window: "inbox", kind: "mail")
        try store.focus(session: "mail", window: "settings", kind: "settings")
        return fixture
    }

    @Test func setWritesTheFocusedWindowAndSaysWhichItIs() throws {
        let fixture = try Self.focusedFixture()
        let json = try fixture.run(["set", "mail", "--focused", "--push", "Thread:42", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let state = try jsonObject(json.stdout)
        #expect(state["window"] as? String == "settings", "the latest focused, though it had no state")
        #expect(state["revision"] as? Int == 1)
        #expect(try fixture.store().window(session: "mail", window: "settings")?.path == [route("Thread", "42")])

        let text = try fixture.run(["set", "mail", "--focused", "--kind", "mail", "--present", "Compose"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("window      inbox\n"), "\(text.stdout)")
        #expect(try fixture.store().window(session: "mail", window: "inbox")?.item == route("Compose"))
        #expect(try fixture.store().window(session: "mail", window: "inbox")?.revision == 2)

        // The focus moves; so does the window addressed. Focusing writes no revision.
        try fixture.store().focus(session: "mail", window: "inbox")
        #expect(try fixture.store().window(session: "mail", window: "inbox")?.revision == 2)
        let moved = try fixture.run(["set", "mail", "--focused", "--dismiss", "--json"])
        #expect(try jsonObject(moved.stdout)["window"] as? String == "inbox")
    }

    @Test func setWithExpectRevisionChecksTheFocusedWindow() throws {
        let fixture = try Self.focusedFixture()
        try fixture.store().focus(session: "mail", window: "inbox")
        let before = try fixture.dump()
        let stale = try fixture.run(["set", "mail", "--focused", "--push", "B", "--expect-revision", "0"])
        #expect(stale.status == 1)
        #expect(stale.stderr == "Error: window 'mail' 'inbox' is at revision 1, not 0; nothing was written\n")
        #expect(try fixture.dump() == before)
        #expect(try fixture.run(["set", "mail", "--focused", "--push", "B", "--expect-revision", "1"]).status == 0)
    }

    @Test func showAndRestoreNameTheFocusedWindow() throws {
        let fixture = try Self.focusedFixture()
        try fixture.store().focus(session: "mail", window: "inbox")

        let show = try fixture.run(["show", "mail", "--focused", "--json"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(try jsonObject(show.stdout)["window"] as? String == "inbox", "one window, not the session's array")
        let text = try fixture.run(["show", "mail", "--focused"])
        #expect(text.stdout.hasPrefix("session     mail\nwindow      inbox\n"), "\(text.stdout)")
        let path = try fixture.run(["show", "mail", "--focused", "--navigation-path"])
        #expect(path.status == 0, "\(path.stderr)")
        #expect(path.stdout == #"["Folder","\"inbox\""]"# + "\n")

        let restore = try fixture.run(["restore", "mail", "--focused", "--kind", "mail", "--size-class", "regular"])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stdout.contains("window        inbox\n"), "\(restore.stdout)")
        let restoreJSON = try jsonObject(try fixture.run(["restore", "mail", "--focused", "--json"]).stdout)
        #expect(restoreJSON["window"] as? String == "inbox")
    }

    @Test func aFocusedWindowWithoutStateIsNotFoundForShowAndRestore() throws {
        let fixture = try Self.focusedFixture()
        for command in ["show", "restore"] {
            let run = try fixture.run([command, "mail", "--focused"])
            #expect(run.status == 66, "\(command)")
            #expect(run.stdout.isEmpty)
            #expect(
                run.stderr == "Error: window 'mail' 'settings', the session's focused window, has no stored state\n",
                "\(command)")
        }
    }

    @Test func noFocusedWindowExits66AndWritesNothing() throws {
        let fixture = try Self.focusedFixture()
        let before = try fixture.dump()
        let cases: [([String], String)] = [
            (["set", "other", "--focused", "--push", "A"], "session 'other' has no focused window"),
            (["set", "nobody", "--focused", "--push", "A"], "session 'nobody' has no focused window"),
            (
                ["set", "mail", "--focused", "--kind", "compose", "--push", "A"],
                "session 'mail' has no focused window of kind 'compose'"
            ),
            (["show", "other", "--focused"], "session 'other' has no focused window"),
            (
                ["restore", "mail", "--focused", "--kind", "Mail"],
                "session 'mail' has no focused window of kind 'Mail'"
            ),
        ]
        for (arguments, message) in cases {
            let run = try fixture.run(arguments)
            #expect(run.status == 66, "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments)")
            #expect(run.stderr == "Error: \(message)\n", "\(arguments)")
        }
        #expect(try fixture.dump() == before, "nothing written")
    }

    @Test func aMissingDatabaseHasNoFocusedWindowAndIsNotCreated() throws {
        let fixture = Fixture()
        for arguments in [["set", "mail", "--focused", "--push", "A"], ["show", "mail", "--focused"]] {
            let run = try fixture.run(arguments)
            #expect(run.status == 66, "\(arguments)")
            #expect(run.stderr == "Error: no database at \(fixture.database)\n")
        }
        #expect(!fixture.exists(fixture.database), "set --focused creates nothing")
        #expect(fixture.contents(of: fixture.folder) == ["tmp"])
    }

    /// A deleted window's focus goes with it: the window focused before it is the focused one.
    @Test func deletingTheFocusedWindowForgetsItsFocus() throws {
        let fixture = try Self.focusedFixture()
        try fixture.save("mail", "settings") { $0.push(route("General")) }
        #expect(try fixture.run(["delete", "mail", "settings"]).status == 0)
        let run = try fixture.run(["show", "mail", "--focused", "--json"])
        #expect(try jsonObject(run.stdout)["window"] as? String == "inbox")
        #expect(try fixture.run(["show", "mail", "--focused", "--kind", "settings"]).status == 66)
    }

    /// A focused scene that never navigated is a window to `delete`: deleted and named, its
    /// focus gone, with its session's.
    @Test func deleteTakesAWindowKnownOnlyByItsSceneFacts() throws {
        let fixture = try Self.focusedFixture()
        let one = try fixture.run(["delete", "mail", "settings"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout == "Deleted window 'mail' 'settings'.\n")
        #expect(try fixture.store().scene(session: "mail", window: "settings") == nil)
        #expect(try fixture.run(["delete", "mail", "settings"]).status == 66, "gone")
        try fixture.store().focus(session: "mail", window: "new scene")
        let session = try fixture.run(["delete", "mail", "--json"])
        #expect(try jsonObject(session.stdout)["windows"] as? [String] == ["inbox", "new scene"])
        #expect(try fixture.store().scenes(session: "mail").isEmpty)
    }

    /// Any printable string is a window id, `@focused` and `--focused` (after `--`) too: only the
    /// flag addresses the focused window.
    @Test func noWindowIdIsTakenForTheFlag() throws {
        let fixture = try Self.focusedFixture()
        let at = try fixture.run(["set", "mail", "@focused", "--push", "A", "--json"])
        #expect(try jsonObject(at.stdout)["window"] as? String == "@focused")
        let dashed = try fixture.run(["set", "mail", "--push", "B", "--json", "--", "--focused"])
        #expect(dashed.status == 0, "\(dashed.stderr)")
        #expect(try jsonObject(dashed.stdout)["window"] as? String == "--focused")
        #expect(try fixture.store().window(session: "mail", window: "settings") == nil, "the focused one untouched")
    }

    static let usageErrors: [(arguments: [String], message: String, command: String)] = [
        (
            ["set", "mail", "inbox", "--focused", "--push", "A"],
            "give '<window>' or '--focused', not both (unexpected argument 'inbox')", "set"
        ),
        (
            ["show", "mail", "--focused", "inbox"],
            "give '<window>' or '--focused', not both (unexpected argument 'inbox')",
            "show"
        ),
        (
            ["restore", "mail", "inbox", "--focused", "--kind", "mail"],
            "give '<window>' or '--focused', not both (unexpected argument 'inbox')", "restore"
        ),
        (["set", "mail", "--kind", "mail", "--push", "A"], "missing argument '<window>' (or '--focused')", "set"),
        (["set", "mail", "inbox", "--kind", "mail", "--push", "A"], "option '--kind' needs '--focused'", "set"),
        (["show", "mail", "--kind", "mail"], "option '--kind' needs '--focused'", "show"),
        (["restore", "mail", "inbox", "--kind=mail"], "option '--kind' needs '--focused'", "restore"),
        (["set", "mail", "--focused", "--focused", "--push", "A"], "option '--focused' given more than once", "set"),
        (["set", "mail", "--focused", "--kind"], "missing value for '--kind <kind>'", "set"),
        (["delete", "mail", "--focused"], "unknown option '--focused'.", "delete"),
        (["history", "mail", "--focused", "--limit", "1"], "unknown option '--focused'.", "history"),
    ]

    @Test(arguments: usageErrors.indices)
    func aWindowAndTheFlagTogetherOrAKindAloneIsAUsageError(_ index: Int) throws {
        let (arguments, message, command) = Self.usageErrors[index]
        let fixture = try Self.focusedFixture()
        let before = try fixture.dump()
        let run = try fixture.run(arguments)
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Error: \(message)\nUsage: statectl \(command) "), "\(run.stderr)")
        #expect(try fixture.dump() == before)
    }

    @Test func aBadKindIsBadData() throws {
        let fixture = try Self.focusedFixture()
        let before = try fixture.dump()
        let cases: [(String, String)] = [
            ("", "kind is empty"),
            (String(repeating: "k", count: 65), "kind is 65 bytes; the limit is 64"),
            ("mail\u{1}", "kind contains a control character (U+0001)"),
        ]
        for (kind, message) in cases {
            for arguments in [
                ["set", "mail", "--focused", "--kind", kind, "--push", "A"],
                ["show", "mail", "--focused", "--kind", kind],
            ] {
                let run = try fixture.run(arguments)
                #expect(run.status == 65, "\(arguments)")
                #expect(run.stderr == "Error: \(message)\n", "\(arguments)")
            }
        }
        #expect(try fixture.dump() == before)
    }

    @Test func helpAndTheManualPageOfferTheFlag() throws {
        for command in ["set", "show", "restore"] {
            let help = try statectl(["help", command]).stdout
            #expect(help.contains("  --focused  "), "\(command)")
            #expect(help.contains("  --kind <kind>  "), "\(command)")
            #expect(help.contains("--focused"), "\(command)")
        }
        #expect(try statectl(["help", "set"]).stdout.contains("USAGE: statectl set <session> (<window> | --focused)"))
        #expect(
            try statectl(["help", "show"]).stdout.contains("USAGE: statectl show <session> [<window> | --focused]"))
        #expect(!(try statectl(["help", "delete"]).stdout.contains("--focused")))
    }
}
