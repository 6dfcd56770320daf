import StateStore
import StateStoreHost
import Testing

/// A NavigationSplitView over one window (SPEC §6.1, "Split views"): its column selections are the
/// first elements of the window's stack and the detail column's path the rest, so they persist as
/// the window's path, collapse into the one stack when compact, and a deep link is one edit.
@MainActor
struct ColumnTests {
    @Test(arguments: [SizeClass.regular, .compact])
    func selectingInColumnsIsTheStack(_ sizeClass: SizeClass) async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("main", as: Mail.self)
        window.environmentChanged(sizeClass: sizeClass, isActive: true)

        window[selectionInColumn: 0] = .folder("inbox")
        #expect(window.stack == [.folder("inbox")])
        window[selectionInColumn: 1] = .thread(1)
        window[pathAfterColumns: 2] = [.message(7)]
        #expect(window.stack == [.folder("inbox"), .thread(1), .message(7)])
        #expect(window[selectionInColumn: 0] == .folder("inbox"))
        #expect(window[selectionInColumn: 1] == .thread(1))
        #expect(window[selectionInColumn: 2] == .message(7))
        #expect(window[selectionInColumn: 3] == nil)
        #expect(window[pathAfterColumns: 2] == [.message(7)])

        window[selectionInColumn: 1] = .thread(1)
        #expect(window.stack.count == 3, "the same selection keeps the columns after it")
        window[selectionInColumn: 0] = .folder("work")
        #expect(window.stack == [.folder("work")], "another selection clears the columns after it")
        window[selectionInColumn: 1] = .thread(2)
        window[selectionInColumn: 1] = nil
        #expect(window.stack == [.folder("work")])
        #expect(window.lastError == nil)

        #expect(await session.flush())
        let saved = try #require(try fixture.store().window(session: "app", window: "main"))
        #expect(saved.path == [stored(.folder("work"))], "persisted as the window's path")
    }

    @Test func theDetailPathCarriesThePushedItemWhenRegular() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("main", as: Mail.self)
        window.environmentChanged(sizeClass: .regular, isActive: true)
        window.navigate(to: [.folder("inbox"), .thread(1)], presenting: .compose(draft: 3))
        #expect(window[pathAfterColumns: 2] == [.compose(draft: 3)], "pushed onto the detail column")
        window[pathAfterColumns: 2] = []
        #expect(window.item == nil, "popping it in the detail column dismisses it")
        #expect(window.path == [.folder("inbox"), .thread(1)])
    }

    @Test func aColumnAfterAnEmptyOneCannotBeSelected() async throws {
        let session = WindowSession.inMemory()
        let window = session.window("main", as: Mail.self)
        window[selectionInColumn: 1] = .thread(1)
        #expect(window.stack == [])
        guard case .invalidEdit? = window.lastError else {
            Issue.record("named in lastError, not \(String(describing: window.lastError))")
            return
        }
        window.lastError = nil
        window[pathAfterColumns: 2] = [.message(1)]
        #expect(window.stack == [])
        #expect(window.lastError != nil)
        window.lastError = nil
        window[selectionInColumn: 1] = nil
        window[pathAfterColumns: 2] = []
        #expect(window.lastError == nil, "clearing what is not there is no mistake")
    }
}
