import CSQLite
import Foundation
import StateStore
import Testing

struct RouteTests {
    @Test(
        "values are minified: whitespace out, everything else as written",
        arguments: [
            (" { \"b\" : 1 ,\n\t\"a\" : [ 1.50 , -0 , 1e999 ] } ", #"{"b":1,"a":[1.50,-0,1e999]}"#),
            (#" "a string with  spaces and \" \\u00e9 \n" "#, #""a string with  spaces and \" \\u00e9 \n""#),
            ("null", "null"),
            (" true ", "true"),
            (#"{"k":1,"k":2}"#, #"{"k":1,"k":2}"#),
            ("[ ]", "[]"),
            ("{\r\n}", "{}"),
            (#""é😀\u00e9""#, #""é😀\u00e9""#),
        ])
    func minifies(_ input: String, _ expected: String) throws {
        #expect(try Route(type: "T", json: input).json == expected)
    }

    @Test(
        "invalid JSON is refused",
        arguments: [
            "", " ", "{", "[1,]", "{\"a\":}", "{a:1}", "'x'", "01", "1.", ".5", "+1", "1e", "--1", "tru", "nul",
            "\"unterminated", "\"bad \\x escape\"", "\"\\u12\"", "\"tab\tinside\"", "1 2", "[1] x", "{\"a\" 1}",
            "NaN", "Infinity", "[1}", "{\"a\":1]", "\u{1}",
        ])
    func refusesInvalidJSON(_ input: String) {
        #expect(throws: StateStoreError.self) { try Route(type: "T", json: input) }
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try Route(type: "T", json: deep).json == deep)
        let tooDeep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: StateStoreError.self) { try Route(type: "T", json: tooDeep) }
    }

    @Test func valueLimitIsSixtyFourKiB() throws {
        let atLimit = "\"" + String(repeating: "x", count: Limits.routeValueBytes - 2) + "\""
        #expect(try Route(type: "T", json: atLimit).json.utf8.count == Limits.routeValueBytes)
        // Whitespace does not count: the limit is on the minified text.
        #expect(try Route(type: "T", json: "  " + atLimit + "  ").json == atLimit)
        let over = "\"" + String(repeating: "x", count: Limits.routeValueBytes - 1) + "\""
        #expect(throws: StateStoreError.self) { try Route(type: "T", json: over) }
    }

    @Test(
        "route types follow the id rules",
        arguments: ["", String(repeating: "a", count: 257), "a\u{0}b", "tab\there", "del\u{7F}", "c1\u{85}"])
    func refusesBadTypes(_ type: String) {
        #expect(throws: StateStoreError.self) { try Route(type: type) }
    }

    @Test func acceptsTypesAtTheLimit() throws {
        let type = String(repeating: "é", count: 128)  // 256 bytes
        #expect(try Route(type: type).type == type)
        #expect(try Route(type: "MailApp.Thread").json == "null")
    }

    @Test(
        "command-line syntax: TYPE or TYPE:JSON split at the first colon",
        arguments: [
            ("Settings", "Settings", "null"),
            (#"Folder:"inbox""#, "Folder", #""inbox""#),
            (#"Thread:{"id":42}"#, "Thread", #"{"id":42}"#),
            (#"Link:"http://x""#, "Link", #""http://x""#),
            ("App.Tab: [ 1 ]", "App.Tab", "[1]"),
            (#"{"type":"(a: Swift.Int, b: Swift.Int)","value":[1, 2]}"#, "(a: Swift.Int, b: Swift.Int)", "[1,2]"),
            (#"{"type":"{odd"}"#, "{odd", "null"),
            (#"{"value":"v","type":"Plain"}"#, "Plain", #""v""#),
        ])
    func parsesCommandLineRoutes(_ argument: String, _ type: String, _ json: String) throws {
        let route = try Route(parsing: argument)
        #expect(route.type == type)
        #expect(route.json == json)
        #expect(try Route(parsing: route.description) == route)
    }

    @Test func typesTheShortFormWouldMisreadArePrintedAsObjects() throws {
        #expect(route("(a: Swift.Int)", "[1]").description == #"{"type":"(a: Swift.Int)","value":[1]}"#)
        #expect(route("{odd").description == #"{"type":"{odd","value":null}"#)
        #expect(
            route("Swift.Dictionary<Swift.String, Swift.Int>").description
                == "Swift.Dictionary<Swift.String, Swift.Int>")
        #expect(route("Thread", #"{"id":42}"#).description == #"Thread:{"id":42}"#)
    }

    @Test(
        "bad command-line routes",
        arguments: [
            "Folder:", ":1", "", "Thread:{id:42}", "T:nope", #"{"type":"A","x":1}"#, #"{"value":1}"#,
            #"{"type":"A"} 1"#,
        ])
    func refusesBadCommandLineRoutes(_ argument: String) {
        #expect(throws: StateStoreError.self) { try Route(parsing: argument) }
    }

    @Test func codableNestsTheValueAsJSON() throws {
        let original = try Route(type: "Thread", json: #"{"id":42,"tags":["a",null,true],"ratio":0.5}"#)
        let data = try JSONEncoder().encode(original)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["type"] as? String == "Thread")
        let value = try #require(object["value"] as? [String: Any])
        #expect(value["id"] as? Int == 42)
        let decoded = try JSONDecoder().decode(Route.self, from: data)
        #expect(decoded.type == "Thread")
        let reparsed = try #require(try JSONSerialization.jsonObject(with: Data(decoded.json.utf8)) as? [String: Any])
        #expect(reparsed["tags"] as? [Any?] != nil)
        #expect(reparsed["ratio"] as? Double == 0.5)
    }

    /// SQLite's json() minifies as SPEC §2 asks; our scanner must agree on every valid input.
    @Test func minifyAgreesWithSQLite() throws {
        var generator = SystemRandomNumberGenerator()
        var handle: OpaquePointer?
        #expect(sqlite3_open(":memory:", &handle) == SQLITE_OK)
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        #expect(sqlite3_prepare_v2(handle, "SELECT json(?1)", -1, &statement, nil) == SQLITE_OK)
        defer { sqlite3_finalize(statement) }
        for _ in 0..<500 {
            let text = randomJSON(depth: 0, &generator)
            sqlite3_bind_text(statement, 1, text, -1, csqlite_transient())
            #expect(sqlite3_step(statement) == SQLITE_ROW)
            let expected = String(cString: sqlite3_column_text(statement, 0))
            sqlite3_reset(statement)
            #expect(try Route(type: "T", json: text).json == expected, "\(text)")
        }
    }

    private func randomJSON(depth: Int, _ g: inout SystemRandomNumberGenerator) -> String {
        let space = [" ", "", "\n  ", "\t", ""]
        func ws() -> String { space.randomElement(using: &g)! }
        let pick = depth > 3 ? Int.random(in: 0..<5, using: &g) : Int.random(in: 0..<7, using: &g)
        switch pick {
        case 0: return ["null", "true", "false"].randomElement(using: &g)!
        case 1:
            return ["0", "-0", "12", "1.50", "-3.25e+10", "1E-7", "1e999", "123456789012345678901234567890"]
                .randomElement(using: &g)!
        case 2:
            return ["\"\"", "\"a b\"", "\"\\u00e9\\n\"", "\"é 😀\"", "\"q\\\"uote\"", "\"\\/\""].randomElement(
                using: &g)!
        case 3, 4: return ["\"x\"", "7"].randomElement(using: &g)!
        case 5:
            let items = (0..<Int.random(in: 0..<4, using: &g)).map { _ in ws() + randomJSON(depth: depth + 1, &g) + ws()
            }
            return "[" + ws() + items.joined(separator: ",") + ws() + "]"
        default:
            let members = (0..<Int.random(in: 0..<4, using: &g)).map { i in
                ws() + "\"k\(i % 2)\"" + ws() + ":" + ws() + randomJSON(depth: depth + 1, &g) + ws()
            }
            return "{" + ws() + members.joined(separator: ",") + ws() + "}"
        }
    }
}

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

struct TimestampTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (1_796_017_514_123, "2026-11-30T05:45:14.123Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func formatsAndParsesRFC3339(_ milliseconds: Int64, _ text: String) {
        let timestamp = Timestamp(millisecondsSince1970: milliseconds)
        #expect(timestamp.description == text)
        #expect(Timestamp(rfc3339: text) == timestamp)
    }

    @Test func agreesWithFoundationsCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for _ in 0..<200 {
            let seconds = Int64.random(in: 0..<4_102_444_800)
            let parts = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.000Z", parts.year!, parts.month!, parts.day!, parts.hour!,
                parts.minute!, parts.second!)
            #expect(Timestamp(millisecondsSince1970: seconds * 1000).description == expected)
        }
    }

    @Test(arguments: [
        "", "2026-11-30", "2026-13-01T00:00:00Z", "2026-11-30T25:00:00Z", "2026-11-30T05:45:14.123+01:00",
    ])
    func refusesOtherForms(_ text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
    }
}

struct ErrorTests {
    /// Each case reads as a sentence naming what failed; statectl sorts the cases into exit
    /// statuses itself (its tests run the binary).
    @Test func everyCaseHasAMessage() {
        let failure = SQLiteFailure(code: .busy, message: "locked")
        let cases: [(StateStoreError, String)] = [
            (.conflict(session: "s", window: "w", expected: 1, actual: 2), "window 's' 'w' is at revision 2, not 1"),
            (.invalidInput("bad"), "bad"),
            (.notOurs(path: "p"), "p is a SQLite database that does not belong to StateStore"),
            (.notFound(.session("s")), "session 's' not found (it has no windows)"),
            (.notFound(.window(session: "s", window: "w")), "window 's' 'w' not found"),
            (
                .notFound(.revision(session: "s", window: "w", revision: 9, kept: 3...5)),
                "revision 9 of window 's' 'w' not found (kept: 3–5)"
            ),
            (.notFound(.revision(session: "s", window: "w", revision: 9, kept: nil)), "(kept: none)"),
            (.notFound(.file(path: "p")), "no database at p"),
            (.notADatabase(path: "p"), "p is not a database (SQLite code 26)"),
            (
                .damaged(SQLiteFailure(code: .corrupt, message: "torn", sql: "SELECT 1")),
                "torn (SQLite code 11) in: SELECT 1"
            ),
            (.io(SQLiteFailure(code: .full, message: "full")), "full (SQLite code 13)"),
            (.replaced(path: "p"), "p was replaced or deleted while open"),
            (.busy(failure), "database is busy (locked by another connection past the busy timeout): locked"),
            (.newerSchema(path: "p", found: 9, supported: 1), "p has schema version 9, newer than this build's 1"),
            (.alreadyExists("there"), "there"),
        ]
        for (error, text) in cases {
            #expect(error.description.hasPrefix(text) || error.description.hasSuffix(text), "\(error)")
        }
    }

    @Test func resultCodesHaveTheirNumbersAndPrimaryCodes() {
        #expect(SQLiteResultCode.ioErr.rawValue == 10)
        #expect(SQLiteResultCode.corrupt.rawValue == 11)
        #expect(SQLiteResultCode.notADatabase.rawValue == 26)
        #expect(SQLiteResultCode.ioErrShortRead.rawValue == 522)
        #expect(SQLiteResultCode.ioErrShortRead.primary == .ioErr)
        #expect(SQLiteResultCode.readOnlyDatabaseMoved.rawValue == 1032)
        #expect(SQLiteResultCode.readOnlyDatabaseMoved.primary == .readOnly)
        #expect(SQLiteResultCode.busy.primary == .busy)
        #expect(SQLiteFailure(code: .ok, message: "found by the store").description == "found by the store")
    }
}
