import Foundation
import StateStore
import Testing

struct WindowStateTests {
    @Test(
        "ids: 1–256 bytes, no control characters",
        arguments: ["", String(repeating: "x", count: 257), "a\nb", "\u{0}", "\u{9F}"])
    func refusesBadIds(_ id: String) {
        #expect(throws: StateStoreError.self) { try WindowState(session: id, window: "w").validate() }
        #expect(throws: StateStoreError.self) { try WindowState(session: "s", window: id).validate() }
    }

    @Test func acceptsUnicodeAndSQLMetacharactersInIds() throws {
        for id in ["x", "🪟 main", "'; DROP TABLE windows; --", String(repeating: "ü", count: 128), "a\u{A0}b"] {
            try WindowState(session: id, window: id).validate()
        }
    }

    @Test func itemPathNeedsAnItem() {
        let state = WindowState(session: "s", window: "w", itemPath: [route("A")])
        #expect(throws: StateStoreError.self) { try state.validate() }
    }

    @Test func routeCountLimit() throws {
        let atLimit = WindowState(
            session: "s", window: "w", path: Array(repeating: route("P"), count: 500), item: route("I"),
            itemPath: Array(repeating: route("Q"), count: 11))
        #expect(atLimit.routeCount == Limits.routesPerWindow)
        try atLimit.validate()
        var over = atLimit
        over.push(route("One more"))
        #expect(throws: StateStoreError.self) { try over.validate() }
    }

    @Test func wholeStateLimitIsOneMiB() throws {
        // 16 values of 64 KiB are 1 MiB of values alone: with the JSON around them, over.
        let big = try Route(type: "T", json: "\"" + String(repeating: "v", count: Limits.routeValueBytes - 2) + "\"")
        let over = WindowState(session: "s", window: "w", path: Array(repeating: big, count: 16))
        #expect(throws: StateStoreError.self) { try over.validate() }
        let under = WindowState(session: "s", window: "w", path: Array(repeating: big, count: 15))
        try under.validate()
    }

    @Test func jsonKeepsFieldOrderAndValuesAsWritten() throws {
        let state = WindowState(
            session: "s\"1", window: "w", sizeClass: .compact, path: [route("Folder", #""inbox""#)],
            item: route("Thread", #"{"id":42}"#), itemPath: [], policy: .dismiss)
        var writer = JSONWriter()
        state.write(to: &writer)
        #expect(
            writer.text
                == #"{"session":"s\"1","window":"w","sizeClass":"compact","path":[{"type":"Folder","value":"inbox"}],"item":{"type":"Thread","value":{"id":42}},"itemPath":[],"policy":"dismiss","columnVisibility":"automatic","preferredCompactColumn":null,"selectedTab":null,"revision":0,"updatedAt":"1970-01-01T00:00:00.000Z"}"#
        )
        let split = WindowState(
            session: "s", window: "w", columnVisibility: .doubleColumn, preferredCompactColumn: .content,
            selectedTab: "in\"box")
        writer = JSONWriter()
        split.write(to: &writer)
        #expect(
            writer.text
                == #"{"session":"s","window":"w","sizeClass":"unspecified","path":[],"item":null,"itemPath":[],"policy":"migrate","columnVisibility":"doubleColumn","preferredCompactColumn":"content","selectedTab":"in\"box","revision":0,"updatedAt":"1970-01-01T00:00:00.000Z"}"#
        )
    }

    @Test func codableRoundTrip() throws {
        let state = WindowState(
            session: "s", window: "w", sizeClass: .regular, path: [route("A", "[1,2]")], item: route("B"),
            itemPath: [route("C", #""c""#)], policy: .dismiss)
        let decoded = try JSONDecoder().decode(WindowState.self, from: JSONEncoder().encode(state))
        #expect(decoded == state)
    }

    /// `Codable` and `write(to:)` are one encoding: the same keys and values (`item` `null`
    /// included), and each reads what the other wrote.
    @Test(arguments: [
        WindowState(session: "s", window: "w"),
        WindowState(
            session: "mail", window: "é", sizeClass: .compact, path: [route("Folder", #""inbox""#)],
            item: route("Thread", #"{"id":42}"#), itemPath: [route("A", #"[1,"a",null]"#)], policy: .dismiss),
        WindowState(
            session: "s", window: "w", columnVisibility: .detailOnly, preferredCompactColumn: .sidebar,
            selectedTab: "ünï"),
    ])
    func codableWritesAndReadsWhatWriteToWrites(_ state: WindowState) throws {
        var stamped = state
        stamped.revision = 7
        stamped.updatedAt = Timestamp(millisecondsSince1970: 1_796_017_514_123)
        var writer = JSONWriter()
        stamped.write(to: &writer)
        let written = Data(writer.bytes)
        let encoded = try JSONEncoder().encode(stamped)
        let parse = { (data: Data) in try JSONSerialization.jsonObject(with: data) as? NSDictionary }
        #expect(try parse(encoded) == parse(written))
        #expect(
            try (parse(encoded)?.allKeys as? [String]).map(Set.init)
                == Set([
                    "session", "window", "sizeClass", "path", "item", "itemPath", "policy", "columnVisibility",
                    "preferredCompactColumn", "selectedTab", "revision", "updatedAt",
                ]))
        #expect(try JSONDecoder().decode(WindowState.self, from: written) == stamped)
        #expect(try JSONDecoder().decode(WindowState.self, from: encoded) == stamped)
    }

    /// A decoded state is checked as the store checks one: what it would refuse does not decode.
    @Test(arguments: [
        #"{"session":"s","window":"w","sizeClass":"compact","path":[],"item":null,"itemPath":[{"type":"A","value":1}],"policy":"migrate","revision":1,"updatedAt":"2026-11-30T05:45:14.123Z"}"#,
        #"{"session":"","window":"w","sizeClass":"compact","path":[],"item":null,"itemPath":[],"policy":"migrate","revision":1,"updatedAt":"2026-11-30T05:45:14.123Z"}"#,
        #"{"session":"s","window":"w","sizeClass":"compact","path":[],"item":null,"itemPath":[],"policy":"migrate","revision":-1,"updatedAt":"2026-11-30T05:45:14.123Z"}"#,
        #"{"session":"s","window":"w","sizeClass":"huge","path":[],"item":null,"itemPath":[],"policy":"migrate","revision":1,"updatedAt":"2026-11-30T05:45:14.123Z"}"#,
        #"{"session":"s","window":"w","sizeClass":"compact","path":[],"itemPath":[],"policy":"migrate","revision":1,"updatedAt":"2026-11-30T05:45:14.123Z"}"#,
        #"{"session":"s","window":"w","sizeClass":"compact","path":[],"item":null,"itemPath":[],"policy":"migrate","columnVisibility":"double-column","revision":1,"updatedAt":"2026-11-30T05:45:14.123Z"}"#,
        #"{"session":"s","window":"w","sizeClass":"compact","path":[],"item":null,"itemPath":[],"policy":"migrate","preferredCompactColumn":"none","revision":1,"updatedAt":"2026-11-30T05:45:14.123Z"}"#,
        #"{"session":"s","window":"w","sizeClass":"compact","path":[],"item":null,"itemPath":[],"policy":"migrate","selectedTab":"","revision":1,"updatedAt":"2026-11-30T05:45:14.123Z"}"#,
        #"{"session":"s","window":"w","sizeClass":"compact","path":[],"item":null,"itemPath":[],"policy":"migrate","selectedTab":"a\u0007","revision":1,"updatedAt":"2026-11-30T05:45:14.123Z"}"#,
    ])
    func aDecodedInvalidStateThrows(_ json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(WindowState.self, from: Data(json.utf8)) }
    }

    @Test func aDecodedStateOverTheLimitsThrows() throws {
        let state = WindowState(session: "s", window: "w", path: Array(repeating: route("P"), count: 513))
        let encoded = try JSONEncoder().encode(state)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(WindowState.self, from: encoded) }
    }

    /// A state written before the split view's and tab view's values were part of it decodes, with
    /// them as in a new window.
    @Test func anObjectWithoutTheSplitViewAndTabDecodesAsANewWindowHasThem() throws {
        let json =
            #"{"session":"s","window":"w","sizeClass":"compact","path":[],"item":null,"itemPath":[],"policy":"dismiss","revision":3,"updatedAt":"2026-11-30T05:45:14.123Z"}"#
        let state = try JSONDecoder().decode(WindowState.self, from: Data(json.utf8))
        #expect(state.columnVisibility == .automatic)
        #expect(state.preferredCompactColumn == nil)
        #expect(state.selectedTab == nil)
        #expect(state.policy == .dismiss && state.revision == 3)
    }

    @Test func aNewWindowHasTheViewsOwnColumnsAndNoTab() {
        let state = WindowState(session: "s", window: "w")
        #expect(state.columnVisibility == .automatic)
        #expect(state.preferredCompactColumn == nil)
        #expect(state.selectedTab == nil)
        // The two initializers make the same window.
        #expect(state == WindowState(session: "s", window: "w", columnVisibility: .automatic))
        #expect(ColumnVisibility.allCases.map(\.rawValue) == ["automatic", "all", "doubleColumn", "detailOnly"])
        #expect(SplitViewColumn.allCases.map(\.rawValue) == ["sidebar", "content", "detail"])
    }

    /// The split view's and tab view's values are part of the state: states differing only there
    /// are different states.
    @Test func statesDifferingInTheirSplitViewOrTabAreNotEqual() {
        let plain = WindowState(session: "s", window: "w")
        var changed = [plain, plain, plain]
        changed[0].columnVisibility = .all
        changed[1].preferredCompactColumn = .detail
        changed[2].selectedTab = "inbox"
        for state in changed { #expect(state != plain) }
        #expect(Set(changed + [plain]).count == 4)
    }

    @Test(
        "a selected tab: 1–256 bytes, no control characters",
        arguments: ["", String(repeating: "x", count: 257), "a\nb", "\u{0}", "\u{9F}"])
    func refusesBadTabs(_ tab: String) {
        #expect(throws: StateStoreError.self) {
            try WindowState(session: "s", window: "w", selectedTab: tab).validate()
        }
    }

    @Test func acceptsTabsAsIds() throws {
        for tab in ["x", "🗂 inbox", String(repeating: "ü", count: 128), String(repeating: "t", count: 256)] {
            try WindowState(session: "s", window: "w", selectedTab: tab).validate()
        }
    }

    /// The selected tab counts toward the 1 MiB of JSON: a state a few bytes under the limit goes
    /// over it with a tab.
    @Test func theSelectedTabCountsInTheWholeStateLimit() throws {
        func size(_ state: WindowState) -> Int {
            var writer = JSONWriter()
            state.write(to: &writer)
            return writer.bytes.count
        }
        let big = try Route(type: "T", json: "\"" + String(repeating: "v", count: Limits.routeValueBytes - 2) + "\"")
        var state = WindowState(session: "s", window: "w", path: Array(repeating: big, count: 15))
        // One more route, as long as what is left of the limit allows, less 100 bytes.
        state.path.append(route("F", #""""#))
        let filler = Limits.windowStateBytes - size(state) - 100
        state.path[15] = try Route(type: "F", json: "\"" + String(repeating: "f", count: filler) + "\"")
        #expect(size(state) == Limits.windowStateBytes - 100)
        try state.validate()
        state.selectedTab = String(repeating: "t", count: 110)
        #expect(size(state) > Limits.windowStateBytes)
        #expect(throws: StateStoreError.self) { try state.validate() }
        state.selectedTab = String(repeating: "t", count: 80)
        #expect(size(state) <= Limits.windowStateBytes)
        try state.validate()
    }

    @Test func idsAndTabsCompareByTheirBytes() {
        let composed = WindowState(session: "s", window: "w\u{E9}", selectedTab: "caf\u{E9}")
        var decomposed = composed
        decomposed.window = "we\u{301}"
        #expect(composed != decomposed, "two windows to the store")
        decomposed.window = composed.window
        #expect(composed == decomposed)
        decomposed.selectedTab = "cafe\u{301}"
        #expect(composed != decomposed, "two tabs")
        #expect(Set([composed, decomposed]).count == 2)
        decomposed.selectedTab = nil
        #expect(composed != decomposed)
    }

    /// The content is one value: each field of it counts in `==`, in the hash and in what a write
    /// stores, and the ids and the stamps count in none of the content.
    @Test func everyContentFieldCountsOnce() throws {
        let base = WindowState(session: "s", window: "w")
        let changes: [(String, (inout WindowState) -> Void)] = [
            ("sizeClass", { $0.sizeClass = .compact }), ("path", { $0.path = [route("A", "1")] }),
            ("item", { $0.item = route("B", "2") }), ("itemPath", { $0.itemPath = [route("C", "3")] }),
            ("policy", { $0.policy = .dismiss }), ("columnVisibility", { $0.columnVisibility = .detailOnly }),
            ("preferredCompactColumn", { $0.preferredCompactColumn = .detail }),
            ("selectedTab", { $0.selectedTab = "t" }),
        ]
        for (name, change) in changes {
            var changed = base
            change(&changed)
            #expect(changed != base, "\(name)")
            #expect(!changed.hasSameContent(as: base), "\(name)")
            #expect(changed.content != base.content, "\(name)")
            #expect(Set([changed, base]).count == 2, "\(name)")
            #expect(Set([changed.content, base.content]).count == 2, "\(name)")
        }
        var stamped = WindowState(session: "other", window: "ids")
        stamped.revision = 7
        stamped.updatedAt = Timestamp(millisecondsSince1970: 1_000)
        #expect(stamped.hasSameContent(as: base))
        #expect(stamped.content == base.content)
        #expect(stamped != base)
    }
}
