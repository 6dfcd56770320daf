import StateStore
import Testing

struct PruneTests {
    final class Clock: @unchecked Sendable {
        var now: Int64 = 1_000_000_000_000
    }

    @Test func prunesSessionsWhoseNewestWriteIsOld() throws {
        let clock = Clock()
        var options = WindowStore.Options()
        options.clock = { Timestamp(millisecondsSince1970: clock.now) }
        let store = try WindowStore.inMemory(options: options)
        try store.save(WindowState(session: "old", window: "a"))
        try store.save(WindowState(session: "old", window: "b"))
        try store.save(WindowState(session: "mixed", window: "old"))
        clock.now += 3_600_000  // an hour later
        try store.save(WindowState(session: "mixed", window: "new"))
        try store.save(WindowState(session: "fresh", window: "w"))
        clock.now += 60_000

        let dry = try store.prune(olderThan: .seconds(90), dryRun: true)
        #expect(dry.map(\.session) == ["old"])
        #expect(dry.first?.windows == ["a", "b"])
        #expect(try store.windowSummaries().count == 5, "a dry run removes nothing")

        let pruned = try store.prune(olderThan: .seconds(90))
        #expect(pruned == dry)
        #expect(try store.windowSummaries().map(\.session) == ["fresh", "mixed", "mixed"])
        #expect(try store.history(session: "old", window: "a").isEmpty)
        #expect(try store.prune(olderThan: .seconds(30)).map(\.session) == ["fresh", "mixed"])
        #expect(try store.prune(olderThan: .seconds(0)).isEmpty)
    }

    @Test func prunesOneSessionsOldWindowsButThoseKept() throws {
        let clock = Clock()
        var options = WindowStore.Options()
        options.clock = { Timestamp(millisecondsSince1970: clock.now) }
        let store = try WindowStore.inMemory(options: options)
        for window in ["b", "a", "kept", "e\u{301}"] { try store.save(WindowState(session: "s", window: window)) }
        try store.save(WindowState(session: "other", window: "a"))
        clock.now += 3_600_000
        try store.save(WindowState(session: "s", window: "new"))

        // "é" composed is another id than "e" + U+0301: keeping one spares only that one.
        let pruned = try store.pruneWindows(session: "s", olderThan: .seconds(60), keeping: ["kept", "\u{e9}"])
        #expect(pruned == ["a", "b", "e\u{301}"])
        #expect(try store.windows(session: "s").map(\.window) == ["kept", "new"])
        #expect(try store.history(session: "s", window: "a").isEmpty)
        #expect(try store.windows(session: "other").count == 1, "other sessions are not touched")
        #expect(throws: StateStoreError.self) { try store.pruneWindows(session: "", olderThan: .seconds(1)) }
        #expect(throws: StateStoreError.self) { try store.pruneWindows(session: "s", olderThan: .seconds(-1)) }
    }
}
