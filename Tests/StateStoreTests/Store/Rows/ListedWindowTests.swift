import Foundation
import StateStore
import Testing

/// `forEachListedWindow` lends each row as SQLite holds it: what it lends must be, byte for byte,
/// what `forEachWindow`'s summaries hold for the same rows, whoever wrote them, and a row either
/// path cannot use must stop both with the same error.
struct ListedWindowTests {
    let folder = TemporaryFolder()

    /// What a lent row gave, copied out inside the call.
    struct Lent: Equatable {
        var session: [UInt8]
        var window: [UInt8]
        var item: [UInt8]?
        var summary: WindowSummary
        var built: [String]
    }

    func lent(_ store: WindowStore, session: String? = nil, sizeClass: SizeClass? = nil) throws -> [Lent] {
        var rows: [Lent] = []
        try store.forEachListedWindow(session: session, sizeClass: sizeClass) { window in
            #expect(window.hasItem == (window.item != nil))
            rows.append(
                Lent(
                    session: window.withSessionUTF8 { Array($0) }, window: window.withWindowUTF8 { Array($0) },
                    item: window.withItemJSON { Array($0) }, summary: window.summary,
                    built: [window.session, window.window, window.item?.description ?? "-"]))
        }
        return rows
    }

    /// The JSON a route is written as, `{"type":…,"value":…}`, by a JSON library of its own.
    func routeJSON(_ route: Route) throws -> [UInt8] {
        let value = try JSONSerialization.jsonObject(with: Data(route.json.utf8), options: .fragmentsAllowed)
        let object = try JSONSerialization.data(
            withJSONObject: ["type": route.type, "value": value], options: [.sortedKeys, .fragmentsAllowed])
        return Array(object)
    }

    /// Each lent row against the summary of the same row.
    func expectLentRowsAreTheSummaries(
        _ store: WindowStore, session: String? = nil, sizeClass: SizeClass? = nil
    )
        throws
    {
        let summaries = try store.windowSummaries(session: session, sizeClass: sizeClass)
        let rows = try lent(store, session: session, sizeClass: sizeClass)
        #expect(rows.map(\.summary) == summaries)
        for (row, summary) in zip(rows, summaries) {
            #expect(row.session == Array(summary.session.utf8))
            #expect(row.window == Array(summary.window.utf8))
            #expect(row.built == [summary.session, summary.window, summary.item?.description ?? "-"])
            if let item = summary.item {
                let lentItem = try #require(row.item)
                let parsed = try #require(try JSONSerialization.jsonObject(with: Data(lentItem)) as? [String: Any])
                #expect(parsed["type"] as? String == item.type)
                let keys = ["type", "value"]
                let again = try JSONSerialization.data(
                    withJSONObject: parsed.filter { keys.contains($0.key) }, options: [.sortedKeys, .fragmentsAllowed])
                #expect(Array(again) == (try routeJSON(item)), "the lent JSON is the item's")
                #expect(lentItem.starts(with: Array(#"{"type":"#.utf8)), "in the store's shape")
                #expect(!lentItem.contains(UInt8(ascii: " ")) || item.json.contains(" "), "minified")
            } else {
                #expect(row.item == nil)
            }
        }
    }

    @Test func lentRowsHoldWhatTheSummariesHold() throws {
        let store = try WindowStore(path: folder.file("store.db"))
        let items: [Route?] = [
            nil, route("Thread", #"{"id":42,"tags":["a","b"],"nested":{"x":[1.5e3,-0,true,null]}}"#),
            route("Folder", #""inbox""#), route(#"Quote"d\Type"#, #""tab\there \u00e9""#), route("Null"),
            route("Émoji", #""🦊 fox""#),
        ]
        for (offset, item) in items.enumerated() {
            for session in ["s", "session-ü", "a-session-of-more-than-16-bytes"] {
                let state = WindowState(
                    session: session, window: "w\(offset)", sizeClass: offset % 2 == 0 ? .compact : .regular,
                    path: (0..<offset).map { route("P\($0)") }, item: item)
                try store.save(state)
            }
        }
        try expectLentRowsAreTheSummaries(store)
        try expectLentRowsAreTheSummaries(store, session: "session-ü")
        try expectLentRowsAreTheSummaries(store, sizeClass: .regular)
        try expectLentRowsAreTheSummaries(store, session: "s", sizeClass: .compact)
        #expect(try lent(store).count == 18)
        #expect(try lent(store, session: "s", sizeClass: .compact).map(\.summary.window) == ["w0", "w2", "w4"])
        #expect(try lent(store, session: "unknown").isEmpty)
        #expect(try lent(WindowStore(path: folder.file("empty.db"))).isEmpty)
    }

    /// A route written by hand in another shape is lent in the store's: the same bytes a route
    /// of that type and value is written as.
    @Test func anItemWrittenInAnotherShapeIsLentInTheStoresShape() throws {
        let store = try WindowStore(path: folder.file("store.db"))
        try store.save(WindowState(session: "s", window: "w", item: route("I")))
        for (stored, expected) in [
            (#" {"type" : "I\u0041", "value" : [ 1 , {"k" : "v w"} ] } "#, #"{"type":"IA","value":[1,{"k":"v w"}]}"#),
            (#"{"value":2,"type":"B"}"#, #"{"type":"B","value":2}"#),
            (#"{"type":"C"}"#, #"{"type":"C","value":null}"#),
            (#"{"type":"D","value":1} "#, #"{"type":"D","value":1}"#),
        ] {
            try rawSQL(folder.file("store.db"), "UPDATE windows SET item = '\(stored)'")
            let rows = try lent(store)
            #expect(rows.first?.item.map { String(decoding: $0, as: UTF8.self) } == expected, "\(stored)")
            try expectLentRowsAreTheSummaries(store)
        }
    }

    /// Text SQLite holds need not be UTF-8. Such an id or item is lent as the summary repairs
    /// it, U+FFFD for each bad sequence, never as bytes that are not UTF-8; every well-formed
    /// sequence is lent as stored.
    @Test(arguments: [
        // Well-formed: é, €, 😺, U+FFFF, U+10FFFF, and ASCII past a word's worth.
        ("C3A9", true), ("E282AC", true), ("F09F98BA", true), ("EFBFBF", true), ("F48FBFBF", true),
        ("6162636465666768C3A9", true),
        // Overlong, a surrogate, past U+10FFFF, a bad lead, a lone continuation, cut short.
        ("C0AF", false), ("E080AF", false), ("F0808080", false), ("EDA080", false), ("F4908080", false),
        ("FF", false), ("80", false), ("C3", false), ("E282", false), ("F09F98", false), ("C328", false),
        ("6162636465666768FF", false),
    ])
    func textThatIsNotUTF8IsLentRepaired(_ hex: String, _ wellFormed: Bool) throws {
        let store = try WindowStore(path: folder.file("store.db"))
        try store.save(WindowState(session: "s", window: "w", item: route("I", #""x""#)))
        let bytes = "61" + hex + "62"
        try rawSQL(
            folder.file("store.db"),
            """
            UPDATE windows SET session = CAST(x'\(bytes)' AS TEXT), window = CAST(x'\(bytes)' AS TEXT),
                item = '{"type":"I","value":"' || CAST(x'\(bytes)' AS TEXT) || '"}'
            """)
        let row = try #require(try lent(store).first)
        let raw = (try #require(Data(hexString: bytes))).map { $0 }
        #expect(isWellFormedUTF8(raw) == wellFormed)
        #expect(row.session == (wellFormed ? raw : Array(String(decoding: raw, as: UTF8.self).utf8)))
        #expect(row.session == Array(row.summary.session.utf8))
        #expect(isWellFormedUTF8(try #require(row.item)))
        try expectLentRowsAreTheSummaries(store)
    }

    /// The check of a text's UTF-8 reads it in words and a shorter tail: a byte that is not
    /// UTF-8 at any place of a text of any length up to three words is found, and a text of only
    /// ASCII of each length is lent as stored.
    @Test func aBadByteAnywhereInATextOfAnyLengthIsFound() throws {
        let store = try WindowStore(path: folder.file("store.db"))
        var updates: [String] = []
        for count in 1...24 {
            for bad in -1..<count {
                let window = "w\(count)-\(bad)"
                try store.save(WindowState(session: "s", window: window, item: route("I", #""x""#)))
                let hex = (0..<count).map { $0 == bad ? "FF" : "61" }.joined()
                updates.append(
                    """
                    UPDATE windows SET window = CAST(x'\(hex)' AS TEXT),
                        item = '{"type":"I","value":"' || CAST(x'\(hex)' AS TEXT) || '"}' WHERE window = '\(window)';
                    """)
            }
        }
        try rawSQL(folder.file("store.db"), updates.joined(separator: "\n"))
        let rows = try lent(store)
        #expect(rows.count == (1...24).reduce(0) { $0 + $1 + 1 })
        for row in rows {
            let repaired = row.window.contains(0xFF) == false && row.window.contains(0xEF)
            #expect(isWellFormedUTF8(row.window))
            #expect(row.window == Array(row.summary.window.utf8))
            #expect(repaired == row.summary.window.contains("\u{FFFD}"))
            let item = try #require(row.item)
            #expect(isWellFormedUTF8(item))
            #expect(item.contains(0xEF) == repaired, "the item repaired where the id is")
        }
        #expect(rows.filter { $0.summary.window.contains("\u{FFFD}") }.count == (1...24).reduce(0, +))
        try expectLentRowsAreTheSummaries(store)
    }

    /// A damaged row stops a lent listing with the error a listing of summaries stops with,
    /// naming the window, before the closure sees it.
    @Test(arguments: [
        "revision = 'abc'", "revision = 0", "updated_at = 'noon'", "item = '{\"type\":'", "item = '[1]'",
        "item = '{\"type\":\"A\",\"value\":1} x'", "item = '{\"type\":\"A\",\"value\":01}'", "size_class = 'medium'",
    ])
    func aDamagedRowStopsTheListingNamingTheWindow(_ damage: String) throws {
        let store = try WindowStore(path: folder.file("store.db"))
        try store.save(WindowState(session: "a", window: "first", item: route("I")))
        try store.save(WindowState(session: "s", window: "w", item: route("I")))
        try rawSQL(
            folder.file("store.db"),
            "PRAGMA ignore_check_constraints = ON; UPDATE windows SET \(damage) WHERE session = 's'")
        func failure(_ list: () throws -> Void) -> String? {
            do {
                try list()
                return nil
            } catch let error as StateStoreError {
                guard case .damaged = error else { return "not damage: \(error)" }
                return error.description
            } catch {
                return "not a StateStoreError: \(error)"
            }
        }
        var seen: [String] = []
        let lentFailure = failure { try store.forEachListedWindow { seen.append($0.window) } }
        let summaryFailure = failure { _ = try store.windowSummaries() }
        #expect(lentFailure != nil)
        #expect(lentFailure == summaryFailure)
        #expect(lentFailure?.contains("'s' 'w'") == true, "\(lentFailure ?? "")")
        #expect(seen == ["first"], "the damaged row never reached the closure")
    }

    @Test func aThrowFromTheClosureStopsTheListingAndReachesTheCaller() throws {
        struct Stop: Error, Equatable { var window: String }
        let store = try WindowStore(path: folder.file("store.db"))
        for window in ["a", "b", "c"] { try store.save(WindowState(session: "s", window: window)) }
        var seen: [String] = []
        #expect(throws: Stop(window: "b")) {
            try store.forEachListedWindow { window in
                seen.append(window.window)
                if window.window == "b" { throw Stop(window: window.window) }
            }
        }
        #expect(seen == ["a", "b"])
        #expect(throws: StateStoreError.self) {
            try store.forEachListedWindow { _ in _ = try store.windowSummaries() }
        }
        var called = false
        #expect(throws: StateStoreError.self) {
            try store.forEachListedWindow(session: "") { _ in called = true }
        }
        #expect(!called)
        #expect(try store.windowSummaries().count == 3, "the store is usable after each")
    }
}

extension Data {
    /// The bytes a string of hexadecimal digits spells.
    fileprivate init?(hexString: String) {
        var bytes: [UInt8] = []
        var digits = hexString.makeIterator()
        while let high = digits.next() {
            guard let low = digits.next(), let byte = UInt8(String([high, low]), radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.init(bytes)
    }
}
