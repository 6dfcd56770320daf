import StateStore
import StateStoreHost
import Testing

/// The sheet's identity and timing as SwiftUI needs them: one id per presentation, kept while the
/// same item stays presented; a late `nil` for an old presentation dismisses nothing; a sheet
/// presented by the change that also changed the window's stack waits for `presentationReady()`.
@MainActor
struct PresentationTests {
    @Test func anIdPerPresentationKeptWhileTheItemStays() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open(options: fixture.options(settle: .zero))
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .compact, isActive: true)
        model.present(.thread(1))
        let first = try #require(model.sheet)
        model.sheetPath = [.message(2)]
        #expect(model.sheet?.id == first.id, "an edit above the item keeps the presentation")

        model.environmentChanged(sizeClass: .regular, isActive: true)
        #expect(model.sheet == nil)
        #expect(model.stack == [.thread(1), .message(2)], "migrated: pushed")
        model.environmentChanged(sizeClass: .compact, isActive: true)
        model.presentationReady()
        #expect(model.sheet?.id == first.id, "the same item, migrated back and forth: the same presentation")

        model.present(.thread(3))
        let second = try #require(model.sheet)
        #expect(second.id != first.id)
        model.dismiss()
        model.present(.thread(3))
        #expect(model.sheet?.id != second.id, "presented again after a dismissal: a new presentation")
    }

    @Test func aLateNilForAnOldPresentationDismissesNothing() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .compact, isActive: true)
        model.present(.thread(1))
        _ = model.sheet  // the view shows the first presentation
        #expect(await session.flush())

        let outside = try fixture.statectl(["set", "app", "main", "--present", stored(.compose(draft: 2)).description])
        #expect(outside.status == 0, "\(outside.stderr)")
        await waitUntil("the outside present") { model.item == .compose(draft: 2) }

        model.sheet = nil  // SwiftUI's dismissal of the sheet it showed before, arriving late
        #expect(model.item == .compose(draft: 2), "the current presentation stays")
        #expect(model.sheet?.route == .compose(draft: 2))

        model.sheet = nil  // now the user dismisses the sheet they see
        #expect(model.item == nil)
    }

    @Test func aRestoredSheetOverARestoredStackWaitsForTheStack() async throws {
        let fixture = HostFixture()
        try fixture.store().save(
            WindowState(
                session: "app", window: "main", sizeClass: .compact, path: [stored(.folder("inbox"))],
                item: stored(.thread(1))))
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        #expect(model.stack == [.folder("inbox")])
        #expect(model.sheet == nil, "SwiftUI presents at most one step per update")
        model.presentationReady()
        #expect(model.sheet?.route == .thread(1))
        #expect(model.layout.presentation == .sheet)
    }

    @Test func aSheetAloneShowsAtOnce() async throws {
        let fixture = HostFixture()
        try fixture.store().save(
            WindowState(session: "app", window: "main", sizeClass: .compact, item: stored(.thread(1))))
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        #expect(model.sheet?.route == .thread(1), "the stack did not change: nothing to wait for")
        model.push(.message(1))
        #expect(model.sheetPath == [.message(1)])
    }

    @Test func anOutsideWriteThatChangesTheStackAndPresentsWaitsToo() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .unspecified, isActive: true)
        model.push(.folder("inbox"))
        #expect(await session.flush())
        let outside = try fixture.statectl([
            "set", "app", "main", "--push", stored(.folder("sent")).description, "--present",
            stored(.thread(4)).description,
        ])
        #expect(outside.status == 0, "\(outside.stderr)")
        await waitUntil("the outside write") { model.item == .thread(4) }
        #expect(model.stack == [.folder("inbox"), .folder("sent")])
        #expect(model.sheet == nil)
        model.presentationReady()
        #expect(model.sheet?.route == .thread(4))
    }
}
