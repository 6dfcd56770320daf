import StateStore
import StateStoreHost
import Testing

/// `policy`, set: the window's policy as a verb the user makes, recorded and written like the
/// others, and what it changes for a presented item whose size class is settling.
@MainActor
struct PolicyTests {
    @Test func setPolicyIsWrittenAsOneRevisionAndAnEqualOneWritesNothing() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("w", as: Mail.self)
        model.push(.folder("inbox"))
        #expect(await session.flush())
        #expect(model.policy == .migrate)

        model.policy = .dismiss
        #expect(model.policy == .dismiss, "the model changes at once")
        #expect(await session.flush())
        let saved = try #require(try fixture.store().window(session: "app", window: "w"))
        #expect(saved.policy == .dismiss)
        #expect(saved.revision == 2)
        #expect(saved.path == [stored(.folder("inbox"))], "nothing else changed")

        model.policy = .dismiss
        #expect(await session.flush())
        #expect(try fixture.store().history(session: "app", window: "w").count == 2, "an equal policy records nothing")
    }

    @Test func anOutsideWriteKeepsAPolicyNotYetWritten() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("w", as: Mail.self)
        model.push(.folder("inbox"))
        #expect(await session.flush())
        session.pauseObserving()
        let outside = try fixture.statectl(["set", "app", "w", "--push", stored(.thread(3)).description])
        #expect(outside.status == 0, "\(outside.stderr)")
        model.policy = .dismiss  // written over revision 1: a conflict, rebased on the outside write
        #expect(await session.flush())
        let saved = try #require(try fixture.store().window(session: "app", window: "w"))
        #expect(saved.policy == .dismiss)
        #expect(saved.path == [stored(.folder("inbox")), stored(.thread(3))], "the outside push is kept")
        #expect(saved.revision == 3)
    }

    @Test func switchingToMigrateWhileADismissItemIsHiddenShowsItAndKeepsIt() async throws {
        let fixture = HostFixture()
        try fixture.store().save(
            WindowState(
                session: "app", window: "w", sizeClass: .regular, item: stored(.thread(42)),
                itemPath: [stored(.message(1))], policy: .dismiss))
        let session = try await fixture.open()
        let model = session.window("w", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        model.environmentChanged(sizeClass: .compact, isActive: true)
        #expect(model.item == nil, "dismiss: hidden while the change settles")

        model.policy = .migrate
        #expect(model.item == .thread(42), "migrate: the item shows again")
        fixture.clock.advance(by: .seconds(1))
        #expect(await session.flush())
        model.presentationReady()
        #expect(model.sheet?.route == .thread(42), "and moves to a sheet once the change settles")
        #expect(model.sheetPath == [.message(1)])
        let saved = try #require(try fixture.store().window(session: "app", window: "w"))
        #expect(saved.policy == .migrate)
        #expect(saved.item == stored(.thread(42)))
        #expect(saved.sizeClass == .compact)
    }

    @Test func switchingToDismissWhileAChangeOfModeSettlesClearsTheItemWhenItSettles() async throws {
        let fixture = HostFixture()
        try fixture.store().save(
            WindowState(session: "app", window: "w", sizeClass: .regular, item: stored(.thread(42)), policy: .migrate))
        let session = try await fixture.open()
        let model = session.window("w", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        model.environmentChanged(sizeClass: .compact, isActive: true)
        model.policy = .dismiss
        #expect(model.item == nil, "hidden at once, as a dismiss item is while a change of mode settles")
        fixture.clock.advance(by: .seconds(1))
        #expect(await session.flush())
        let saved = try #require(try fixture.store().window(session: "app", window: "w"))
        #expect(saved.item == nil)
        #expect(saved.policy == .dismiss)
    }
}
