import Foundation
import StateStore
import StateStoreHost
import Testing

/// A category a sidebar selects: the app's own type, not its route type.
enum Category: String, Codable, Hashable {
    case inbox, work, sent
}

/// A NavigationSplitView over one window: each column selects a value of the app's own type, kept
/// at the head of the window's stack, the detail column's stack (the route type) after them; so
/// they persist with the window, and a deep link into the columns is one edit.
@MainActor
struct ColumnTests {
    @Test(arguments: [SizeClass.regular, .compact])
    func eachColumnSelectsItsOwnType(_ sizeClass: SizeClass) async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("main", as: Mail.self)
        window.environmentChanged(sizeClass: sizeClass, isActive: true)

        window[sidebar: Category.self] = .inbox
        #expect(window[sidebar: Category.self] == .inbox)
        #expect(window.stack == [], "a column's selection is not in the detail column's stack")
        window[content: Int.self] = 7
        window.stack = [.message(70)]
        #expect(window[content: Int.self] == 7)
        #expect(window.stack == [.message(70)])
        #expect(window.path == [.message(70)])
        #expect(window[sidebar: String.self] == nil, "a selection of another type reads as none")

        window[content: Int.self] = 7
        #expect(window.stack == [.message(70)], "the same selection keeps the detail column")
        window[sidebar: Category.self] = .work
        #expect(window[content: Int.self] == nil, "another selection clears the columns after it")
        #expect(window.stack == [])
        window[content: Int.self] = 2
        window[content: Int.self] = nil
        #expect(window[sidebar: Category.self] == .work)
        #expect(window[content: Int.self] == nil)
        #expect(window.lastError == nil)

        #expect(await session.flush())
        let again = try await fixture.open()
        let restored = again.window("main", as: Mail.self)
        #expect(restored[sidebar: Category.self] == .work, "persisted with the window")
    }

    @Test func theDetailColumnCarriesThePushedItemWhenRegularAndPopsNoColumn() async throws {
        let session = WindowSession.inMemory()
        let window = session.window("main", as: Mail.self)
        window.environmentChanged(sizeClass: .regular, isActive: true)
        window.navigate(sidebar: Category.inbox, content: 1, to: [.thread(1)], presenting: .compose(draft: 3))
        #expect(window.stack == [.thread(1), .compose(draft: 3)], "pushed onto the detail column")
        window.pop(2)
        #expect(window.stack == [] && window.item == nil)
        #expect(window[sidebar: Category.self] == .inbox && window[content: Int.self] == 1)
        window.pop()
        #expect(window.lastError != nil, "going back past the detail column's stack changes nothing")
        #expect(window[content: Int.self] == 1)
    }

    @Test func aDeepLinkSelectsTheColumnsInOneRevision() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("main", as: Mail.self)
        window.navigate(sidebar: Category.sent, content: 12, presenting: .compose(draft: 12))
        window.navigate(sidebar: Category.sent, content: 12, to: [.message(1)], presenting: .compose(draft: 12))
        #expect(await session.flush())
        let history = try fixture.store().history(session: "app", window: "main")
        #expect(history.map(\.revision).sorted() == [1, 2], "one revision per link")
        let stored = try #require(try fixture.store().window(session: "app", window: "main"))
        #expect(stored.path.count == 3, "two columns' selections, then the detail column's stack")
        #expect(stored.path[0].type == "StateStoreHost.ColumnSelection")
        #expect(stored.path[0].json == #"{"column":"sidebar","type":"StateStoreHostTests.Category","value":"sent"}"#)
        #expect(stored.path[1].json == #"{"column":"content","type":"Swift.Int","value":12}"#)
        #expect(window[sidebar: Category.self] == .sent && window[content: Int.self] == 12)
        window.navigate(to: [.message(2)])
        #expect(window[sidebar: Category.self] == .sent, "a deep link into the detail column keeps the columns")
        #expect(window.stack == [.message(2)] && window.item == nil)
    }

    @Test func aPreviewLinkedIntoItsColumnsShowsItsCompactSheetOnceTheViewHasDrawn() {
        // Testing and previews: a preview's model navigated after it is made, as a split view
        // preview does; the adapter's views call presentationReady() when they appear.
        let window = WindowModel<Mail>(previewing: [], sizeClass: .compact)
        window.navigate(sidebar: Category.sent, content: 12, presenting: .compose(draft: 12))
        #expect(window[sidebar: Category.self] == .sent && window[content: Int.self] == 12)
        #expect(window.sheet == nil, "held until the stack under it is drawn")
        window.presentationReady()
        #expect(window.sheet?.route == .compose(draft: 12))
        #expect(window.revision == 0, "nothing stored")
    }

    @Test func aColumnSelectionWrittenByAnotherModuleIsRead() async throws {
        // The app's extension compiles the same type into a module of another name.
        let fixture = HostFixture()
        var state = WindowState(session: "app", window: "main")
        state.path = [
            try Route(
                type: "StateStoreHost.ColumnSelection",
                json: #"{"column":"sidebar","type":"MailShare.Category","value":"work"}"#),
            stored(.message(4)),
        ]
        try fixture.store().save(state)
        let session = try await fixture.open()
        let window = session.window("main", as: Mail.self)
        #expect(window[sidebar: Category.self] == .work)
        #expect(window.stack == [.message(4)])
        #expect(window[sidebar: Int.self] == nil, "another type's name is not read as it")
    }

    @Test func columnVisibilityAndTheCompactColumnAreKeptAndSetFromOutside() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("main", as: Mail.self)
        window.environmentChanged(sizeClass: .regular, isActive: true)
        window.columnVisibility = .detailOnly
        window.preferredCompactColumn = .detail
        #expect(await session.flush())
        let stored = try #require(try fixture.store().window(session: "app", window: "main"))
        #expect(stored.columnVisibility == .detailOnly && stored.preferredCompactColumn == .detail)

        let set = try fixture.statectl([
            "set", "app", "main", "--column-visibility", "all", "--compact-column", "sidebar",
        ])
        #expect(set.status == 0, "\(set.stderr)")
        await waitUntil("the outside change shown") { window.columnVisibility == .all }
        #expect(window.preferredCompactColumn == .sidebar)
    }
}
