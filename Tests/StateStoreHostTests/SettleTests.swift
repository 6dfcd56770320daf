import StateStore
import StateStoreHost
import Testing

/// Size-class changes never lose or write anything until they settle: a change of mode is written
/// (and under `dismiss` the item cleared) only once it has held for `settle` while the window is
/// active. The clock is the test's own: it moves only when the test says, and nothing sleeps.
@MainActor
struct SettleTests {
    /// A window saved regular with a thread pushed over the inbox, under `policy`, and its model
    /// shown active in regular.
    func presentedWindow(
        _ policy: SizeChangePolicy, _ fixture: HostFixture, settle: Duration = .milliseconds(500)
    )
        async throws -> (WindowSession, WindowModel<Mail>)
    {
        try fixture.store().save(
            WindowState(
                session: "app", window: "w", sizeClass: .regular, path: [stored(.folder("inbox"))],
                item: stored(.thread(42)), itemPath: [stored(.message(1))], policy: policy))
        let session = try await fixture.open(options: fixture.options(settle: settle))
        let model = session.window("w", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        model.presentationReady()
        #expect(await session.flush())
        #expect(model.revision == 1)
        return (session, model)
    }

    func revisions(_ fixture: HostFixture) throws -> Int {
        try fixture.store().history(session: "app", window: "w").count
    }

    @Test(arguments: SizeChangePolicy.allCases)
    func aFlipShorterThanSettleShowsTheItemAgainAndWritesNothing(_ policy: SizeChangePolicy) async throws {
        let fixture = HostFixture()
        let (session, model) = try await presentedWindow(policy, fixture)

        model.environmentChanged(sizeClass: .compact, isActive: true)
        #expect(model.sizeClass == .compact, "the layout follows at once")
        if policy == .dismiss {
            #expect(model.item == nil, "a dismiss item is hidden while the change settles")
            #expect(model.sheet == nil)
        } else {
            #expect(model.sheet == nil, "one change both changed the stack and presented a sheet: it waits")
            model.presentationReady()
            #expect(model.sheet?.route == .thread(42), "migrate: the item moves to a sheet at once")
            #expect(model.sheetPath == [.message(1)])
        }
        fixture.clock.advance(by: .milliseconds(300))
        model.environmentChanged(sizeClass: .regular, isActive: true)
        fixture.clock.advance(by: .seconds(5))
        #expect(await session.flush())

        #expect(model.item == .thread(42), "the flip went back: the item is shown again")
        #expect(model.stack == [.folder("inbox"), .thread(42), .message(1)])
        #expect(try revisions(fixture) == 1, "no revision was written")
    }

    @Test(arguments: SizeChangePolicy.allCases)
    func aChangeThatHoldsForSettleIsCommittedOnce(_ policy: SizeChangePolicy) async throws {
        let fixture = HostFixture()
        let (session, model) = try await presentedWindow(policy, fixture)

        model.environmentChanged(sizeClass: .compact, isActive: true)
        fixture.clock.advance(by: .milliseconds(499))
        #expect(await session.flush())
        #expect(try revisions(fixture) == 1, "not settled yet")
        fixture.clock.advance(by: .milliseconds(1))
        #expect(await session.flush())

        #expect(try revisions(fixture) == 2, "one revision for the settled change")
        let saved = try #require(try fixture.store().window(session: "app", window: "w"))
        #expect(saved.sizeClass == .compact)
        switch policy {
        case .migrate:
            #expect(saved.item == stored(.thread(42)))
            model.presentationReady()
            #expect(model.sheet?.route == .thread(42))
        case .dismiss:
            #expect(saved.item == nil, "dismiss: the change of mode cleared the item")
            #expect(saved.itemPath == [])
            #expect(model.item == nil)
        }
        #expect(saved.path == [stored(.folder("inbox"))])
    }

    @Test(arguments: SizeChangePolicy.allCases)
    func flipsWhileInactiveAreOnlyRemembered(_ policy: SizeChangePolicy) async throws {
        let fixture = HostFixture()
        let (session, model) = try await presentedWindow(policy, fixture)

        // iPadOS snapshots the backgrounded window in the other class, then restores it.
        model.environmentChanged(sizeClass: .regular, isActive: false)
        model.environmentChanged(sizeClass: .compact, isActive: false)
        #expect(model.sizeClass == .regular, "nothing follows while inactive")
        fixture.clock.advance(by: .seconds(10))
        model.environmentChanged(sizeClass: .regular, isActive: false)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        fixture.clock.advance(by: .seconds(10))
        #expect(await session.flush())

        #expect(model.item == .thread(42))
        #expect(try revisions(fixture) == 1)
    }

    @Test func theLatestInactiveClassCountsOnBecomingActive() async throws {
        let fixture = HostFixture()
        let (session, model) = try await presentedWindow(.dismiss, fixture)
        model.environmentChanged(sizeClass: .compact, isActive: false)
        fixture.clock.advance(by: .seconds(10))
        model.environmentChanged(sizeClass: .compact, isActive: true)
        #expect(model.sizeClass == .compact)
        fixture.clock.advance(by: .milliseconds(500))
        #expect(await session.flush())
        #expect(try revisions(fixture) == 2)
        #expect(model.item == nil)
    }

    @Test func aChangeWithinOneModeWritesOnlyTheSizeClass() async throws {
        let fixture = HostFixture()
        try fixture.store().save(
            WindowState(
                session: "app", window: "w", sizeClass: .compact, path: [stored(.folder("inbox"))],
                item: stored(.thread(42)), policy: .dismiss))
        let session = try await fixture.open()
        let model = session.window("w", as: Mail.self)
        model.environmentChanged(sizeClass: .unspecified, isActive: true)
        #expect(model.item == .thread(42), "compact and unspecified are one mode: nothing hides")
        fixture.clock.advance(by: .milliseconds(500))
        #expect(await session.flush())
        let saved = try #require(try fixture.store().window(session: "app", window: "w"))
        #expect(saved.sizeClass == .unspecified)
        #expect(saved.item == stored(.thread(42)))
        #expect(saved.revision == 2)
    }

    @Test func restoringNeverWritesNorAppliesThePolicy() async throws {
        let fixture = HostFixture()
        try fixture.store().save(
            WindowState(
                session: "app", window: "w", sizeClass: .regular, path: [stored(.folder("inbox"))],
                item: stored(.thread(42)), policy: .dismiss))
        let session = try await fixture.open()
        let model = session.window("w", as: Mail.self)
        #expect(model.sizeClass == .regular, "laid out for the saved class")
        #expect(model.item == .thread(42))
        #expect(await session.flush())
        #expect(try revisions(fixture) == 1)

        // The first class the environment reports goes through the rule like any other.
        model.environmentChanged(sizeClass: .compact, isActive: true)
        #expect(model.item == nil)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        fixture.clock.advance(by: .seconds(1))
        #expect(await session.flush())
        #expect(model.item == .thread(42))
        #expect(try revisions(fixture) == 1)
    }

    @Test func anOutsidePresentDuringAPendingSettleCancelsIt() async throws {
        let fixture = HostFixture()
        let (session, model) = try await presentedWindow(.dismiss, fixture)
        model.environmentChanged(sizeClass: .compact, isActive: true)
        let result = try fixture.statectl(["set", "app", "w", "--present", stored(.compose(draft: 7)).description])
        #expect(result.status == 0, "\(result.stderr)")
        await waitUntil("the outside present") { model.revision == 2 }
        #expect(model.item == .compose(draft: 7), "the outside item is shown in the class the window has")
        #expect(model.sheet?.route == .compose(draft: 7))
        fixture.clock.advance(by: .seconds(5))
        #expect(await session.flush())
        #expect(try revisions(fixture) == 2, "the cancelled settle writes nothing")
        #expect(model.item == .compose(draft: 7), "and clears nothing")
    }

    @Test func anEchoWriteWhileADismissItemIsHiddenKeepsIt() async throws {
        // A local edit is written while the item is hidden by a pending change: the write carries
        // the item, and the flip back shows it.
        let fixture = HostFixture()
        let (session, model) = try await presentedWindow(.dismiss, fixture)
        model.environmentChanged(sizeClass: .compact, isActive: true)
        #expect(model.item == nil)
        model.push(.folder("archive"))  // onto the window's path: the item is hidden
        #expect(await session.flush())
        let written = try #require(try fixture.store().window(session: "app", window: "w"))
        #expect(written.path == [stored(.folder("inbox")), stored(.folder("archive"))])
        #expect(written.item == stored(.thread(42)), "hidden, not gone")
        model.environmentChanged(sizeClass: .regular, isActive: true)
        fixture.clock.advance(by: .seconds(1))
        #expect(await session.flush())
        #expect(model.item == .thread(42))
        #expect(model.stack == [.folder("inbox"), .folder("archive"), .thread(42), .message(1)])
        #expect(try revisions(fixture) == 2, "only the push was written")
    }

    @Test func afterSettleTheLayoutWaitsToo() async throws {
        let fixture = HostFixture()
        try fixture.store().save(
            WindowState(session: "app", window: "w", sizeClass: .regular, item: stored(.thread(1)), policy: .migrate))
        let session = try await fixture.open(options: fixture.options(layoutFollows: .afterSettle))
        let model = session.window("w", as: Mail.self)
        model.environmentChanged(sizeClass: .compact, isActive: true)
        #expect(model.sizeClass == .regular)
        #expect(model.stack == [.thread(1)])
        fixture.clock.advance(by: .milliseconds(500))
        #expect(await session.flush())
        #expect(model.sizeClass == .compact)
        #expect(model.stack == [])
    }

    @Test func theSettleTimerFiresWithoutAFlush() async throws {
        let fixture = HostFixture()
        let (session, model) = try await presentedWindow(.dismiss, fixture)
        model.environmentChanged(sizeClass: .compact, isActive: true)
        fixture.clock.advance(by: .milliseconds(500))
        defer { withExtendedLifetime(session) {} }
        await waitUntil("the settled change written") { model.revision == 2 }
        #expect(model.item == nil)
    }

    /// Verbs made while a change is pending leave its deadline where it is, so they keep its one
    /// timer: each new one was a task, and a thread woken for it, on every verb.
    @Test func verbsWhileAChangeSettlesKeepItsOneTimer() async throws {
        let fixture = HostFixture()
        let (session, model) = try await presentedWindow(.migrate, fixture)
        defer { withExtendedLifetime(session) {} }
        model.environmentChanged(sizeClass: .compact, isActive: true)
        for message in 2...6 { model.push(.message(message)) }
        model.pop()
        #expect(await session.flush())
        let revision = model.revision

        fixture.clock.advance(by: .milliseconds(500))
        await waitUntil("the settled change written") { model.revision == revision + 1 }
        // The window becoming active armed the focus record's timer too (recorded within `settle`).
        #expect(fixture.clock.sleepsStarted == 2, "one timer for the one deadline, and the focus record's")
        let saved = try #require(try fixture.store().window(session: "app", window: "w"))
        #expect(saved.sizeClass == .compact)
        #expect(saved.itemPath == (1...5).map { stored(.message($0)) })
    }
}
