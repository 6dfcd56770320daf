import StateStore
import StateStoreHost
import Testing

/// Tabs and scene lifetimes, with no app code: a stack per tab, persisted and adaptive, reachable
/// from its window and discarded with it; windows of scenes the system no longer keeps deleted with
/// no app delegate; the one binding that shows and clears storage trouble.
@MainActor
struct SceneTests {
    @Test func eachTabIsAWindowThatFollowsItsScene() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("scene", as: Mail.self)
        window.environmentChanged(sizeClass: .compact, isActive: true)
        let inbox = window.tab("inbox")
        let search = window.tab("search", as: Route.self)
        #expect(inbox.id == "scene/inbox")
        #expect(window.tab("inbox") === inbox, "the same model for the same tab")
        #expect(inbox.sizeClass == .compact, "laid out for the class its scene reports")

        inbox.present(.message(1))
        #expect(inbox.sheet != nil || inbox.layout.presentation == .sheet)
        window.environmentChanged(sizeClass: .regular, isActive: true)
        #expect(inbox.sizeClass == .regular)
        #expect(inbox.stack == [.message(1)], "the tab's item pushed when its scene is regular")
        search.push(try Route(type: "Search", json: #""mail""#))
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "scene/inbox")?.item == stored(.message(1)))
        #expect(try fixture.store().window(session: "app", window: "scene/search")?.path.count == 1)

        #expect(window[selectedTab: String.self, default: "inbox"] == "inbox", "the first until one is chosen")
        window[selectedTab: String.self, default: "inbox"] = "search"
        #expect(window.selectedTab == "search")

        try await session.discard(windows: ["scene"])
        #expect(try fixture.store().windowSummaries(session: "app").isEmpty, "the tabs go with their window")
    }

    @Test func windowsOfSceneSessionsTheSystemNoLongerKeepsAreDeleted() async throws {
        let fixture = HostFixture()
        let store = try fixture.store()
        for id in ["kept", "kept/inbox", "gone", "gone/inbox", "fixed", "extension", "live"] {
            try store.save(WindowState(session: "app", window: id))
        }
        try store.save(WindowState(session: "other", window: "gone"))
        let session = try await fixture.open()
        session.handle(.windowShown(window: "kept", sceneSession: "scene-1"))
        session.handle(.windowShown(window: "gone", sceneSession: "scene-2"))
        session.handle(.windowShown(window: "live", sceneSession: "scene-3"))
        _ = session.window("live", as: Mail.self)
        #expect(await session.flush())

        let discarded = try await session.discardWindows(ofSceneSessionsNotIn: ["scene-1"])
        #expect(discarded.sorted() == ["gone", "gone/inbox"], "only windows a scene session recorded, with their tabs")
        #expect(
            try store.windowSummaries(session: "app").map(\.window) == [
                "extension", "fixed", "kept", "kept/inbox", "live",
            ])
        #expect(try store.window(session: "other", window: "gone") != nil, "another session's windows stay")
        #expect(
            try await session.discardWindows(ofSceneSessionsNotIn: []).isEmpty, "no scene session kept: nothing goes")
    }

    @Test func aDeviceWindowsPreviewHasTabsToo() {
        let window = WindowModel<Mail>(previewing: [])
        let tab = window.tab("inbox")
        #expect(window.tab("inbox") === tab)
        tab.push(.folder("inbox"))
        #expect(tab.path == [.folder("inbox")])
    }

    @Test func theFocusedWindowAloneShowsStorageTroubleAndClearsIt() async throws {
        let fixture = HostFixture()
        try rawSQL(fixture.database, "CREATE TABLE notes (text TEXT)")
        let session = WindowSession(path: fixture.database, session: "app")
        await waitUntil("opened") { !session.isOpening }
        #expect(
            session[showsStorageIssueIn: "a"] && session[showsStorageIssueIn: "b"], "every window, none focused yet")
        let a = session.window("a", as: Mail.self)
        let b = session.window("b", as: Mail.self)
        _ = a.tab("inbox")
        a.environmentChanged(sizeClass: .regular, isActive: true)
        b.environmentChanged(sizeClass: .regular, isActive: false)
        #expect(session[showsStorageIssueIn: "a"], "the focused window (through the tab it shows)")
        #expect(!session[showsStorageIssueIn: "b"], "not another: the user hears of it once")
        session[showsStorageIssueIn: "a"] = true
        #expect(session.storageIssue != nil, "setting it true shows nothing new")
        session[showsStorageIssueIn: "a"] = false
        #expect(session.storageIssue == nil)
        #expect(!session[showsStorageIssueIn: "a"])
    }
}

/// The focused window and kinds, so that outside writers can address what the user sees: the
/// session records the window the user works in, and an outside writer reaches it.
@MainActor
struct FocusTests {
    @Test func anOutsideWriterReachesTheWindowTheUserWorksIn() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let mail = session.window("mail-1", as: Mail.self, kind: "mail")
        let settings = session.window("settings-1", as: Route.self, kind: "settings")
        mail.environmentChanged(sizeClass: .regular, isActive: true)
        #expect(session.focusedWindow == "mail-1")
        settings.environmentChanged(sizeClass: .regular, isActive: true)
        #expect(session.focusedWindow == "settings-1")
        #expect(await session.flush())
        await waitUntil("the focus recorded") { (try? fixture.store().focusedWindow(session: "app")) == "settings-1" }
        #expect(try fixture.store().focusedWindow(session: "app", kind: "mail") == "mail-1")
        #expect(try fixture.store().window(session: "app", window: "mail-1") == nil, "no revision per focus change")

        let set = try fixture.statectl(
            ["set", "app", "--focused", "--kind", "mail", "--present", stored(.compose(draft: 1)).description])
        #expect(set.status == 0, "\(set.stderr)")
        await waitUntil("the share extension's compose shown") { mail.item == .compose(draft: 1) }

        mail.push(.attachment("a"))
        #expect(session.focusedWindow == "mail-1", "the window the user just changed")
    }

    @Test func aTabbedWindowIsAddressedThroughTheTabItShows() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("scene", as: Mail.self, kind: "mail")
        let inbox = window.tab("inbox")
        let sent = window.tab("sent")
        window.environmentChanged(sizeClass: .compact, isActive: true)
        #expect(session.focusedWindow == "scene/inbox", "the first tab, until one is selected")
        window[selectedTab: String.self, default: "inbox"] = "sent"
        #expect(session.focusedWindow == "scene/sent")
        #expect(await session.flush())
        await waitUntil("recorded") { (try? fixture.store().focusedWindow(session: "app")) == "scene/sent" }
        #expect(try fixture.store().scene(session: "app", window: "scene")?.selectedTab == "sent")
        _ = (inbox, sent)

        let again = try await fixture.open()
        #expect(again.window("scene", as: Mail.self).selectedTab == "sent", "the selected tab restored")
    }

    @Test func aKindTheStoreRefusesGivesAModelInMemory() async throws {
        let session = WindowSession.inMemory()
        let model = session.window("w", as: Mail.self, kind: String(repeating: "k", count: 65))
        guard case .invalidWindowID? = model.lastError else {
            Issue.record("named in lastError, not \(String(describing: model.lastError))")
            return
        }
    }
}

/// Windows whose scenes the system discarded without telling the app: pruned after `pruneAfter`
/// (30 days by default), once a launch, when the app first has no active window; live ones never.
@MainActor
struct PruneAtBackgroundTests {
    @Test func oldWindowsGoWhenTheAppFirstGoesToTheBackground() async throws {
        let fixture = HostFixture()
        var old = WindowStore.Options()
        old.clock = { Timestamp(millisecondsSince1970: 1_000) }  // 1970: long ago
        let store = try WindowStore(path: fixture.database, options: old)
        for id in ["old", "old but shown"] { try store.save(WindowState(session: "app", window: id)) }
        try WindowStore(path: fixture.database).save(WindowState(session: "app", window: "recent"))
        let session = try await fixture.open()
        let shown = session.window("old but shown", as: Mail.self)
        shown.environmentChanged(sizeClass: .regular, isActive: true)
        #expect(try fixture.store().windowSummaries(session: "app").count == 3, "nothing pruned while active")
        #expect(session.launchPrune == nil)
        shown.environmentChanged(sizeClass: .regular, isActive: false)
        await session.launchPrune?.value
        #expect(try fixture.store().windowSummaries(session: "app").map(\.window) == ["old but shown", "recent"])
    }
}

/// The focus is recorded within `settle` of the change, once for changes made meanwhile, and at
/// once when no window is active any more: switching windows writes once, and a launch nothing.
@MainActor
struct FocusRecordTests {
    @Test func focusChangesWithinSettleAreRecordedOnceWhenItsTimeComes() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let first = session.window("first", as: Mail.self, kind: "mail")
        let second = session.window("second", as: Mail.self, kind: "mail")
        first.environmentChanged(sizeClass: .regular, isActive: true)
        second.environmentChanged(sizeClass: .regular, isActive: true)
        first.push(.message(1))
        #expect(session.focusedWindow == "first")
        await waitUntil("the push written, on the queue a focus record would have taken") { first.revision == 1 }
        #expect(try fixture.store().focusedWindow(session: "app") == nil, "nothing recorded before its time")

        fixture.clock.advance(by: .milliseconds(500))
        await waitUntil("the focus recorded") { (try? fixture.store().focusedWindow(session: "app")) == "first" }
        #expect(try fixture.store().scene(session: "app", window: "second")?.focusedAt != nil, "in order, both")
    }

    @Test func theFocusIsRecordedWhenNoWindowIsActiveAnyMore() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("w", as: Mail.self, kind: "mail")
        window.environmentChanged(sizeClass: .regular, isActive: true)
        window.environmentChanged(sizeClass: .regular, isActive: false)
        await waitUntil("recorded without the clock") { (try? fixture.store().focusedWindow(session: "app")) == "w" }
    }
}

/// The windows a session's open reads ahead are given to their models once, and never once they
/// changed: a window another process changed, or this session deleted, is read again.
@MainActor
struct ReadAheadTests {
    @Test func aWindowChangedByAnotherProcessBeforeItsModelIsMadeShowsTheChange() async throws {
        let fixture = HostFixture()
        let store = try fixture.store()
        for window in ["a", "b"] { try store.save(WindowState(session: "app", window: window)) }
        let session = try await fixture.open()
        let a = session.window("a", as: Mail.self)
        a.environmentChanged(sizeClass: .regular, isActive: true)
        for window in ["b", "a"] {
            let set = try fixture.statectl(["set", "app", window, "--push", stored(.folder("sent")).description])
            #expect(set.status == 0, "\(set.stderr)")
        }
        // The feed reports in order: once a's change is here, b's came before it.
        await waitUntil("a's change") { a.path == [.folder("sent")] }
        let b = session.window("b", as: Mail.self)
        await waitUntil("b as stored now") { !b.isRestoring }
        #expect(b.path == [.folder("sent")])
        #expect(b.revision == 2)
    }

    @Test func aWindowThisSessionDeletedStartsEmptyWhenMadeAgain() async throws {
        let fixture = HostFixture()
        try fixture.store().save(WindowState(session: "app", window: "gone", path: [stored(.folder("inbox"))]))
        let session = try await fixture.open()
        try await session.discard(windows: ["gone"])
        let model = session.window("gone", as: Mail.self)
        await waitUntil("read") { !model.isRestoring }
        #expect(model.path == [])
        #expect(model.revision == 0)
    }
}
