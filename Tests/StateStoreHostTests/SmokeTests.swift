import StateStore
import StateStoreHost
import Testing

@MainActor
struct SmokeTests {
    @Test func aWindowIsWrittenAndRestored() async throws {
        let fixture = HostFixture()
        do {
            let session = try await fixture.open()
            let window = session.window("main", as: Mail.self)
            window.environmentChanged(sizeClass: .regular, isActive: true)
            window.push(.folder("inbox"))
            window.present(.thread(42))
            #expect(window.stack == [.folder("inbox"), .thread(42)])
            #expect(await session.flush())
            #expect(window.revision == 2, "the push went at once; the present followed it")
        }
        let again = try await fixture.open()
        let window = again.window("main", as: Mail.self)
        #expect(window.path == [.folder("inbox")])
        #expect(window.item == .thread(42))
        #expect(window.sizeClass == .unspecified)
    }

    @Test func anOutsideSetIsAdopted() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("main", as: Mail.self)
        window.environmentChanged(sizeClass: .regular, isActive: true)
        window.push(.folder("inbox"))
        #expect(await session.flush())
        let result = try fixture.statectl(["set", "app", "main", "--present", stored(.thread(7)).description])
        #expect(result.status == 0, "\(result.stderr)")
        await waitUntil("the outside present") { window.item != nil }
        #expect(window.revision == 2)
    }
}
