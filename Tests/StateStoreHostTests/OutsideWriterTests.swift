import Foundation
import StateStore
import StateStoreHost
import Testing

/// Other writers win, and nothing local is lost silently. A real second process (`statectl`)
/// changes a window while its model is live; the model shows it, observed with
/// `withObservationTracking`, never by polling the property.
@MainActor
struct OutsideWriterTests {
    @Test func anOutsideSetDeleteAndImportAreShown() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        model.push(.folder("inbox"))
        #expect(await session.flush())

        let set = try fixture.statectl(["set", "app", "main", "--present", stored(.thread(3)).description])
        #expect(set.status == 0, "\(set.stderr)")
        await waitUntil("the set") { model.item == .thread(3) }
        #expect(model.stack == [.folder("inbox"), .thread(3)])
        #expect(model.revision == 2)

        let delete = try fixture.statectl(["delete", "app", "main"])
        #expect(delete.status == 0, "\(delete.stderr)")
        await waitUntil("the deletion") { model.revision == 0 }
        #expect(model.stack == [])
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "main") == nil, "not written again by itself")

        let document = """
            {"format":"statectl/1","windows":[{"session":"app","window":"main","sizeClass":"regular",
            "path":[\(jsonObject(stored(.folder("sent"))))],"item":null}]}
            """
        let imported = try fixture.statectl(["import", "-"], stdin: document)
        #expect(imported.status == 0, "\(imported.stderr)")
        await waitUntil("the import") { model.path == [.folder("sent")] }
        #expect(model.revision == 1, "a deleted window written again starts at 1")

        model.push(.thread(9))
        #expect(await session.flush())
        let saved = try #require(try fixture.store().window(session: "app", window: "main"))
        #expect(saved.path == [stored(.folder("sent")), stored(.thread(9))])
        #expect(saved.revision == 2)
    }

    @Test func theModelsOwnWritesAreNeverAdoptedBack() async throws {
        // Fast pushes, each written while the next is made, with the feed polling all along: an
        // own write taken for another writer's would replay the pushes after it twice.
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)  // observed while active
        var expected: [Mail] = []
        for n in 0..<60 {
            model.push(.message(n))
            expected.append(.message(n))
            if n % 7 == 0 { #expect(await session.flush()) }  // a write committed while the next ones wait
        }
        #expect(await session.flush())
        // A marker written by another process: once the model shows it, the feed has read every
        // commit before it.
        let marker = try fixture.statectl(["set", "app", "main", "--policy", "dismiss"])
        #expect(marker.status == 0, "\(marker.stderr)")
        await waitUntil("the marker") { model.policy == .dismiss }
        #expect(model.path == expected)
        #expect(model.lastError == nil)
        let saved = try #require(try fixture.store().window(session: "app", window: "main"))
        #expect(saved.path == expected.map(stored))
        #expect(saved.revision == model.revision)
    }

    @Test func anOwnWriteTheFeedReportsBeforeTheWriterReturnsIsNotAdopted() async throws {
        // The writer's background activity holds its call for a while after the commit, so the feed
        // reads the commit first.
        let fixture = HostFixture()
        var options = fixture.options()
        options.activity = BackgroundActivity { _ in
            { Thread.sleep(forTimeInterval: 0.15) }
        }
        let session = try await fixture.open(options: options)
        let model = session.window("main", as: Mail.self)
        model.push(.folder("inbox"))
        model.push(.thread(1))
        model.push(.message(2))
        #expect(await session.flush())
        #expect(model.path == [.folder("inbox"), .thread(1), .message(2)])
        #expect(model.lastError == nil)
        #expect(try fixture.store().window(session: "app", window: "main")?.path.count == 3)
    }

    @Test func noRevisionIsLostBetweenLocalEditsAndOutsideWrites() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.push(.folder("inbox"))
        #expect(await session.flush())
        for round in 0..<5 {
            let outside = try fixture.statectl([
                "set", "app", "main", "--policy", round.isMultiple(of: 2) ? "dismiss" : "migrate",
            ])
            #expect(outside.status == 0, "\(outside.stderr)")
            model.push(.message(round))
            #expect(await session.flush())
        }
        await waitUntil("the last outside policy") { model.policy == .dismiss }
        #expect(model.path == [.folder("inbox")] + (0..<5).map { Mail.message($0) })
        let history = try fixture.store().history(session: "app", window: "main")
        #expect(history.first?.revision == history.count, "revisions without a hole")
        #expect(history.first?.path.count == 6)
    }

    @Test func aConflictKeepsBothSidesInOrder() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        model.push(.folder("inbox"))
        #expect(await session.flush())

        session.pauseObserving()  // the outside write reaches the model only through the conflict
        let outside = try fixture.statectl(["set", "app", "main", "--present", stored(.thread(5)).description])
        #expect(outside.status == 0, "\(outside.stderr)")
        model.push(.folder("archive"))  // written on revision 1: a conflict with revision 2
        #expect(await session.flush())

        #expect(model.path == [.folder("inbox"), .folder("archive")], "the local push, re-applied")
        #expect(model.item == .thread(5), "the other writer's item")
        let saved = try #require(try fixture.store().window(session: "app", window: "main"))
        #expect(saved.revision == 3)
        #expect(saved.path == [stored(.folder("inbox")), stored(.folder("archive"))])
        #expect(saved.item == stored(.thread(5)))
        session.resumeObserving()
    }

    @Test func anEditThatNoLongerAppliesIsDroppedAndNamed() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        model.present(.thread(5))
        #expect(await session.flush())

        session.pauseObserving()
        let outside = try fixture.statectl(["set", "app", "main", "--dismiss"])
        #expect(outside.status == 0, "\(outside.stderr)")
        model.push(.message(1))  // above the item the other writer dismissed
        #expect(await session.flush())

        #expect(model.item == nil)
        #expect(model.itemPath == [])
        guard case .editsDropped(let dropped)? = model.lastError else {
            Issue.record("the dropped edit is named, not \(String(describing: model.lastError))")
            return
        }
        #expect(dropped.count == 1)
        #expect(dropped.first?.contains("Message") == true || dropped.first?.contains("message") == true)
        #expect(try fixture.store().window(session: "app", window: "main")?.revision == 2, "nothing left to write")
    }

    @Test func anOutsideWriteKeepsTheClassTheWindowReallyHas() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .compact, isActive: true)
        fixture.clock.advance(by: .seconds(1))
        model.present(.thread(1))
        #expect(await session.flush())
        let outside = try fixture.statectl([
            "set", "app", "main", "--size-class", "regular", "--push", stored(.message(2)).description,
        ])
        #expect(outside.status == 0, "\(outside.stderr)")
        await waitUntil("the outside push") { model.itemPath == [.message(2)] }
        #expect(model.sizeClass == .compact, "the live window lays out for the class it has")
        #expect(model.sheet?.route == .thread(1))
        #expect(try fixture.store().window(session: "app", window: "main")?.sizeClass == .regular, "stored as written")
    }

    private func jsonObject(_ route: Route) -> String {
        #"{"type":"\#(route.type)","value":\#(route.json)}"#
    }
}
