import StateStore
import Testing

/// Rows are read back along a fast path for the shape the store writes; text in any other shape
/// (edited by hand, or by another tool) must read the same, and text that is not JSON is damage.
struct StoredTextTests {
    let folder = TemporaryFolder()

    func store(with state: WindowState) throws -> WindowStore {
        let store = try WindowStore(path: folder.file("store.db"))
        try store.save(state)
        return store
    }

    @Test func routesStoredInAnotherShapeReadTheSame() throws {
        let store = try self.store(with: WindowState(session: "s", window: "w", item: route("I")))
        try rawSQL(
            folder.file("store.db"),
            """
            UPDATE windows SET
                path = '[ {"value": {"id": 1, "tags": ["a", "b"]}, "type": "A"}, {"type":"B"},{"type":"C","value":null} ]',
                item = ' {"type" : "I\\u0041", "value" : [ 1 , {"k" : "v w"} ] } ',
                item_path = '[{"type":"D","value":"x"}  ]'
            """)
        let read = try #require(try store.window(session: "s", window: "w"))
        #expect(read.path == [route("A", #"{"id":1,"tags":["a","b"]}"#), route("B"), route("C")])
        #expect(read.item == route("IA", #"[1,{"k":"v w"}]"#))
        #expect(read.itemPath == [route("D", #""x""#)])
        let summary = try #require(try store.windowSummaries().first)
        #expect(summary.depth == 3)
        #expect(summary.item == read.item)
    }

    /// The store's own shape is checked whole, then built in one allocation; a stack whose shape
    /// changes midway is read element by element.
    @Test(arguments: [0, 1, 15, 16, 17, 40])
    func stacksOfEveryLengthReadBackAsWritten(_ depth: Int) throws {
        let path = (0..<depth).map { route("P\($0)", #"{"n":\#($0),"s":"a b"}"#) }
        let state = WindowState(session: "s", window: "w", path: path, item: route("I"), itemPath: path)
        let store = try self.store(with: state)
        let read = try #require(try store.window(session: "s", window: "w"))
        #expect(read.path == path)
        #expect(read.itemPath == path)
        #expect(read.item == route("I"))
    }

    /// Ids and route types recur from row to row and are shared once read: ones that differ only
    /// past their 16th byte, or only in length, or are more than are kept, read back as written.
    @Test func idsAndTypesThatShareTheirFirstBytesReadBackAsWritten() throws {
        let store = try WindowStore(path: folder.file("store.db"))
        let prefix = "a-prefix-of-16-b"
        var written: [WindowState] = []
        for session in [prefix, prefix + "x", prefix + "y", "short", "shorter"] {
            for n in 0..<20 {
                let window = n % 2 == 0 ? "\(prefix)\(n)" : "w\(n)"
                let types = ["\(prefix)\(n % 3)", "T\(n)", prefix]
                let state = WindowState(
                    session: session, window: window, path: types.map { route($0) }, item: route(types[n % 3]))
                try store.save(state)
                written.append(state)
            }
        }
        let listed = try store.windowSummaries()
        let expected = written.sorted {
            ($0.session.utf8.lexicographicallyPrecedes($1.session.utf8))
                || ($0.session == $1.session && $0.window.utf8.lexicographicallyPrecedes($1.window.utf8))
        }
        #expect(
            listed.map { [$0.session, $0.window, $0.item?.type ?? ""] }
                == expected.map { [$0.session, $0.window, $0.item?.type ?? ""] })
        for session in Set(written.map(\.session)) {
            let read = try store.windows(session: session)
            #expect(
                Set(read.map { [$0.window] + $0.path.map(\.type) })
                    == Set(written.filter { $0.session == session }.map { [$0.window] + $0.path.map(\.type) }))
        }
    }

    @Test func aStackWhoseShapeChangesMidwayReadsTheSame() throws {
        let store = try self.store(with: WindowState(session: "s", window: "w"))
        try rawSQL(
            folder.file("store.db"),
            #"UPDATE windows SET path = '[{"type":"A","value":1},{"value":2,"type":"B"},{"type":"C","value":3}]'"#)
        let read = try #require(try store.window(session: "s", window: "w"))
        #expect(read.path == [route("A", "1"), route("B", "2"), route("C", "3")])
    }

    @Test(
        "a bad value after good ones in the store's own shape is damage, however deep",
        arguments: [1, 16, 17])
    func aBadValueAfterGoodOnesIsDamage(_ good: Int) throws {
        let store = try self.store(with: WindowState(session: "s", window: "w"))
        let elements = (0..<good).map { #"{"type":"A","value":\#($0)}"# } + [#"{"type":"B","value":01}"#]
        try rawSQL(folder.file("store.db"), "UPDATE windows SET path = '[\(elements.joined(separator: ","))]'")
        #expect {
            try store.window(session: "s", window: "w")
        } throws: { error in
            guard case .damaged(let failure) = error as? StateStoreError else { return false }
            return failure.message.contains("'s' 'w' cannot be read")
        }
    }

    @Test(
        "stored text that is not a route is damage",
        arguments: [
            #"path = '[{"type":"A","value":tru}]'"#,
            #"path = '[{"type":"A","value":1} '"#,
            #"path = '[{"type":"A","value":1,"extra":2}]'"#,
            #"path = '[{"value":1}]'"#,
            #"item_path = '[{"type":"A","value":"x" "y"}]'"#,
            #"item = '{"type":"A","value":[1}'"#,
            #"item = '{"type":"A","value":1}x'"#,
            #"item = '{"type":"A","type":"B"}'"#,
        ])
    func unreadableRouteIsDamage(_ assignment: String) throws {
        let store = try self.store(with: WindowState(session: "s", window: "w", item: route("I")))
        try rawSQL(folder.file("store.db"), "UPDATE windows SET \(assignment)")
        #expect {
            try store.window(session: "s", window: "w")
        } throws: { error in
            guard case .damaged(let failure) = error as? StateStoreError else { return false }
            return failure.message.contains("cannot be read")
        }
    }

    @Test(
        "the store's own shape, but an escape in the type or whitespace in the value",
        arguments: [
            (#"{"type":"I\u0041","value":{"k":[1,2]}}"#, route("IA", #"{"k":[1,2]}"#)),
            (#"{"type":"I","value":{"k": [1, 2]}}"#, route("I", #"{"k":[1,2]}"#)),
            (#"{"type":"I","value":"a b"}"#, route("I", #""a b""#)),
        ])
    func nearlyTheStoredShapeReadsTheSame(_ stored: String, _ expected: Route) throws {
        let store = try self.store(with: WindowState(session: "s", window: "w", item: route("I")))
        try rawSQL(folder.file("store.db"), "UPDATE windows SET item = '\(stored)', path = '[\(stored)]'")
        let read = try #require(try store.window(session: "s", window: "w"))
        #expect(read.item == expected)
        #expect(read.path == [expected])
        #expect(try store.windowSummaries().first?.item == expected)
    }

    @Test(
        "listing an unreadable item is damage",
        arguments: [#"{"type":"A","value":"#, #"{"type":"A","value":1}x"#, #"{"type":"A","value":01}"#, ""])
    func listingAnUnreadableItemIsDamage(_ item: String) throws {
        let store = try self.store(with: WindowState(session: "s", window: "w", item: route("I")))
        try rawSQL(folder.file("store.db"), "UPDATE windows SET item = '\(item)'")
        #expect(throws: StateStoreError.self) { try store.windowSummaries() }
    }

    /// The bytes a size class lends are its raw value's, which read back as it.
    @Test(arguments: SizeClass.allCases)
    func aSizeClassLendsItsRawValue(_ sizeClass: SizeClass) {
        #expect(sizeClass.withRawValueUTF8 { Array($0) } == Array(sizeClass.rawValue.utf8))
        #expect(SizeClass(rawValue: sizeClass.withRawValueUTF8 { String(decoding: $0, as: UTF8.self) }) == sizeClass)
    }

    @Test func unknownStoredSizeClassOrPolicyIsDamage() throws {
        let store = try self.store(with: WindowState(session: "s", window: "w", sizeClass: .regular))
        #expect(try store.window(session: "s", window: "w")?.sizeClass == .regular)
        try rawSQL(
            folder.file("store.db"), "PRAGMA ignore_check_constraints = 1; UPDATE windows SET size_class = 'regularr'")
        #expect(throws: StateStoreError.self) { try store.window(session: "s", window: "w") }
        #expect(throws: StateStoreError.self) { try store.windowSummaries() }
        try rawSQL(
            folder.file("store.db"),
            "PRAGMA ignore_check_constraints = 1; UPDATE windows SET size_class = 'compact', policy = 'dismis'")
        #expect(throws: StateStoreError.self) { try store.window(session: "s", window: "w") }
        #expect(try store.windowSummaries().first?.sizeClass == .compact)
    }
}

/// Routes read from a row share one copy of its column's text, built into strings only when asked.
struct SharedRouteTextTests {
    let folder = TemporaryFolder()

    @Test func routesReadBackEqualAndHashAsTheRoutesWritten() throws {
        let path = [route("A", #""é 😀""#), route(#"Quote"d"#, #"{"k":[1,2]}"#), route("C")]
        let item = route("MailApp.Message", #"{"id":480000,"thread":48000}"#)
        let state = WindowState(session: "s", window: "w", path: path, item: item, itemPath: [route("D", "1")])
        let store = try WindowStore(path: folder.file("store.db"))
        try store.save(state)
        let read = try #require(try store.window(session: "s", window: "w"))
        #expect(read.path == path)
        #expect(read.item == item)
        #expect(read.path.map(\.hashValue) == path.map(\.hashValue))
        #expect(read.item?.hashValue == item.hashValue)
        #expect(Set(read.path + path).count == path.count, "a set holds each route once, read or made")
        #expect(read.path.map(\.type) == ["A", #"Quote"d"#, "C"])
        #expect(read.path.map(\.json) == [#""é 😀""#, #"{"k":[1,2]}"#, "null"])
        #expect(read.path[0].withJSONUTF8 { Array($0) } == Array(#""é 😀""#.utf8))
        #expect(read.path[1].withTypeUTF8 { Array($0) } == Array(#"Quote"d"#.utf8))
        #expect(read.path[1].hasType(#"Quote"d"#))
        #expect(!read.path[1].hasType("Quote"), "a prefix is another type")
        #expect(!read.path[1].hasType(#"Quote"dd"#))
        // The store writes back exactly what it read.
        try store.save(read)
        #expect(try store.window(session: "s", window: "w")?.path == path)
    }

    @Test func routesAreTheirBytesNotTheirCanonicalForm() throws {
        let composed = route("\u{E9}", "\"\u{E9}\"")
        #expect(composed != route("e\u{301}", "\"\u{E9}\""), "the type in another normalization")
        #expect(composed != route("\u{E9}", "\"e\u{301}\""), "the value in another normalization")
        #expect(composed == route("\u{E9}", "\"\u{E9}\""))
        #expect(route("A1", "2") != route("A", "12"), "where the type ends counts")
    }

    /// Bytes are compared eight at a time, then one by one: a difference is found in the first
    /// eight, in a later eight and in the tail after them; routes sharing one row's text compare by
    /// their own places in it.
    @Test func routesDifferingInAnyByteAreNotEqual() throws {
        let type = "MailApp.Thread.Message"  // 22 bytes: two words and a tail of six
        let value = #"{"id":1234567890,"thread":42}"#
        let made = route(type, value)
        for offset in [0, 7, 8, 15, 16, 21] {
            var bytes = Array(type.utf8)
            bytes[offset] = UInt8(ascii: "X")
            #expect(made != route(String(decoding: bytes, as: UTF8.self), value), "type byte \(offset)")
        }
        for offset in [6, 12, 18, 27] {  // a digit, a digit, the key's "t", the tail's digit: still JSON
            var bytes = Array(value.utf8)
            bytes[offset] = bytes[offset] == UInt8(ascii: "t") ? UInt8(ascii: "T") : bytes[offset] + 1
            let other = String(decoding: bytes, as: UTF8.self)
            #expect(made != route(type, other), "value byte \(offset) of \(other)")
        }
        #expect(made == route(type, value))
        #expect(route("A") == route("A"), "shorter than a word")

        // Two routes of one row: the same text, other places in it.
        let store = try WindowStore(path: folder.file("store.db"))
        try store.save(
            WindowState(session: "s", window: "w", path: [route("T", "1"), route("T", "1"), route("T", "2")]))
        let read = try #require(try store.window(session: "s", window: "w")).path
        #expect(read[0] == read[1], "equal routes at two places of one text")
        #expect(read[0] != read[2])
        #expect(read[2] == route("T", "2"))
    }

    /// A route keeps its own copy: what SQLite lent is gone once the statement moves on.
    @Test func routesOutliveTheRowTheyWereReadFrom() throws {
        let store = try WindowStore(path: folder.file("store.db"))
        let first = (0..<3).map { route("T\($0)", #"{"n":\#($0),"pad":"\#(String(repeating: "x", count: 40))"}"#) }
        try store.save(WindowState(session: "s", window: "w", path: first, item: first[1]))
        let read = try #require(try store.window(session: "s", window: "w"))
        let listed = try #require(try store.windowSummaries().first)
        try store.save(WindowState(session: "s", window: "w", path: [route("Other", "2")], item: route("Z")))
        _ = try store.window(session: "s", window: "w")
        _ = try store.windowSummaries()
        #expect(read.path == first)
        #expect(read.item == first[1])
        #expect(listed.item == first[1])
    }

    /// Text that is not UTF-8 (written by another program) is repaired route by route, in the
    /// store's shape and in any other, and in the listing's item as in a window's.
    @Test(arguments: [false, true])
    func routeTextThatIsNotUTF8ReadsRepaired(_ otherShape: Bool) throws {
        let store = try WindowStore(path: folder.file("store.db"))
        try store.save(WindowState(session: "s", window: "w", item: route("I")))
        let open = otherShape ? #"[ {"value":"# : #"[{"type":"A","value":"#
        let pathBytes =
            Array(open.utf8) + Array(#""x"#.utf8) + [0xFE] + Array(#"""#.utf8)
            + Array((otherShape ? #","type":"A"},"# : "},").utf8)
            + Array(#"{"type":"B"#.utf8) + [0xFF] + Array(#"","value":1}]"#.utf8)
        let itemBytes = Array(#"{"type":"I","value":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)
        try rawSQL(
            folder.file("store.db"),
            "UPDATE windows SET path = CAST(X'\(hex(pathBytes))' AS TEXT), item = CAST(X'\(hex(itemBytes))' AS TEXT)")
        let read = try #require(try store.window(session: "s", window: "w"))
        #expect(read.path == [route("A", "\"x\u{FFFD}\""), route("B\u{FFFD}", "1")])
        #expect(read.item == route("I", "\"\u{FFFD}\u{FFFD}\""))
        #expect(try store.windowSummaries().first?.item == read.item)
        var lent: Route?
        try store.forEachListedWindow { lent = $0.item }
        #expect(lent == read.item)
    }
}

/// A listing lends an item, and a restore shares a path's text, without a pass of their own over
/// the UTF-8 when the scan that checked the shape saw only ASCII. A byte past ASCII in any string
/// it scans — a type, a key, a value, short (read byte by byte) or long (eight bytes at a time),
/// plain or escaped — is still told: well-formed, it is lent as stored; not, it reads repaired,
/// as a window's read repairs it.
struct StoredTextUTF8Tests {
    let folder = TemporaryFolder()

    /// Where the byte stands in `{"type":…,"value":…}`.
    enum Place: String, CaseIterable, CustomTestStringConvertible {
        case shortType, longType, shortKey, longKey, shortValue, longValue, escapedValue
        var testDescription: String { rawValue }

        func route(_ byte: [UInt8]) -> [UInt8] {
            func text(_ text: String) -> [UInt8] { Array(text.utf8) }
            let long = text("a-long-run-of-text-")
            switch self {
            case .shortType: return text(#"{"type":"T"#) + byte + text(#"","value":1}"#)
            case .longType: return text(#"{"type":"T"#) + long + byte + long + text(#"","value":1}"#)
            case .shortKey: return text(#"{"type":"T","value":{""#) + byte + text(#"":1}}"#)
            case .longKey: return text(#"{"type":"T","value":{"id":7,""#) + long + byte + text(#"":[1]}}"#)
            case .shortValue: return text(#"{"type":"T","value":[""#) + byte + text(#""]}"#)
            case .longValue: return text(#"{"type":"T","value":{"id":7,"k":""#) + long + byte + long + text(#""}}"#)
            case .escapedValue: return text(#"{"type":"T","value":"\n"#) + byte + text(#"\""}"#)
            }
        }
    }

    @Test(arguments: Place.allCases, [[0xC3, 0xA9], [0xF0, 0x9F, 0x93, 0xAC], [0xFF], [0xC3], [0xED, 0xA0, 0x80]])
    func aByteBeyondASCIIIsToldWhereverItStands(_ place: Place, _ byte: [UInt8]) throws {
        let store = try WindowStore(path: folder.file("store.db"))
        try store.save(WindowState(session: "s", window: "w", item: route("I")))
        let item = place.route(byte)
        let path = Array("[".utf8) + item + Array(",".utf8) + item + Array("]".utf8)
        try rawSQL(
            folder.file("store.db"),
            "UPDATE windows SET path = CAST(X'\(hex(path))' AS TEXT), item = CAST(X'\(hex(item))' AS TEXT)")
        let wellFormed = isWellFormedUTF8(item)
        let read = try #require(try store.window(session: "s", window: "w"))
        let readItem = try #require(read.item)
        #expect(read.path == [readItem, readItem])
        #expect(readItem.description.contains("\u{FFFD}") == !wellFormed)
        if wellFormed { #expect(readItem.description.contains(String(decoding: byte, as: UTF8.self))) }
        var lent: (json: [UInt8], item: Route?)?
        try store.forEachListedWindow { window in
            lent = (window.withItemJSON { Array($0) } ?? [], window.item)
        }
        let listed = try #require(lent)
        #expect(listed.item == readItem)
        #expect(isWellFormedUTF8(listed.json), "lent bytes are UTF-8")
        if wellFormed { #expect(listed.json == item, "lent as stored") }
        #expect(try store.windowSummaries().first?.item == readItem)
    }
}

/// The hex of `bytes`, for an SQL blob literal.
private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}
