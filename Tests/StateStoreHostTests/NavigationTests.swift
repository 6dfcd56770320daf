import Foundation
import StateStore
import StateStoreHost
import Testing

/// The tabs of a browse window: the app's own key type.
enum BrowseTab: String, CaseIterable, TabKey {
    case inbox, search, settings
}

/// A settings tab's routes: a type of its own, not mail.
enum SettingsRoute: Codable, Hashable, RouteRepresentable {
    case account, signature
}

/// A route type a test declares privately: its name is not the same from one build to the next.
private enum PrivateRoute: Codable, Hashable, RouteRepresentable {
    case one
}

/// A route type whose case was renamed (`draft` was `compose`): its own decoder reads the old name.
enum Renamed: Hashable, RouteRepresentable {
    case draft(Int)

    private enum Keys: String, CodingKey { case draft, compose }
    private enum Payload: String, CodingKey { case _0 }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let key = container.contains(.draft) ? Keys.draft : .compose
        let payload = try container.nestedContainer(keyedBy: Payload.self, forKey: key)
        self = .draft(try payload.decode(Int.self, forKey: ._0))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        guard case .draft(let number) = self else { return }
        var payload = container.nestedContainer(keyedBy: Payload.self, forKey: .draft)
        try payload.encode(number, forKey: ._0)
    }
}

/// Navigation as real apps keep it: tabs named by the app's own type, each of its own route type
/// and kind; routes the app's data no longer resolves dropped on restore; every window error told
/// to the app; a route type the store cannot name refused at first use.
@MainActor
struct NavigationTests {
    @Test func aTabIsSelectedByTheAppsOwnKeyType() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("w", as: Mail.self)
        #expect(window[selectedTab: BrowseTab.self] == .inbox, "the first case until one is chosen")
        window[selectedTab: BrowseTab.self] = .search
        #expect(window.selectedTab == "search")
        window.tab(BrowseTab.search).push(.folder("results"))
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "w/search")?.path == [stored(.folder("results"))])

        let set = try fixture.statectl(["set", "app", "w", "--tab", "gone"])
        #expect(set.status == 0, "\(set.stderr)")
        let again = try await fixture.open()
        let restored = again.window("w", as: Mail.self)
        #expect(restored.selectedTab == "gone")
        #expect(restored[selectedTab: BrowseTab.self] == .inbox, "a tab the app no longer has reads as the first")
        #expect(restored[selectedTab: String.self, default: "inbox"] == "gone")
    }

    @Test func anOutsideWriterForMailNeverLandsInTheSettingsTab() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("w", as: Mail.self, kind: "mail")
        let inbox = window.tab(BrowseTab.inbox)
        let settings = window.tab(BrowseTab.settings, as: SettingsRoute.self, kind: "settings")
        #expect(settings.kind == "settings" && inbox.kind == "mail")
        window.environmentChanged(sizeClass: .regular, isActive: true)
        window[selectedTab: BrowseTab.self] = .settings
        #expect(session.focusedWindow == "w/settings")
        #expect(await session.flush())
        await waitUntil("recorded") { (try? fixture.store().focusedWindow(session: "app")) == "w/settings" }

        let set = try fixture.statectl([
            "set", "app", "--focused", "--kind", "mail", "--present", stored(.compose(draft: 1)).description,
        ])
        #expect(set.status == 0, "\(set.stderr)")
        await waitUntil("the compose shown in the mail tab") { inbox.item == .compose(draft: 1) }
        let store = try fixture.store()
        #expect(try store.window(session: "app", window: "w/settings") == nil, "not in the settings tab")
        #expect(try store.window(session: "app", window: "w")?.item == nil, "not in the window behind the tabs")
        #expect(settings.path.isEmpty)
    }

    @Test func aWindowOfTabsIsNeverAddressedByKind() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("w", as: Mail.self, kind: "mail")
        _ = window.tab(BrowseTab.settings, as: SettingsRoute.self, kind: "settings")
        window[selectedTab: BrowseTab.self] = .settings
        window.environmentChanged(sizeClass: .regular, isActive: true)
        #expect(await session.flush())
        await waitUntil("recorded") { (try? fixture.store().focusedWindow(session: "app")) == "w/settings" }
        let set = try fixture.statectl([
            "set", "app", "--focused", "--kind", "mail", "--present", stored(.compose(draft: 1)).description,
        ])
        #expect(set.status == 66, "no window of kind mail was ever shown: \(set.stderr)")
        #expect(try fixture.store().window(session: "app", window: "w")?.item == nil)
    }

    @Test func routesTheAppNoLongerHasAreDroppedOnRestore() async throws {
        let fixture = HostFixture()
        var state = WindowState(session: "app", window: "w")
        state.path = [stored(.folder("inbox")), stored(.thread(2)), stored(.thread(3))]
        state.present(stored(.message(9)))
        try fixture.store().save(state)
        var tab = WindowState(session: "app", window: "w/inbox")
        tab.path = [stored(.thread(2)), stored(.thread(4))]
        try fixture.store().save(tab)

        let session = try await fixture.open()
        let window = session.window("w", as: Mail.self)
        let deleted: Set<Mail> = [.thread(2), .message(9)]
        window.keepsRoute = { !deleted.contains($0) }
        #expect(window.path == [.folder("inbox"), .thread(3)], "the others kept in their order")
        #expect(window.item == nil, "an item it refuses dismissed")
        #expect(window.tab("inbox").path == [.thread(4)], "the window's tabs of its route type too")
        #expect(session.focusedWindow == nil, "a change the model made, not the user")
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "w")?.revision == 2, "written as one revision")

        let set = try fixture.statectl(["set", "app", "w", "--push", stored(.thread(2)).description])
        #expect(set.status == 0, "\(set.stderr)")
        window.environmentChanged(sizeClass: .regular, isActive: true)
        await waitUntil("the outside change adopted and checked") { window.revision == 4 }
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "w")?.revision == 4)
        #expect(window.path == [.folder("inbox"), .thread(3)], "what another writer adds is checked too")
    }

    @Test func aRenamedCaseIsReadThroughTheTypesOwnDecoder() async throws {
        let session = WindowSession.inMemory()
        let window = session.window("w", as: Renamed.self)
        window.push(.draft(1))
        #expect(try window.path[0].route().json == #"{"draft":{"_0":1}}"#)
        let old = try Route(type: Renamed.routeType, json: #"{"compose":{"_0":7}}"#)
        #expect(try Renamed(route: old) == .draft(7), "a route stored under the old case name")
    }

    @Test func aRouteTypeTheStoreCannotNameIsRefusedAtFirstUse() async throws {
        var heard: [String] = []
        var options = WindowSession.Options()
        options.errorHandler = { window, error in heard.append("\(window): \(error)") }
        let fixture = HostFixture()
        let session = try await fixture.open(options: options)
        let window = session.window("w", as: PrivateRoute.self)
        guard case .unstableRouteType(let name)? = window.lastError else {
            Issue.record("refused at first use, not \(String(describing: window.lastError))")
            return
        }
        #expect(name.contains("PrivateRoute"))
        let message = try #require(window.lastError).description
        #expect(message.contains("PrivateRoute") && message.contains("declare the type at file scope"))
        #expect(heard.count == 1 && heard[0].hasPrefix("w: "), "the app's error hook hears it")
        window.push(.one)
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "w") == nil, "nothing stored")

        let holder = session.window("h", as: Mail.self)
        if case .unstableRouteType? = holder.tab("private", as: PrivateRoute.self).lastError {
        } else {
            Issue.record("a tab of such a type is refused too")
        }
        if case .unstableRouteType? = WindowModel<PrivateRoute>(previewing: [.one]).lastError {
        } else {
            Issue.record("a preview of such a type is refused too")
        }
    }

    @Test func everyWindowErrorReachesTheAppsHook() async throws {
        var heard: [WindowError] = []
        var options = WindowSession.Options()
        options.errorHandler = { _, error in heard.append(error) }
        let session = WindowSession.inMemory(options: options)
        _ = session.window("w", as: Mail.self)
        _ = session.window("w", as: SettingsRoute.self)
        _ = session.window("", as: Mail.self)
        session.window("x", as: Mail.self).pop()
        #expect(heard.count == 3)
        guard heard.count == 3 else { return }
        if case .typeMismatch = heard[0] {} else { Issue.record("a type mismatch, not \(heard[0])") }
        if case .invalidWindowID = heard[1] {} else { Issue.record("an id refused, not \(heard[1])") }
        if case .invalidEdit = heard[2] {} else { Issue.record("an over-pop, not \(heard[2])") }
    }

    @Test func aWindowOverTheLimitsTellsTheUserOnce() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("w", as: Mail.self)
        window.navigate(to: (0..<Limits.routesPerWindow).map { .message($0) })
        #expect(await session.flush())
        #expect(session.storageIssue == nil)
        window.push(.thread(1))
        guard case .windowOverLimits(window: "w")? = session.storageIssue?.kind else {
            Issue.record("the user is told, not \(String(describing: session.storageIssue))")
            return
        }
        session.storageIssue = nil
        window.push(.thread(2))
        #expect(session.storageIssue == nil, "once, until the window fits again")
        window.pop(3)
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "w")?.path.count == Limits.routesPerWindow - 1)
        window.push(.thread(3))
        #expect(await session.flush())
        window.push(.thread(4))
        #expect(session.storageIssue != nil, "over again: told again")
    }

    @Test func eachLayoutAWindowChoosesKeepsItsOwnPlaceWithTheWindow() async throws {
        // The recipe browser's experiences: the window's choice is its selected tab, each
        // experience a tab with a place of its own.
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("w", as: Mail.self)
        window.tab(BrowseTab.inbox).push(.thread(1))
        window[selectedTab: BrowseTab.self] = .search
        window.tab(BrowseTab.search).navigate(sidebar: Category.work, to: [.message(2)])
        window[selectedTab: BrowseTab.self] = .inbox
        #expect(window.tab(BrowseTab.inbox).path == [.thread(1)], "switching back finds the place it left")
        window[selectedTab: BrowseTab.self] = .search
        #expect(await session.flush())

        let again = try await fixture.open()
        let restored = again.window("w", as: Mail.self)
        #expect(restored[selectedTab: BrowseTab.self] == .search, "the choice restored with the window")
        let search = restored.tab(BrowseTab.search)
        await waitUntil("restored") { !search.isRestoring }
        #expect(search[sidebar: Category.self] == .work && search.path == [.message(2)])
        let inbox = restored.tab(BrowseTab.inbox)
        await waitUntil("restored") { !inbox.isRestoring }
        #expect(inbox.path == [.thread(1)])
        let show = try fixture.statectl(["show", "app", "w", "--json"])
        #expect(show.stdout.contains(#""selectedTab":"search""#), "outside tools see the choice: \(show.stdout)")
    }

    @Test func oneSessionAppsNeedNoName() {
        #expect(WindowSession.defaultName == "main")
    }
}
