import StateStore
import Testing

/// The calls that take a closure pass an error of the caller's own through unchanged, and write
/// nothing for it; the store's own failures stay ``StateStoreError``.
struct HostClosureTests {
    struct HostError: Error, Equatable {
        let reason: String
    }

    @Test func anErrorThrownFromUpdateReachesTheCallerUnchangedAndNothingIsWritten() throws {
        let store = try WindowStore.inMemory()
        try store.save(WindowState(session: "s", window: "w", path: [route("A")]))
        #expect(throws: HostError(reason: "no network")) {
            try store.update(session: "s", window: "w") { state in
                state.push(route("B"))
                throw HostError(reason: "no network")
            }
        }
        let state = try #require(try store.window(session: "s", window: "w"))
        #expect(state.revision == 1 && state.path == [route("A")], "nothing written")
        #expect(try store.update(session: "s", window: "w") { $0.push(route("C")) }.revision == 2, "the store goes on")
    }

    @Test func aStoreErrorThrownFromUpdateComesOutAsItself() throws {
        let store = try WindowStore.inMemory()
        #expect(throws: StateStoreError.invalidInput("pop needs a count of at least 1, not 0")) {
            try store.update(session: "s", window: "w") { try $0.pop(0) }
        }
        #expect(try store.window(session: "s", window: "w") == nil)
    }

    @Test func theStoresOwnFailuresAroundAClosureAreStateStoreErrors() throws {
        let store = try WindowStore.inMemory()
        try store.save(WindowState(session: "s", window: "w"))
        #expect(throws: StateStoreError.conflict(session: "s", window: "w", expected: 5, actual: 1)) {
            try store.update(session: "s", window: "w", expectedRevision: 5) { _ in
                Issue.record("the body does not run on a conflict")
            }
        }
        #expect(throws: StateStoreError.notFound(.session("nope"))) {
            try store.export(sessions: ["nope"]) { _ in }
        }
    }

    @Test func anErrorThrownFromForEachWindowStopsTheListing() throws {
        let store = try WindowStore.inMemory()
        for window in ["a", "b", "c"] { try store.save(WindowState(session: "s", window: window)) }
        var seen: [String] = []
        #expect(throws: HostError(reason: "enough")) {
            try store.forEachWindow { summary in
                seen.append(summary.window)
                if seen.count == 2 { throw HostError(reason: "enough") }
            }
        }
        #expect(seen == ["a", "b"])
        #expect(try store.windowSummaries().count == 3, "the store goes on")
    }

    @Test func anErrorThrownFromExportsOutputStopsTheExport() throws {
        let store = try WindowStore.inMemory()
        try store.save(WindowState(session: "s", window: "w"))
        var chunks = 0
        #expect(throws: HostError(reason: "disk full")) {
            try store.export { _ in
                chunks += 1
                throw HostError(reason: "disk full")
            }
        }
        #expect(chunks == 1)
        var bytes: [UInt8] = []
        try store.export { bytes += $0 }
        #expect(try StateDocument(utf8: bytes).windows.map(\.window) == ["w"])
    }
}
