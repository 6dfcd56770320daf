import Foundation
import StateStore
import Testing

struct StorageTests {
    @Test func newWindowStartsAtRevisionOne() throws {
        let store = try WindowStore.inMemory()
        #expect(try store.window(session: "s", window: "w") == nil)
        let saved = try store.save(WindowState(session: "s", window: "w", sizeClass: .regular, path: [route("A")]))
        #expect(saved.revision == 1)
        #expect(try store.window(session: "s", window: "w") == saved)
        let second = try store.save(saved)
        #expect(second.revision == 2)
    }

    @Test func roundTripsUnicodeIdsAndValuesAsWritten() throws {
        let folder = TemporaryFolder()
        let path = folder.file("store.db")
        let state = WindowState(
            session: "séance 🪟", window: "'; DROP TABLE windows; --", sizeClass: .compact,
            path: [route("Mail.Folder", #""Entrée \u00e9""#), route("Null"), route("Num", "1.50e+3")],
            item: route("Mail.Thread", #"{"z":1,"a":[true,null],"z":2}"#), itemPath: [route("Deep", #"{"emoji":"😀"}"#)],
            policy: .dismiss)
        let saved: WindowState
        do {
            let store = try WindowStore(path: path)
            saved = try store.save(state)
        }
        // A second instance, as another process would, reads it back exactly.
        let reopened = try WindowStore(path: path)
        let read = try #require(try reopened.window(session: state.session, window: state.window))
        #expect(read == saved)
        #expect(read.path[0].json == #""Entrée \u00e9""#)
        #expect(read.path[1].json == "null")
        #expect(read.item?.json == #"{"z":1,"a":[true,null],"z":2}"#)
    }

    @Test func routeLimitAtAndOverTheLimit() throws {
        let store = try WindowStore.inMemory()
        let atLimit = WindowState(
            session: "s", window: "w", path: Array(repeating: route("P", #"{"n":1}"#), count: 512))
        #expect(try store.save(atLimit).path.count == 512)
        var over = atLimit
        over.push(route("Q"))
        #expect(throws: StateStoreError.self) { try store.save(over) }
        #expect(try store.window(session: "s", window: "w")?.revision == 1, "nothing written")
        #expect(throws: StateStoreError.self) {
            try store.update(session: "s", window: "w") { $0.push(route("Q")) }
        }
        #expect(try store.window(session: "s", window: "w")?.revision == 1)
    }

    @Test func bigValuesAtTheirLimit() throws {
        let store = try WindowStore.inMemory()
        let big = try Route(
            type: "T", json: "\"" + String(repeating: "é", count: (Limits.routeValueBytes - 2) / 2) + "\"")
        let state = WindowState(session: "s", window: "w", path: Array(repeating: big, count: 15))
        #expect(try store.save(state).path == state.path)
        #expect(try store.window(session: "s", window: "w")?.path == state.path)
    }

    @Test func updateIsReadModifyWriteWithExpectedRevision() throws {
        let store = try WindowStore.inMemory()
        // Revision 0: create only if missing.
        let created = try store.update(session: "s", window: "w", expectedRevision: 0) { $0.push(route("A")) }
        #expect(created.revision == 1)
        #expect(throws: StateStoreError.conflict(session: "s", window: "w", expected: 0, actual: 1)) {
            try store.update(session: "s", window: "w", expectedRevision: 0) { $0.push(route("B")) }
        }
        let updated = try store.update(session: "s", window: "w", expectedRevision: 1) {
            state throws(StateStoreError) in
            state.present(route("Item"))
            try state.pop(1)
            state.sizeClass = .regular
        }
        #expect(updated.revision == 2)
        #expect(updated.item == nil)
        #expect(updated.path == [route("A")])
        // A throw from the body writes nothing.
        #expect(throws: StateStoreError.self) {
            try store.update(session: "s", window: "w") { state throws(StateStoreError) in
                state.push(route("X"))
                try state.pop(5)
            }
        }
        #expect(try store.window(session: "s", window: "w") == updated)
        // Renaming through update is refused.
        #expect(throws: StateStoreError.self) {
            try store.update(session: "s", window: "w") { $0.window = "other" }
        }
    }

    @Test func saveWithExpectedRevision() throws {
        let store = try WindowStore.inMemory()
        let state = WindowState(session: "s", window: "w")
        try store.save(state, expectedRevision: 0)
        #expect(throws: StateStoreError.self) { try store.save(state, expectedRevision: 0) }
        #expect(throws: StateStoreError.self) { try store.save(state, expectedRevision: 5) }
        #expect(try store.save(state, expectedRevision: 1).revision == 2)
    }

    @Test func restoreIsReadOnlyAndAppliesThePolicy() throws {
        let store = try WindowStore.inMemory()
        let saved = try store.save(
            WindowState(
                session: "s", window: "w", sizeClass: .regular, path: [route("A")], item: route("I"),
                itemPath: [route("B")], policy: .dismiss))
        let same = try #require(try store.restore(session: "s", window: "w"))
        #expect(same.layout.presentation == .push)
        #expect(same.layout.stack == [route("A"), route("I"), route("B")])
        let compact = try #require(try store.restore(session: "s", window: "w", into: .compact))
        #expect(compact.layout.presentation == .none, "dismiss policy: the mode changed")
        #expect(compact.saved == saved)
        #expect(try store.window(session: "s", window: "w") == saved, "restore wrote nothing")
        #expect(try store.restore(session: "s", window: "missing") == nil)
        #expect(try store.restore(session: "s").count == 1)
    }

    @Test func listStreamsInUTF8ByteOrderWithFilters() throws {
        let store = try WindowStore.inMemory()
        let ids = ["é", "Z", "a", "aa", "A", "😀", "b"]
        for (index, session) in ids.enumerated() {
            for window in ["2", "10", "1"] {
                try store.save(
                    WindowState(
                        session: session, window: window, sizeClass: index % 2 == 0 ? .compact : .regular,
                        path: Array(repeating: route("P"), count: index), item: window == "1" ? route("I", "[1]") : nil)
                )
            }
        }
        let all = try store.windowSummaries()
        let byteOrder = all.map { [$0.session, $0.window] }.sorted { a, b in
            a.joined(separator: "\u{0}").utf8.lexicographicallyPrecedes(b.joined(separator: "\u{0}").utf8)
        }
        #expect(all.map { [$0.session, $0.window] } == byteOrder)
        #expect(all.first?.session == "A")
        #expect(all.last?.session == "😀")
        let a = try store.windowSummaries(session: "aa")
        #expect(a.map(\.window) == ["1", "10", "2"])
        #expect(a.allSatisfy { $0.depth == 3 })
        #expect(a.first?.item == route("I", "[1]"))
        #expect(a.last?.item == nil)
        let regular = try store.windowSummaries(sizeClass: .regular)
        #expect(Set(regular.map(\.session)) == ["Z", "aa", "😀"])
        #expect(try store.windowSummaries(session: "Z", sizeClass: .compact).isEmpty)
        #expect(try store.windowSummaries(session: "unknown").isEmpty)
    }

    @Test func historyKeepsTheLastRevisionsAndReverts() throws {
        var options = WindowStore.Options()
        options.historyLimit = 5
        let store = try WindowStore.inMemory(options: options)
        for n in 1...8 {
            try store.update(session: "s", window: "w") { $0.present(route("N", String(n))) }
        }
        let history = try store.history(session: "s", window: "w")
        #expect(history.map(\.revision) == [8, 7, 6, 5, 4])
        #expect(history.map { $0.item?.json } == ["8", "7", "6", "5", "4"])
        #expect(try store.history(session: "s", window: "w", limit: 2).map(\.revision) == [8, 7])
        #expect(throws: StateStoreError.self) { try store.revert(session: "s", window: "w", to: 3) }
        let reverted = try store.revert(session: "s", window: "w", to: 5)
        #expect(reverted.revision == 9)
        #expect(reverted.item?.json == "5")
        #expect(try store.history(session: "s", window: "w").first == reverted)
        #expect(throws: StateStoreError.self) { try store.revert(session: "s", window: "nope", to: 1) }
        #expect(throws: StateStoreError.self) {
            try store.revert(session: "s", window: "w", to: 5, expectedRevision: 1)
        }
    }

    @Test func defaultHistoryIsAHundred() throws {
        let store = try WindowStore.inMemory()
        for _ in 1...105 { try store.update(session: "s", window: "w") { $0.sizeClass = .compact } }
        let history = try store.history(session: "s", window: "w")
        #expect(history.count == 100)
        #expect(history.first?.revision == 105)
        #expect(history.last?.revision == 6)
    }

    @Test func deleteRemovesHistoryAndRestartsAtOne() throws {
        let store = try WindowStore.inMemory()
        for window in ["w1", "w2"] {
            try store.save(WindowState(session: "s", window: window))
            try store.save(WindowState(session: "s", window: window))
        }
        try store.save(WindowState(session: "other", window: "w1"))
        #expect(try store.deleteWindow(session: "s", window: "w1"))
        #expect(try !store.deleteWindow(session: "s", window: "w1"))
        #expect(try store.history(session: "s", window: "w1").isEmpty)
        #expect(try store.save(WindowState(session: "s", window: "w1")).revision == 1)
        #expect(try store.deleteSession("s") == ["w1", "w2"])
        #expect(try store.deleteSession("s") == [])
        #expect(try store.windowSummaries().map(\.session) == ["other"])
    }

    @Test func badIdsAreRefusedEverywhere() throws {
        let store = try WindowStore.inMemory()
        let bad = "a\u{7}b"
        #expect(throws: StateStoreError.self) { try store.window(session: bad, window: "w") }
        #expect(throws: StateStoreError.self) { try store.windows(session: "") }
        #expect(throws: StateStoreError.self) { try store.save(WindowState(session: bad, window: "w")) }
        #expect(throws: StateStoreError.self) { try store.update(session: "s", window: bad) { _ in } }
        #expect(throws: StateStoreError.self) { try store.deleteSession(bad) }
        #expect(throws: StateStoreError.self) { try store.history(session: "s", window: bad) }
        #expect(throws: StateStoreError.self) { try store.windowSummaries(session: bad) }
        #expect(try store.windowSummaries().isEmpty)
    }

    @Test func clockStampsWrites() throws {
        var options = WindowStore.Options()
        options.clock = { Timestamp(millisecondsSince1970: 1_796_017_514_123) }
        let store = try WindowStore.inMemory(options: options)
        let saved = try store.save(WindowState(session: "s", window: "w"))
        #expect(saved.updatedAt.description == "2026-11-30T05:45:14.123Z")
        #expect(try store.windowSummaries().first?.updatedAt == saved.updatedAt)
    }
}
