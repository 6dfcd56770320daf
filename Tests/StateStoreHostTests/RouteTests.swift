import Foundation
import StateStore
import StateStoreHost
import Testing

/// `RouteRepresentable`, a host's route type: what any `Codable & Hashable` type gets, `Route`'s
/// own conformance, renames, unstable names refused, and stored routes the app cannot decode.
@MainActor
struct RouteTests {
    struct Folder: Codable, Hashable, RouteRepresentable {
        var name: String
        var unread: Int
    }

    struct Renamed: Codable, Hashable, RouteRepresentable {
        var id: Int
        static var formerRouteTypes: [String] { ["OldApp.Thread"] }
    }

    @Test func aCodableTypeGetsItsNameAndSortedKeys() throws {
        let route = try Folder(name: "inbox", unread: 3).route()
        #expect(route.type == "StateStoreHostTests.RouteTests.Folder")
        #expect(route.type == String(reflecting: Folder.self), "as SwiftUI's NavigationPath writes it")
        #expect(route.json == #"{"name":"inbox","unread":3}"#, "keys sorted, minified")
        #expect(try Folder(route: route) == Folder(name: "inbox", unread: 3))
        #expect(try Folder(route: Route(type: route.type, json: #"{ "unread": 3, "name": "inbox" }"#)).unread == 3)
    }

    @Test func aRouteOfAnotherTypeOrValueIsRefused() throws {
        #expect(throws: RouteConversionError.self) { try Folder(route: Route(type: "Other", json: "{}")) }
        #expect(throws: RouteConversionError.self) {
            try Folder(route: Route(type: Folder.routeType, json: #"{"name":1}"#))
        }
    }

    @Test func formerNamesAreReadNeverWritten() throws {
        #expect(try Renamed(route: Route(type: "OldApp.Thread", json: #"{"id":4}"#)) == Renamed(id: 4))
        #expect(try Renamed(id: 4).route().type == String(reflecting: Renamed.self))
    }

    @Test func aLocalTypeIsRefusedWithAClearError() {
        struct Local: Codable, Hashable, RouteRepresentable { var x = 1 }
        #expect(throws: RouteConversionError.unstableTypeName(String(reflecting: Local.self))) { try Local().route() }
    }

    @Test func routesItselfHoldEveryType() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("mixed", as: Route.self)
        let a = try Route(type: "App.Folder", json: #""inbox""#)
        let b = try Route(type: "Other.Thing", json: "[1,2]")
        model.push(a)
        model.push(b)
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "mixed")?.path == [a, b])
    }

    /// Window `main` saved regular with `path` and `item`, and its model in a session opened on it.
    func openWindow(
        _ fixture: HostFixture, path: [Route], item: Route?
    ) async throws -> (WindowSession, WindowModel<Mail>) {
        try fixture.store().save(
            WindowState(session: "app", window: "main", sizeClass: .regular, path: path, item: item))
        let session = try await fixture.open()
        return (session, session.window("main", as: Mail.self))
    }

    /// The window shows `shown` alone, cut at `strange`, and ``WindowModel/lastError`` names it.
    func expectCut(
        at strange: Route, after shown: Mail, _ model: WindowModel<Mail>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(model.path == [shown], sourceLocation: sourceLocation)
        #expect(model.item == nil, "above the route that does not decode", sourceLocation: sourceLocation)
        #expect(model.stack == [shown], sourceLocation: sourceLocation)
        guard case .undecodableRoute(let named, _)? = model.lastError else {
            Issue.record(
                "lastError names the route, not \(String(describing: model.lastError))", sourceLocation: sourceLocation)
            return
        }
        #expect(named == strange, sourceLocation: sourceLocation)
    }

    @Test func anUndecodableRouteHidesWhatIsAboveItUntilAnEditReplacesIt() async throws {
        let fixture = HostFixture()
        let strange = try Route(type: "SomeOtherApp.Thing", json: "7")
        let (session, model) = try await openWindow(
            fixture, path: [stored(.folder("inbox")), strange, stored(.thread(1))], item: stored(.message(2)))
        expectCut(at: strange, after: .folder("inbox"), model)
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "main")?.path.count == 3, "it stays in the store")

        model.push(.folder("archive"))
        #expect(model.stack == [.folder("inbox"), .folder("archive")])
        #expect(await session.flush())
        let saved = try #require(try fixture.store().window(session: "app", window: "main"))
        #expect(saved.path == [stored(.folder("inbox")), stored(.folder("archive"))], "the edit replaced it")
        #expect(saved.item == nil)
    }

    /// An outside writer puts a route the app cannot decode where the model showed one it could:
    /// the window is cut there, as on a restore, with the route named.
    @Test func anUndecodableRouteAnotherWriterPutsUnderTheStackCutsItThere() async throws {
        let fixture = HostFixture()
        let strange = try Route(type: "SomeOtherApp.Thing", json: "7")
        let (session, model) = try await openWindow(
            fixture, path: [stored(.folder("inbox")), stored(.thread(1))], item: stored(.message(2)))
        defer { withExtendedLifetime(session) {} }
        model.environmentChanged(sizeClass: .regular, isActive: true)
        #expect(model.stack == [.folder("inbox"), .thread(1), .message(2)])

        try fixture.store().save(
            WindowState(
                session: "app", window: "main", sizeClass: .regular,
                path: [stored(.folder("inbox")), strange], item: stored(.message(2))))
        await waitUntil("the outside write adopted") { model.revision == 2 }
        expectCut(at: strange, after: .folder("inbox"), model)
    }

    /// A model forgets the decodings of routes no longer in its window once it has many; those
    /// still shown decode as before, and are found again when the app sets the same values.
    @Test func routesStillShownDecodeTheSameAfterTheModelForgetsOthers() async throws {
        let fixture = HostFixture()
        try fixture.store().save(
            WindowState(
                session: "app", window: "main", sizeClass: .regular,
                path: [stored(.folder("inbox")), stored(.thread(7))]))
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        for message in 0..<150 {
            model.push(.message(message))
            #expect(model.stack.last == .message(message))
            model.pop()
        }
        #expect(model.path == [.folder("inbox"), .thread(7)])
        #expect(model.stack == [.folder("inbox"), .thread(7)])

        model.stack = [.folder("inbox"), .thread(7), .message(500)]
        #expect(model.stack == [.folder("inbox"), .thread(7), .message(500)])
        #expect(await session.flush())
        let saved = try #require(try fixture.store().window(session: "app", window: "main"))
        #expect(saved.path == [stored(.folder("inbox")), stored(.thread(7)), stored(.message(500))])
        #expect(model.lastError == nil)
    }

    @Test func anElementTheAppDidNotChangeKeepsItsStoredText() async throws {
        let fixture = HostFixture()
        // Written by hand with another key order and spacing than JSONEncoder would give.
        let handWritten = try Route(type: Folder.routeType, json: #"{"unread":3,"name":"inbox"}"#)
        try fixture.store().save(WindowState(session: "app", window: "f", path: [handWritten]))
        let session = try await fixture.open()
        let model = session.window("f", as: Folder.self)
        model.stack = model.stack + [Folder(name: "sent", unread: 0)]
        #expect(await session.flush())
        let saved = try #require(try fixture.store().window(session: "app", window: "f"))
        #expect(saved.path.first == handWritten, "kept byte for byte")
        #expect(saved.path.last?.json == #"{"name":"sent","unread":0}"#)
    }

    @Test func timestampsAndDates() {
        let date = Date(timeIntervalSince1970: 1_764_571_514.123)
        #expect(Timestamp(date).description == "2025-12-01T06:45:14.123Z")
        #expect(abs(Timestamp(date).date.timeIntervalSince1970 - 1_764_571_514.123) < 0.001)
    }
}
