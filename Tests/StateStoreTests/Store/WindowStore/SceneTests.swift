import Foundation
import StateStore
import Testing

/// A window's scene facts (`window_scenes`, Migrations/0004): its kind, its last focus and its
/// selected tab, apart from its revisioned state. Clocks are injected: nothing sleeps.
struct SceneTests {
    final class Clock: @unchecked Sendable {
        var now: Int64 = 1_764_460_800_000
    }

    static func options(_ clock: Clock) -> WindowStore.Options {
        var options = WindowStore.Options()
        options.clock = { Timestamp(millisecondsSince1970: clock.now) }
        return options
    }

    static func at(_ milliseconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: milliseconds) }

    // MARK: Focus

    @Test func theMostRecentlyFocusedWindowOfASessionAndOfAKind() throws {
        let clock = Clock()
        let store = try WindowStore.inMemory(options: Self.options(clock))
        #expect(try store.focusedWindow(session: "mail") == nil, "nothing focused yet")

        try store.focus(session: "mail", window: "a", kind: "mail")
        clock.now += 10
        try store.focus(session: "mail", window: "b", kind: "settings")
        clock.now += 10
        try store.focus(session: "mail", window: "c", kind: "mail")
        try store.focus(session: "other", window: "z", kind: "mail")

        #expect(try store.focusedWindow(session: "mail") == "c")
        #expect(try store.focusedWindow(session: "mail", kind: "mail") == "c")
        #expect(try store.focusedWindow(session: "mail", kind: "settings") == "b")
        #expect(try store.focusedWindow(session: "mail", kind: "compose") == nil, "no window of that kind")
        #expect(try store.focusedWindow(session: "nobody") == nil, "an unknown session")
        #expect(try store.focusedWindow(session: "other") == "z", "sessions apart")

        clock.now += 10
        try store.focus(session: "mail", window: "a")
        #expect(try store.focusedWindow(session: "mail") == "a")
        #expect(try store.focusedWindow(session: "mail", kind: "mail") == "a", "a nil kind keeps the recorded one")
        #expect(
            try store.scene(session: "mail", window: "a")
                == WindowScene(session: "mail", window: "a", kind: "mail", focusedAt: Self.at(clock.now)))
        // A kind given with a focus replaces the recorded one.
        try store.focus(session: "mail", window: "b", kind: "mail")
        #expect(try store.focusedWindow(session: "mail", kind: "settings") == nil)
        #expect(try store.focusedWindow(session: "mail", kind: "mail") == "b")
    }

    /// Calls within one millisecond, or with a clock that went back, still order as made: each
    /// focus is stamped past the session's latest one.
    @Test func updateFocusedWindowWritesTheFocusedWindowOrNothing() throws {
        let clock = Clock()
        let store = try WindowStore.inMemory(options: Self.options(clock))
        #expect(try store.updateFocusedWindow(session: "mail") { $0.push(route("A")) } == nil, "none focused")
        #expect(try store.windows(session: "mail").isEmpty, "nothing written")

        try store.focus(session: "mail", window: "a", kind: "mail")
        clock.now += 10
        try store.focus(session: "mail", window: "b", kind: "settings")
        let written = try store.updateFocusedWindow(session: "mail") { $0.push(route("Settings")) }
        #expect(written?.window == "b", "the latest focused, made though it had no state")
        #expect(written?.revision == 1)
        let ofKind = try store.updateFocusedWindow(session: "mail", kind: "mail") { $0.push(route("Inbox")) }
        #expect(ofKind?.window == "a")
        #expect(try store.window(session: "mail", window: "a")?.path == [route("Inbox")])
        #expect(
            throws: StateStoreError.conflict(session: "mail", window: "b", expected: 5, actual: 1)
        ) { try store.updateFocusedWindow(session: "mail", expectedRevision: 5) { $0.push(route("B")) } }

        // A deleted window is no longer focused: the next focused one of the session is written.
        try store.deleteWindow(session: "mail", window: "b")
        #expect(try store.updateFocusedWindow(session: "mail") { $0.dismiss() }?.window == "a")
        try store.deleteWindow(session: "mail", window: "a")
        #expect(try store.updateFocusedWindow(session: "mail") { $0.dismiss() } == nil)
        #expect(try store.windows(session: "mail").isEmpty, "nothing made again")
    }

    @Test func theLatestFocusWinsWhateverTheClockSays() throws {
        let clock = Clock()
        let store = try WindowStore.inMemory(options: Self.options(clock))
        let start = clock.now
        try store.focus(session: "s", window: "a")
        try store.focus(session: "s", window: "b")
        #expect(try store.focusedWindow(session: "s") == "b", "same millisecond: the later call")
        try store.focus(session: "s", window: "a")
        #expect(try store.focusedWindow(session: "s") == "a")
        #expect(try store.scene(session: "s", window: "a")?.focusedAt == Self.at(start + 2))
        #expect(try store.scene(session: "s", window: "b")?.focusedAt == Self.at(start + 1))

        clock.now -= 60_000  // the system clock set back a minute
        try store.focus(session: "s", window: "b")
        #expect(try store.focusedWindow(session: "s") == "b")
        #expect(try store.scene(session: "s", window: "b")?.focusedAt == Self.at(start + 3))
        try store.focus(session: "other", window: "x")
        #expect(
            try store.scene(session: "other", window: "x")?.focusedAt == Self.at(clock.now),
            "another session's focus does not push this one's")

        clock.now = start + 1_000
        try store.focus(session: "s", window: "a")
        #expect(try store.scene(session: "s", window: "a")?.focusedAt == Self.at(start + 1_000), "the clock again")
    }

    @Test func theLatestFocusWinsAcrossConnections() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let clock = Clock()
        let host = try WindowStore(path: path, options: Self.options(clock))
        let other = try WindowStore(path: path, options: Self.options(clock))
        try host.focus(session: "s", window: "a")
        try other.focus(session: "s", window: "b")
        #expect(try host.focusedWindow(session: "s") == "b")
        try host.focus(session: "s", window: "a")
        #expect(try other.focusedWindow(session: "s") == "a")
    }

    /// Two rows stamped alike (written so by hand) are told apart by their ids' bytes, the lesser
    /// first: a decomposed "é" (e + U+0301) sorts before a composed one (U+00E9).
    @Test func tiesAreBrokenByTheWindowIdsBytes() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        for window in ["\u{e9}", "e\u{301}", "z"] { try store.focus(session: "s", window: window, kind: "k") }
        try rawSQL(path, "UPDATE window_scenes SET focused_at = 5")
        #expect(try store.focusedWindow(session: "s") == "e\u{301}")
        #expect(try store.focusedWindow(session: "s", kind: "k") == "e\u{301}")
        try rawSQL(path, "UPDATE window_scenes SET focused_at = 6 WHERE window = 'z'")
        #expect(try store.focusedWindow(session: "s") == "z")
    }

    // MARK: Kind and tab

    @Test func aKindIsRecordedWithoutFocusingAndATabInTheState() throws {
        let store = try WindowStore.inMemory()
        try store.setKind("settings", session: "s", window: "w")
        try store.setSelectedTab("inbox", session: "s", window: "w")
        #expect(
            try store.scene(session: "s", window: "w")
                == WindowScene(session: "s", window: "w", kind: "settings", selectedTab: "inbox", hasState: true))
        #expect(try store.window(session: "s", window: "w")?.selectedTab == "inbox", "the tab is the state's")
        #expect(try store.focusedWindow(session: "s") == nil, "never focused")
        #expect(try store.focusedWindow(session: "s", kind: "settings") == nil)

        try store.setSelectedTab("sent", session: "s", window: "w")
        try store.setKind("mail", session: "s", window: "w")
        #expect(try store.scene(session: "s", window: "w")?.selectedTab == "sent")
        #expect(try store.scene(session: "s", window: "w")?.kind == "mail")
        try store.setKind(nil, session: "s", window: "w")
        try store.setSelectedTab(nil, session: "s", window: "w")
        #expect(try store.scene(session: "s", window: "w") == WindowScene(session: "s", window: "w", hasState: true))

        // Clearing a fact of a window the store does not know leaves it unknown.
        try store.setKind(nil, session: "s", window: "new")
        try store.setSelectedTab(nil, session: "s", window: "new")
        #expect(try store.scene(session: "s", window: "new") == nil)
        #expect(try store.scenes(session: "s").map(\.window) == ["w"])
        #expect(Limits.kindBytes == 1...64)
    }

    // MARK: Listing

    @Test func aSessionsScenesListEveryKnownWindowInByteOrder() throws {
        let clock = Clock()
        let store = try WindowStore.inMemory(options: Self.options(clock))
        try store.save(WindowState(session: "s", window: "stored"))
        try store.save(WindowState(session: "s", window: "both"))
        try store.focus(session: "s", window: "both", kind: "mail")
        try store.setKind("k", session: "s", window: "scene only")
        try store.save(WindowState(session: "s", window: "tabbed", selectedTab: "t"))
        try store.save(WindowState(session: "other", window: "x"))

        #expect(
            try store.scenes(session: "s") == [
                WindowScene(session: "s", window: "both", kind: "mail", focusedAt: Self.at(clock.now), hasState: true),
                WindowScene(session: "s", window: "scene only", kind: "k"),
                WindowScene(session: "s", window: "stored", hasState: true),
                WindowScene(session: "s", window: "tabbed", selectedTab: "t", hasState: true),
            ])
        #expect(
            try store.scene(session: "s", window: "stored")
                == WindowScene(session: "s", window: "stored", hasState: true))
        #expect(try store.scene(session: "s", window: "nothing") == nil)
        #expect(try store.scenes(session: "nobody").isEmpty)
        // A decomposed and a composed "é" are two windows, in byte order.
        try store.focus(session: "u", window: "\u{e9}")
        try store.focus(session: "u", window: "e\u{301}")
        #expect(try store.scenes(session: "u").map { Array($0.window.utf8) } == [[0x65, 0xCC, 0x81], [0xC3, 0xA9]])
    }

    // MARK: Not revisioned

    /// Scene facts are not the window's state: no revision, no history, nothing in the change log
    /// (so no feed reports them), and the window's `updatedAt` stays.
    @Test func sceneFactsWriteNoRevisionNoHistoryAndNoChange() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let clock = Clock()
        let store = try WindowStore(path: path, options: Self.options(clock))
        let saved = try store.save(WindowState(session: "s", window: "w", path: [route("A")]))
        let feed = try store.changeFeed()
        let counts = """
            SELECT (SELECT count(*) FROM changes), (SELECT coalesce(max(seq), 0) FROM changes), \
            (SELECT count(*) FROM window_history), (SELECT group_concat(revision || ' ' || updated_at) FROM windows)
            """
        let before = try rawQuery(path, counts)

        clock.now += 1_000
        try store.focus(session: "s", window: "w", kind: "mail")
        try store.setKind("settings", session: "s", window: "w")
        try store.focus(session: "s", window: "new", kind: "mail")
        try store.setKind(nil, session: "s", window: "w")

        #expect(try rawQuery(path, counts) == before)
        #expect(try store.window(session: "s", window: "w") == saved)
        #expect(try store.window(session: "s", window: "new") == nil, "a focus creates no window state")
        #expect(try store.history(session: "s", window: "w") == [saved])
        #expect(try feed.poll().isEmpty, "no change to report")
        #expect(try store.windowSummaries().map(\.window) == ["w"], "a listing is of windows with state")
    }

    // MARK: The selected tab

    /// The selected tab is part of the state: setting it writes the next revision, kept in the
    /// history and reported by a feed; setting the tab the window shows already writes nothing.
    @Test func selectingATabWritesARevisionAndSelectingItAgainWritesNothing() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let clock = Clock()
        let store = try WindowStore(path: path, options: Self.options(clock))
        let saved = try store.save(WindowState(session: "s", window: "w", path: [route("A")], policy: .dismiss))
        let feed = try store.changeFeed()

        clock.now += 1_000
        try store.setSelectedTab("inbox", session: "s", window: "w")
        let selected = try #require(try store.window(session: "s", window: "w"))
        #expect(selected.revision == 2 && selected.selectedTab == "inbox")
        #expect(selected.path == saved.path && selected.policy == .dismiss, "the rest as it was")
        #expect(selected.updatedAt == Self.at(clock.now))
        #expect(try store.history(session: "s", window: "w").map(\.selectedTab) == ["inbox", nil])
        let changes = try feed.poll()
        #expect(changes.count == 1)
        #expect(changes.first?.change?.state?.selectedTab == "inbox")

        let counts = "SELECT (SELECT max(seq) FROM changes), (SELECT count(*) FROM window_history)"
        let before = try rawQuery(path, counts)
        try store.setSelectedTab("inbox", session: "s", window: "w")
        #expect(try rawQuery(path, counts) == before, "the tab shown already: nothing written")
        #expect(try store.window(session: "s", window: "w")?.revision == 2)
        // Compared by bytes, as ids are: a decomposed "é" is another tab.
        try store.setSelectedTab("\u{e9}", session: "s", window: "w")
        try store.setSelectedTab("e\u{301}", session: "s", window: "w")
        #expect(try store.window(session: "s", window: "w")?.revision == 4)
        try store.setSelectedTab(nil, session: "s", window: "w")
        #expect(try store.window(session: "s", window: "w")?.selectedTab == nil)
        #expect(try store.window(session: "s", window: "w")?.revision == 5)

        // A window without state gets one holding the tab, at revision 1; clearing the tab of a
        // window without state writes nothing.
        try store.setSelectedTab("sent", session: "s", window: "tabs")
        #expect(
            try store.window(session: "s", window: "tabs")
                == {
                    var state = WindowState(session: "s", window: "tabs", selectedTab: "sent")
                    state.revision = 1
                    state.updatedAt = Self.at(clock.now)
                    return state
                }())
        try store.setSelectedTab(nil, session: "s", window: "none")
        #expect(try store.window(session: "s", window: "none") == nil)
        #expect(try store.scene(session: "s", window: "none") == nil)
    }

    /// A bad tab, or bad ids, are refused before anything is opened, and nothing is written.
    @Test(arguments: ["", String(repeating: "t", count: 257), "a\u{7}"])
    func aBadTabIsRefusedAndNothingWritten(_ tab: String) throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "s", window: "w", selectedTab: "inbox"))
        let before = try rawDump(path)
        #expect {
            try store.setSelectedTab(tab, session: "s", window: "w")
        } throws: { error in
            guard case .invalidInput(let message) = error as? StateStoreError else { return false }
            return message.contains("selected tab")
        }
        #expect(throws: StateStoreError.self) {
            try store.update(session: "s", window: "w") { $0.selectedTab = tab }
        }
        #expect(throws: StateStoreError.self) {
            try store.save(WindowState(session: "s", window: "w", selectedTab: tab))
        }
        #expect(throws: StateStoreError.self) { try store.setSelectedTab("ok", session: "", window: "w") }
        #expect(try rawDump(path) == before)
    }

    // MARK: Deleting

    @Test func deletingAWindowDeletesItsSceneFacts() throws {
        let store = try WindowStore.inMemory()
        try store.save(WindowState(session: "s", window: "stored"))
        try store.focus(session: "s", window: "stored", kind: "mail")
        try store.focus(session: "s", window: "scene only", kind: "mail")

        #expect(try store.deleteWindow(session: "s", window: "stored"))
        #expect(try store.scene(session: "s", window: "stored") == nil)
        #expect(try store.focusedWindow(session: "s") == "scene only")

        // A window known only by its scene facts is at revision 0, and is deleted.
        #expect(throws: StateStoreError.conflict(session: "s", window: "scene only", expected: 1, actual: 0)) {
            try store.deleteWindow(session: "s", window: "scene only", expectedRevision: 1)
        }
        #expect(try store.scene(session: "s", window: "scene only") != nil, "a conflict deletes nothing")
        #expect(try store.deleteWindow(session: "s", window: "scene only", expectedRevision: 0))
        #expect(try store.scenes(session: "s").isEmpty)
        #expect(try store.focusedWindow(session: "s") == nil)
        #expect(try store.deleteWindow(session: "s", window: "scene only") == false, "nothing left to delete")
    }

    @Test func deletingASessionDeletesEveryWindowsSceneFacts() throws {
        let store = try WindowStore.inMemory()
        try store.save(WindowState(session: "s", window: "b"))
        try store.focus(session: "s", window: "b")
        try store.setKind("mail", session: "s", window: "a")
        try store.setKind("mail", session: "s", window: "c")
        try store.focus(session: "other", window: "a")

        #expect(try store.deleteSession("s") == ["a", "b", "c"], "windows without state are named too")
        #expect(try store.scenes(session: "s").isEmpty)
        #expect(try store.focusedWindow(session: "s") == nil)
        #expect(try store.focusedWindow(session: "other") == "a", "other sessions are not touched")
        #expect(try store.deleteSession("s").isEmpty)
    }

    @Test func replacingASessionDeletesItsSceneFacts() throws {
        let store = try WindowStore.inMemory()
        try store.save(WindowState(session: "s", window: "w"))
        try store.focus(session: "s", window: "w", kind: "mail")
        try store.focus(session: "s", window: "scene only")
        try store.replaceSession("s", with: [WindowState(session: "s", window: "w")])
        #expect(try store.scenes(session: "s") == [WindowScene(session: "s", window: "w", hasState: true)])
        #expect(try store.focusedWindow(session: "s") == nil)
    }

    @Test func aWindowDeletedByHandTakesItsSceneFactsWithIt() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "s", window: "w"))
        try store.focus(session: "s", window: "w")
        try store.focus(session: "s", window: "other")
        try rawSQL(path, "DELETE FROM windows WHERE window = 'w'")
        #expect(try store.scene(session: "s", window: "w") == nil)
        #expect(try store.scene(session: "s", window: "other") != nil, "only that window's")
        #expect(try store.check().isOK)
    }

    @Test func pruningOneSessionsWindowsTakesOldSceneFactsButThoseKept() throws {
        let clock = Clock()
        let store = try WindowStore.inMemory(options: Self.options(clock))
        try store.save(WindowState(session: "s", window: "old"))
        try store.focus(session: "s", window: "old")
        try store.focus(session: "s", window: "old scene")
        try store.setKind("mail", session: "s", window: "never focused")
        try store.setKind("mail", session: "s", window: "kept")
        try store.focus(session: "other", window: "old scene")
        clock.now += 3_600_000
        try store.focus(session: "s", window: "new scene")
        try store.save(WindowState(session: "s", window: "new"))

        let pruned = try store.pruneWindows(session: "s", olderThan: .seconds(60), keeping: ["kept"])
        #expect(pruned == ["never focused", "old", "old scene"])
        #expect(try store.scenes(session: "s").map(\.window) == ["kept", "new", "new scene"])
        #expect(try store.scenes(session: "other").count == 1, "other sessions are not touched")
    }

    /// A window written long ago but focused since is pruned by its write: a prune's age is that of
    /// the state's last write, as `statectl prune --older-than` has it; its scene facts go with it.
    @Test func pruningTakesTheSceneFactsOfWhatItPrunes() throws {
        let clock = Clock()
        let store = try WindowStore.inMemory(options: Self.options(clock))
        try store.save(WindowState(session: "old", window: "w"))
        try store.setKind("mail", session: "old", window: "scene only")
        try store.focus(session: "scenes", window: "old focus")
        try store.setKind("mail", session: "never", window: "w")
        clock.now += 3_600_000
        try store.focus(session: "old", window: "w")
        try store.focus(session: "recent", window: "w")
        clock.now += 60_000

        let dry = try store.prune(olderThan: .seconds(90), dryRun: true)
        #expect(dry.map(\.session) == ["old"])
        #expect(try store.scenes(session: "scenes").count == 1, "a dry run removes nothing")
        #expect(try store.scenes(session: "never").count == 1)

        let pruned = try store.prune(olderThan: .seconds(90))
        #expect(pruned == dry, "sessions of scene facts alone are not reported")
        #expect(pruned.first?.windows == ["scene only", "w"])
        #expect(try store.scenes(session: "old").isEmpty)
        #expect(try store.scenes(session: "scenes").isEmpty, "focused before the cutoff")
        #expect(try store.scenes(session: "never").isEmpty, "never focused")
        #expect(try store.focusedWindow(session: "recent") == "w", "focused within the age")
    }

    // MARK: Bad input and stores that cannot take it

    static let badCalls: [(what: String, call: @Sendable (WindowStore) throws -> Void)] = [
        ("an empty session", { try $0.focus(session: "", window: "w") }),
        ("a window with a control character", { try $0.focus(session: "s", window: "w\u{1b}") }),
        ("a window id of 257 bytes", { try $0.setKind("k", session: "s", window: String(repeating: "w", count: 257)) }),
        ("an empty kind", { try $0.focus(session: "s", window: "w", kind: "") }),
        ("a kind of 65 bytes", { try $0.focus(session: "s", window: "w", kind: String(repeating: "k", count: 65)) }),
        (
            "a kind of 66 bytes in 33 characters",
            { try $0.setKind(String(repeating: "\u{e9}", count: 33), session: "s", window: "w") }
        ),
        ("a kind with a newline", { try $0.setKind("mail\n", session: "s", window: "w") }),
        ("a kind with a C1 control", { try $0.focus(session: "s", window: "w", kind: "a\u{85}") }),
        ("an empty tab", { try $0.setSelectedTab("", session: "s", window: "w") }),
        ("a tab with a tab", { try $0.setSelectedTab("a\tb", session: "s", window: "w") }),
        ("an empty session to setSelectedTab", { try $0.setSelectedTab("t", session: "", window: "w") }),
        ("focusedWindow of an empty session", { _ = try $0.focusedWindow(session: "") }),
        ("focusedWindow of an empty kind", { _ = try $0.focusedWindow(session: "s", kind: "") }),
        ("scene of a bad window", { _ = try $0.scene(session: "s", window: "") }),
        ("scenes of a bad session", { _ = try $0.scenes(session: "s\u{0}") }),
    ]

    @Test(arguments: badCalls.indices)
    func badIdsKindsAndTabsAreRefusedAndNothingIsWritten(_ index: Int) throws {
        let (what, call) = Self.badCalls[index]
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        let before = try rawDump(path)
        #expect("\(what)") {
            try call(store)
        } throws: { error in
            guard case .invalidInput = error as? StateStoreError else { return false }
            return true
        }
        #expect(try rawDump(path) == before, "\(what): nothing written")
    }

    @Test func errorsNameWhatIsWrong() throws {
        let store = try WindowStore.inMemory()
        #expect(throws: StateStoreError.invalidInput("kind is empty")) {
            try store.focus(session: "s", window: "w", kind: "")
        }
        #expect(throws: StateStoreError.invalidInput("kind is 65 bytes; the limit is 64")) {
            try store.setKind(String(repeating: "k", count: 65), session: "s", window: "w")
        }
        #expect(throws: StateStoreError.invalidInput("kind contains a control character (U+000A)")) {
            try store.focusedWindow(session: "s", kind: "a\n")
        }
        #expect(throws: StateStoreError.invalidInput("selected tab is empty")) {
            try store.setSelectedTab("", session: "s", window: "w")
        }
        #expect(throws: StateStoreError.invalidInput("window id is empty")) {
            try store.focus(session: "s", window: "")
        }
    }

    @Test func aMissingFileIsNotFoundWithoutCreate() throws {
        let folder = TemporaryFolder()
        var options = WindowStore.Options()
        options.createIfMissing = false
        let path = folder.file("state.db")
        #expect(throws: StateStoreError.notFound(.file(path: path))) {
            try WindowStore(path: path, options: options).focus(session: "s", window: "w")
        }
        #expect(!exists(path), "nothing created")
    }

    /// A store opened only to inspect an older schema refuses every scene call, and changes
    /// nothing, until it is migrated.
    @Test func anInspectOnlyStoreOfTheThirdSchemaRefusesSceneCalls() throws {
        let folder = TemporaryFolder()
        let path = folder.file("old.db")
        try Self.makeThirdSchemaStore(at: path)
        let before = try rawDump(path)
        var inspect = WindowStore.Options()
        inspect.migrate = false
        let store = try WindowStore(path: path, options: inspect)
        let calls: [(WindowStore) throws -> Void] = [
            { try $0.focus(session: "main", window: "inbox", kind: "mail") },
            { try $0.setKind("mail", session: "main", window: "inbox") },
            { try $0.setSelectedTab("t", session: "main", window: "inbox") },
            { _ = try $0.focusedWindow(session: "main") },
            { _ = try $0.scene(session: "main", window: "inbox") },
            { _ = try $0.scenes(session: "main") },
        ]
        for call in calls {
            #expect {
                try call(store)
            } throws: { error in
                guard case .invalidInput(let message) = error as? StateStoreError else { return false }
                return message.contains("has schema version 3") && message.contains("migrate it first")
            }
        }
        #expect(try rawDump(path) == before, "nothing written")
        try store.migrate()
        try store.focus(session: "main", window: "inbox", kind: "mail")
        #expect(try store.focusedWindow(session: "main", kind: "mail") == "inbox")
    }

    @Test func aCallFromInsideUpdateIsRefused() throws {
        let store = try WindowStore.inMemory()
        #expect(throws: StateStoreError.reentrantCall("focus(session:window:kind:)")) {
            try store.update(session: "s", window: "w") { state in
                state.push(route("A"))
                try store.focus(session: "s", window: "w")
            }
        }
        try store.save(WindowState(session: "s", window: "w"))
        #expect(throws: StateStoreError.reentrantCall("setKind(_:session:window:)")) {
            try store.forEachWindow { summary in
                try store.setKind("k", session: summary.session, window: summary.window)
            }
        }
        #expect(try store.scene(session: "s", window: "w") == WindowScene(session: "s", window: "w", hasState: true))
    }

    // MARK: Migration

    static let columnsOfSchema3 = "session, window, size_class, path, item, item_path, policy, revision, updated_at"

    /// A store of schema 3 (the one before scenes) with windows in it: what an older build left.
    static func makeThirdSchemaStore(at path: String) throws {
        do {
            let database = try Database(path: path, create: true, busyTimeoutMilliseconds: 1000)
            try database.useWAL()
            _ = try Migrator(migrations: Array(Migration.embedded.prefix(3))).migrate(database) {
                Timestamp(millisecondsSince1970: 1_764_460_000_000)
            }
        }
        #expect(try rawQuery(path, "PRAGMA user_version") == ["3"])
        // Rows as the build of schema 3 wrote them (its triggers log them).
        try rawSQL(
            path,
            """
            INSERT INTO windows VALUES ('main', 'inbox', 'regular', '[{"type":"Folder","value":"inbox"}]', NULL, '[]',
                'migrate', 2, 1764460801000);
            INSERT INTO window_history SELECT session, window, revision, size_class, path, item, item_path, policy,
                updated_at FROM windows;
            INSERT INTO windows VALUES ('main', 'settings', 'compact', '[]', NULL, '[]', 'dismiss', 1, 1764460802000);
            INSERT INTO window_history SELECT session, window, revision, size_class, path, item, item_path, policy,
                updated_at FROM windows WHERE window = 'settings';
            """)
    }

    @Test func aStoreOfTheThirdSchemaMigratesOnOpenWithItsWindows() throws {
        let folder = TemporaryFolder()
        let path = folder.file("old.db")
        try Self.makeThirdSchemaStore(at: path)
        // The columns of schema 3; schema 6 adds three of its own to each table.
        let selectWindows = "SELECT \(Self.columnsOfSchema3) FROM windows ORDER BY window"
        let selectHistory = "SELECT \(Self.columnsOfSchema3) FROM window_history ORDER BY window, revision"
        let selectChanges = "SELECT seq, \(Self.columnsOfSchema3) FROM changes ORDER BY seq"
        let windows = try rawQuery(path, selectWindows)
        let history = try rawQuery(path, selectHistory)
        let changes = try rawQuery(path, selectChanges)

        var inspect = WindowStore.Options()
        inspect.migrate = false
        let status = try WindowStore(path: path, options: inspect).migrationStatus()
        #expect(status.schemaVersion == 3)
        #expect(status.pending.first == MigrationInfo(version: 4, name: "window_scenes"))
        #expect(status.pending.map(\.version) == Array(4...WindowStore.schemaVersion))
        #expect(try rawQuery(path, "PRAGMA user_version") == ["3"], "inspecting migrates nothing")

        let store = try WindowStore(path: path)
        #expect(try rawQuery(path, "PRAGMA user_version") == [String(WindowStore.schemaVersion)])
        #expect(try store.migrationStatus().applied.map(\.version) == Array(1...WindowStore.schemaVersion))
        let report = try store.check()
        #expect(report.isOK, "\(report)")
        #expect(try rawQuery(path, selectWindows) == windows, "windows as they were")
        #expect(try rawQuery(path, selectHistory) == history)
        #expect(try rawQuery(path, selectChanges) == changes)
        #expect(
            try store.scenes(session: "main") == [
                WindowScene(session: "main", window: "inbox", hasState: true),
                WindowScene(session: "main", window: "settings", hasState: true),
            ])
        #expect(try store.focusedWindow(session: "main") == nil, "nothing was focused before")
        try store.focus(session: "main", window: "settings", kind: "settings")
        #expect(try store.focusedWindow(session: "main") == "settings")
        #expect(try store.window(session: "main", window: "inbox")?.revision == 2)
        #expect(try store.deleteWindow(session: "main", window: "settings"))
        #expect(try store.focusedWindow(session: "main") == nil)
    }
}

/// Which of the system's scene sessions showed a window (package API for hosts): recorded with no
/// revision, read back per session, gone with the window.
struct SceneSessionRecordTests {
    @Test func aRecordedSceneSessionIsReadBackAndGoesWithItsWindow() throws {
        let folder = TemporaryFolder()
        let store = try WindowStore(path: folder.file("state.db"))
        try store.save(WindowState(session: "s", window: "a"))
        try store.recordSceneSession("scene-1", session: "s", window: "a")
        try store.recordSceneSession("scene-2", session: "s", window: "no-state-yet")
        try store.recordSceneSession("scene-3", session: "other", window: "a")
        let recorded = try store.recordedSceneSessions(session: "s")
        #expect(recorded.map(\.window) == ["a", "no-state-yet"])
        #expect(recorded.map(\.scene) == ["scene-1", "scene-2"])
        #expect(try store.window(session: "s", window: "a")?.revision == 1, "no revision for it")
        try store.recordSceneSession("scene-4", session: "s", window: "a")
        #expect(try store.recordedSceneSessions(session: "s").first?.scene == "scene-4", "the latest scene session")
        try store.deleteWindow(session: "s", window: "a")
        #expect(try store.recordedSceneSessions(session: "s").map(\.window) == ["no-state-yet"])
        #expect(throws: StateStoreError.self) { try store.recordSceneSession("", session: "s", window: "a") }
        #expect(throws: StateStoreError.self) { try store.recordSceneSession("x\u{0}", session: "s", window: "a") }
    }
}

/// A delete that chooses its windows chooses them with the write lock had: what the choice
/// consults (a host's live models) is as current as the delete.
struct ChosenDeleteTests {
    @Test func theChoiceIsMadeWithTheWriteLockHadAndSeesEveryWindowWithItsSceneSession() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "s", window: "a"))
        try store.save(WindowState(session: "s", window: "a/inbox"))
        try store.recordSceneSession("scene-1", session: "s", window: "a")
        try store.recordSceneSession("scene-2", session: "s", window: "no-state-yet")
        try store.save(WindowState(session: "other", window: "a"))
        var seen: [(window: String, sceneSession: String?)] = []
        var lockedOut = false
        let deleted = try store.deleteWindows(session: "s") { known in
            seen = known
            // Another connection cannot take the write lock: the delete holds it while it chooses.
            lockedOut = (try? WriteLock(path)) == nil
            return ["a", "a/inbox", "no-state-yet"]
        }
        #expect(lockedOut, "chosen inside the write transaction")
        #expect(seen.map(\.window) == ["a", "a/inbox", "no-state-yet"])
        #expect(seen.map(\.sceneSession) == ["scene-1", nil, "scene-2"])
        #expect(deleted == ["a", "a/inbox", "no-state-yet"])
        #expect(try store.windowSummaries(session: "s").isEmpty)
        #expect(try store.window(session: "other", window: "a") != nil, "another session's untouched")
        #expect(try store.deleteWindows(session: "s") { _ in [] } == [])
        #expect(throws: StateStoreError.self) { try store.deleteWindows(session: "") { $0.map(\.window) } }
    }
}
