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

    @Test func jsonKeepsSpecOrderAndValuesAsWritten() throws {
        let state = WindowState(
            session: "s\"1", window: "w", sizeClass: .compact, path: [route("Folder", #""inbox""#)],
            item: route("Thread", #"{"id":42}"#), itemPath: [], policy: .dismiss)
        var writer = JSONWriter()
        state.write(to: &writer)
        #expect(
            writer.text
                == #"{"session":"s\"1","window":"w","sizeClass":"compact","path":[{"type":"Folder","value":"inbox"}],"item":{"type":"Thread","value":{"id":42}},"itemPath":[],"policy":"dismiss","revision":0,"updatedAt":"1970-01-01T00:00:00.000Z"}"#
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
                    "session", "window", "sizeClass", "path", "item", "itemPath", "policy", "revision", "updatedAt",
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
    ])
    func aDecodedInvalidStateThrows(_ json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(WindowState.self, from: Data(json.utf8)) }
    }

    @Test func aDecodedStateOverTheLimitsThrows() throws {
        let state = WindowState(session: "s", window: "w", path: Array(repeating: route("P"), count: 513))
        let encoded = try JSONEncoder().encode(state)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(WindowState.self, from: encoded) }
    }
}
