import Foundation
import StateStore
import StateStoreSQLite
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

    /// Ids are checked eight bytes at a time, the last word overlapping and a short one filled
    /// out: every ASCII byte at every place of every length around those words is judged as the
    /// rule says, and so are a few that are not ASCII.
    @Test func everyByteAnywhereInAnIdIsJudgedByTheRule() {
        let lengths = Array(1...24) + [256]
        for length in lengths {
            for place in 0..<length {
                for byte in UInt8(0)...UInt8(0x7F) {
                    var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                    bytes[place] = byte
                    let type = String(decoding: bytes, as: UTF8.self)
                    let allowed = byte >= 0x20 && byte != 0x7F
                    let accepted = (try? Route(type: type)) != nil
                    #expect(accepted == allowed, "byte \(byte) at \(place) of \(length)")
                }
                // Beyond ASCII: a letter passes, a C1 control character does not.
                let before = String(repeating: "a", count: place)
                let after = String(repeating: "a", count: max(0, length - place - 2))
                if place + 2 <= length {
                    #expect((try? Route(type: before + "é" + after)) != nil, "é at \(place) of \(length)")
                    #expect((try? Route(type: before + "\u{85}" + after)) == nil, "U+0085 at \(place) of \(length)")
                }
            }
        }
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

    /// SQLite's json() minifies as a stored value must be (whitespace outside strings removed,
    /// everything else kept as written); our scanner must agree on every valid input.
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
            sqlite3_bind_text(statement, 1, text, -1, statestore_sqlite_transient())
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
