import StateStore
import Testing

struct ReplaceSessionTests {
    @Test func replacesTheWholeSessionInOneWrite() throws {
        let store = try WindowStore.inMemory()
        try store.save(WindowState(session: "s", window: "gone"))
        try store.save(WindowState(session: "s", window: "kept"))
        try store.save(WindowState(session: "other", window: "w"))
        let stored = try store.replaceSession(
            "s",
            with: [
                WindowState(session: "s", window: "kept", sizeClass: .regular),
                WindowState(session: "s", window: "new"),
            ])
        #expect(stored.map(\.revision) == [1, 1], "a new session: the old one is gone with its history")
        #expect(try store.windows(session: "s").map(\.window) == ["kept", "new"])
        #expect(try store.windows(session: "s").first?.sizeClass == .regular)
        #expect(try store.history(session: "s", window: "gone").isEmpty)
        #expect(try store.history(session: "s", window: "kept").count == 1)
        #expect(try store.windows(session: "other").count == 1)
    }

    @Test func anyBadWindowWritesNothing() throws {
        let store = try WindowStore.inMemory()
        try store.save(WindowState(session: "s", window: "w"))
        let before = try store.windows(session: "s")
        let cases: [[WindowState]] = [
            [WindowState(session: "s", window: "a"), WindowState(session: "t", window: "b")],
            [WindowState(session: "s", window: "a"), WindowState(session: "s", window: "a")],
            [WindowState(session: "s", window: "a", itemPath: [route("Orphan")])],
        ]
        for windows in cases {
            #expect(throws: StateStoreError.self) { try store.replaceSession("s", with: windows) }
        }
        #expect(try store.windows(session: "s") == before)
    }
}
