import Foundation
import StateStore
import Testing

/// Hostile input through the library and through the `statectl` binary: each input is either
/// refused with a clear error (its exit code, `Error: …` on stderr) and nothing written, or
/// stored and read back byte for byte. Never a crash, never a partial write.
struct HostileInputTests {
    enum Expect: Sendable, Equatable {
        /// Stored; reads back with the same bytes (a route value minified).
        case stored
        /// Refused with this exit code; nothing written.
        case refused(Int32)
    }

    /// One input: a window's ids and the routes pushed onto it, as command-line bytes
    /// (`TYPE` or `TYPE:JSON`). The library gets the same text as Swift strings: bytes that are
    /// not UTF-8 cannot reach it unrepaired, so its expectation may differ from the binary's.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var session: [UInt8] = Array("s".utf8)
        var window: [UInt8] = Array("w".utf8)
        var routes: [[UInt8]] = [Array("A".utf8)]
        /// The stored value of each route when it differs from the text after the `:`.
        var storedValues: [String]? = nil
        var library: Expect
        var binary: Expect
        /// Pass the ids after `--`, for ids that look like options.
        var idsAfterDoubleDash = false

        var testDescription: String { name }
    }

    static func text(_ string: String) -> [UInt8] { Array(string.utf8) }
    static func argument(_ type: String, _ json: String) -> [UInt8] { text(type + ":" + json) }
    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    static let cases: [Case] = [
        // Ids.
        Case(name: "plain ids", library: .stored, binary: .stored),
        Case(
            name: "control byte U+0001 in a session", session: text("a\u{1}b"), library: .refused(65),
            binary: .refused(65)),
        Case(name: "tab in a window id", window: text("a\tb"), library: .refused(65), binary: .refused(65)),
        Case(name: "newline in a window id", window: text("a\nb"), library: .refused(65), binary: .refused(65)),
        Case(
            name: "escape (U+001B) in a session", session: text("\u{1B}[31mred"), library: .refused(65),
            binary: .refused(65)),
        Case(name: "DEL in a session", session: text("a\u{7F}"), library: .refused(65), binary: .refused(65)),
        Case(
            name: "C1 control U+0085 in a window id", window: text("a\u{85}"), library: .refused(65),
            binary: .refused(65)),
        Case(
            name: "C1 control U+009F in a window id", window: text("\u{9F}"), library: .refused(65),
            binary: .refused(65)),
        Case(name: "no-break space (not a control)", session: text("a\u{A0}b"), library: .stored, binary: .stored),
        Case(name: "empty session", session: [], library: .refused(65), binary: .refused(65)),
        Case(name: "empty window id", window: [], library: .refused(65), binary: .refused(65)),
        Case(name: "256-byte id", session: text(String(repeating: "s", count: 256)), library: .stored, binary: .stored),
        Case(
            name: "257-byte id", session: text(String(repeating: "s", count: 257)), library: .refused(65),
            binary: .refused(65)),
        Case(
            name: "256 bytes ending in a 2-byte character",
            window: text(String(repeating: "w", count: 254) + "é"), library: .stored, binary: .stored),
        Case(
            name: "257 bytes ending in a 2-byte character",
            window: text(String(repeating: "w", count: 255) + "é"), library: .refused(65), binary: .refused(65)),
        Case(name: "invalid UTF-8: 0xFF in a session", session: [0x61, 0xFF], library: .stored, binary: .refused(65)),
        Case(
            name: "invalid UTF-8: overlong '/' in a window id", window: [0xC0, 0xAF], library: .stored,
            binary: .refused(65)),
        Case(
            name: "invalid UTF-8: encoded surrogate in a window id", window: [0xED, 0xA0, 0x80], library: .stored,
            binary: .refused(65)),
        Case(
            name: "invalid UTF-8: truncated sequence", session: [0x73, 0xE2, 0x82], library: .stored,
            binary: .refused(65)),
        Case(
            name: "SQL: quote and DROP TABLE", session: text("'; DROP TABLE windows; --"), library: .stored,
            binary: .stored),
        Case(name: "SQL: OR 1=1", window: text("\" OR \"1\"=\"1"), library: .stored, binary: .stored),
        Case(name: "SQL: LIKE and GLOB wildcards", session: text("%_*?[a-z]"), library: .stored, binary: .stored),
        Case(name: "SQL: parameter syntax", window: text("?1 :name @x $y ?"), library: .stored, binary: .stored),
        Case(name: "backslashes and quotes", session: text(#"\\x00 \" \n"#), library: .stored, binary: .stored),
        Case(name: "emoji with joiners", session: text("👩‍👩‍👧 🚀"), library: .stored, binary: .stored),
        Case(name: "right-to-left override", window: text("\u{202E}txt.exe"), library: .stored, binary: .stored),
        Case(name: "byte order mark", session: text("\u{FEFF}s"), library: .stored, binary: .stored),
        Case(
            name: "noncharacters U+FFFF and U+10FFFF", window: text("\u{FFFF}\u{10FFFF}"), library: .stored,
            binary: .stored),
        Case(
            name: "id that looks like an option", session: text("--db"), library: .stored, binary: .stored,
            idsAfterDoubleDash: true),
        Case(name: "id '-'", window: text("-"), library: .stored, binary: .stored),
        // Route values.
        Case(name: "1e999", routes: [argument("N", "1e999")], library: .stored, binary: .stored),
        Case(
            name: "-0 and 1E-400", routes: [argument("N", "-0"), argument("M", "1E-400")], library: .stored,
            binary: .stored),
        Case(
            name: "30-digit integer", routes: [argument("N", "123456789012345678901234567890")], library: .stored,
            binary: .stored),
        Case(name: "duplicate keys", routes: [argument("D", #"{"a":1,"a":2}"#)], library: .stored, binary: .stored),
        Case(
            name: "whitespace outside strings is minified", routes: [argument("W", " { \"a b\" : [ 1 ,\t2 ]\n} ")],
            storedValues: [#"{"a b":[1,2]}"#], library: .stored, binary: .stored),
        Case(
            name: "escaped NUL in a string", routes: [argument("S", #""a\u0000b""#)], library: .stored, binary: .stored),
        Case(
            name: "lone surrogate escape (valid JSON text)", routes: [argument("S", #""\ud800""#)], library: .stored,
            binary: .stored),
        Case(
            name: "raw control byte in a JSON string", routes: [argument("S", "\"a\u{1}b\"")], library: .refused(65),
            binary: .refused(65)),
        Case(
            name: "invalid UTF-8 in a JSON string", routes: [text("S:\"") + [0xFF] + text("\"")], library: .stored,
            binary: .refused(65)),
        Case(name: "invalid UTF-8 in a route type", routes: [[0x41, 0xFE]], library: .stored, binary: .refused(65)),
        Case(
            name: "JSON nested 10,000 deep", routes: [argument("Deep", nested(10_000))], library: .refused(65),
            binary: .refused(65)),
        Case(
            name: "JSON nested 512 deep (the limit)", routes: [argument("Deep", nested(512))], library: .stored,
            binary: .stored),
        Case(
            name: "JSON nested 513 deep", routes: [argument("Deep", nested(513))], library: .refused(65),
            binary: .refused(65)),
        Case(
            name: "value of exactly 64 KiB",
            routes: [argument("Big", "\"" + String(repeating: "v", count: 64 * 1024 - 2) + "\"")], library: .stored,
            binary: .stored),
        Case(
            name: "value of 64 KiB + 1",
            routes: [argument("Big", "\"" + String(repeating: "v", count: 64 * 1024 - 1) + "\"")],
            library: .refused(65), binary: .refused(65)),
        Case(name: "NaN", routes: [argument("N", "NaN")], library: .refused(65), binary: .refused(65)),
        Case(name: "Infinity", routes: [argument("N", "-Infinity")], library: .refused(65), binary: .refused(65)),
        Case(
            name: "leading plus, leading zero", routes: [argument("N", "+1"), argument("M", "01")],
            library: .refused(65), binary: .refused(65)),
        Case(
            name: "bare fraction and exponent", routes: [argument("N", ".5e")], library: .refused(65),
            binary: .refused(65)),
        Case(name: "hexadecimal", routes: [argument("N", "0x10")], library: .refused(65), binary: .refused(65)),
        Case(name: "two values", routes: [argument("N", "1 2")], library: .refused(65), binary: .refused(65)),
        Case(name: "trailing comma", routes: [argument("A", "[1,]")], library: .refused(65), binary: .refused(65)),
        Case(name: "single quotes", routes: [argument("O", "{'a':1}")], library: .refused(65), binary: .refused(65)),
        Case(
            name: "unterminated string", routes: [argument("S", "\"abc")], library: .refused(65), binary: .refused(65)),
        Case(name: "unclosed array", routes: [argument("A", "[[1]")], library: .refused(65), binary: .refused(65)),
        Case(name: "invalid escape", routes: [argument("S", #""\x41""#)], library: .refused(65), binary: .refused(65)),
        Case(
            name: "short \\u escape", routes: [argument("S", #""\u12""#)], library: .refused(65), binary: .refused(65)),
        Case(
            name: "byte order mark before JSON", routes: [argument("S", "\u{FEFF}1")], library: .refused(65),
            binary: .refused(65)),
        Case(name: "comment in JSON", routes: [argument("S", "1 // one")], library: .refused(65), binary: .refused(65)),
        Case(name: "TYPE: with nothing after", routes: [text("Thread:")], library: .refused(65), binary: .refused(65)),
        Case(name: "empty route type", routes: [text(":1")], library: .refused(65), binary: .refused(65)),
        Case(
            name: "control byte in a route type", routes: [text("A\u{7}:1")], library: .refused(65),
            binary: .refused(65)),
        Case(
            name: "257-byte route type", routes: [text(String(repeating: "T", count: 257))], library: .refused(65),
            binary: .refused(65)),
        Case(
            name: "SQL in a route type", routes: [text("x'); DELETE FROM windows; --:null")], library: .stored,
            binary: .stored),
        Case(
            name: "512 routes (the limit)", routes: Array(repeating: text("R"), count: 512), library: .stored,
            binary: .stored),
        Case(
            name: "513 routes", routes: Array(repeating: text("R"), count: 513), library: .refused(65),
            binary: .refused(65)),
        Case(
            name: "a window over 1 MiB of JSON",
            routes: Array(repeating: argument("Big", "\"" + String(repeating: "v", count: 65_000) + "\""), count: 17),
            library: .refused(65), binary: .refused(65)),
        Case(
            name: "a valid route then a bad one: all or nothing", routes: [text("Good"), argument("Bad", "{")],
            library: .refused(65), binary: .refused(65)),
    ]

    /// A database holding one other window, so that "nothing written" is checked against data.
    static func seededDatabase(in folder: TemporaryFolder) throws -> String {
        let path = folder.file("hostile.db")
        try WindowStore(path: path).save(
            WindowState(session: "base", window: "w", sizeClass: .regular, path: [try Route(type: "Keep", json: "1")]))
        return path
    }

    /// The routes a case's arguments should be stored as, from bytes the library would see.
    static func expectedRoutes(_ hostile: Case) -> [(type: [UInt8], json: [UInt8])] {
        hostile.routes.enumerated().map { index, argument in
            let text = String(decoding: argument, as: UTF8.self)
            let colon = text.firstIndex(of: ":")
            let type = colon.map { String(text[..<$0]) } ?? text
            let json = hostile.storedValues?[index] ?? colon.map { String(text[text.index(after: $0)...]) } ?? "null"
            return (Array(type.utf8), Array(json.utf8))
        }
    }

    static func expectStored(_ hostile: Case, in path: String, _ channel: String) throws {
        let session = String(decoding: hostile.session, as: UTF8.self)
        let window = String(decoding: hostile.window, as: UTF8.self)
        let store = try WindowStore(path: path)
        let windows = try store.windows(session: session)
        // Compared as bytes: Swift's == would take "é" and "e\u{301}" as equal.
        let state = try #require(
            windows.first { Array($0.window.utf8) == Array(window.utf8) }, "\(channel): \(hostile.name): stored")
        #expect(Array(state.session.utf8) == Array(session.utf8), "\(channel): \(hostile.name)")
        let expected = expectedRoutes(hostile)
        #expect(state.path.count == expected.count, "\(channel): \(hostile.name)")
        for (route, want) in zip(state.path, expected) {
            #expect(Array(route.type.utf8) == want.type, "\(channel): \(hostile.name): type")
            #expect(Array(route.json.utf8) == want.json, "\(channel): \(hostile.name): value")
        }
        #expect(state.revision == 1)
        #expect(try store.check().isOK)
    }

    // MARK: Library

    @Test(arguments: cases)
    func throughTheLibrary(_ hostile: Case) throws {
        let folder = TemporaryFolder()
        let path = try Self.seededDatabase(in: folder)
        let before = try rawDump(path)
        let session = String(decoding: hostile.session, as: UTF8.self)
        let window = String(decoding: hostile.window, as: UTF8.self)
        let outcome = Result { () throws -> WindowState in
            let routes = try hostile.routes.map { bytes throws(StateStoreError) in
                try Route(parsing: String(decoding: bytes, as: UTF8.self))
            }
            return try WindowStore(path: path).update(session: session, window: window) { state in
                for route in routes { state.push(route) }
            }
        }
        switch (hostile.library, outcome) {
        case (.stored, .success):
            try Self.expectStored(hostile, in: path, "library")
        case (.refused(let code), .failure(let error)):
            // The library refuses all of them as bad data (statectl's 65).
            #expect(code == 65 && (error as? StateStoreError)?.isInvalidInput == true, "\(hostile.name): \(error)")
            #expect(!String(describing: error).isEmpty)
            #expect(try rawDump(path) == before, "\(hostile.name): nothing written")
        case (let expected, let outcome):
            Issue.record("\(hostile.name): expected \(expected), got \(outcome)")
        }
    }

    // MARK: Binary

    @Test(arguments: cases)
    func throughTheBinary(_ hostile: Case) throws {
        let folder = TemporaryFolder()
        let path = try Self.seededDatabase(in: folder)
        let before = try rawDump(path)
        var arguments: [[UInt8]] = [Self.text("--db"), Self.text(path), Self.text("set")]
        let pushes = hostile.routes.flatMap { [Self.text("--push"), $0] }
        if hostile.idsAfterDoubleDash {
            arguments += pushes + [Self.text("--"), hostile.session, hostile.window]
        } else {
            arguments += [hostile.session, hostile.window] + pushes
        }
        let outcome = try run(statectlPath, arguments)
        switch hostile.binary {
        case .stored:
            #expect(outcome.status == 0, "\(hostile.name): \(outcome.err)")
            #expect(outcome.stderr.isEmpty, "\(hostile.name)")
            try Self.expectStored(hostile, in: path, "binary")
            // And out again, through `show --json`, value bytes as stored.
            let shown = try run(
                statectlPath,
                [Self.text("--db"), Self.text(path), Self.text("show"), Self.text("--json"), Self.text("--")]
                    + [hostile.session, hostile.window])
            #expect(shown.status == 0, "\(hostile.name): \(shown.err)")
            for want in Self.expectedRoutes(hostile) {
                #expect(shown.stdout.contains(Self.text(#""value":"#) + want.json), "\(hostile.name): shown as stored")
            }
        case .refused(let code):
            #expect(outcome.termination == .exited(code), "\(hostile.name): \(outcome.err)")
            #expect(outcome.err.hasPrefix("Error: "), "\(hostile.name): \(outcome.err)")
            #expect(outcome.stdout.isEmpty, "\(hostile.name)")
            #expect(try rawDump(path) == before, "\(hostile.name): nothing written")
        }
    }

    // MARK: Library only

    /// Inputs the command line cannot carry (NUL, 10 MB in one argument) or that only the API has.
    @Test func libraryOnlyInputs() throws {
        let folder = TemporaryFolder()
        let path = try Self.seededDatabase(in: folder)
        let store = try WindowStore(path: path)
        let before = try rawDump(path)
        let refused: [(String, () throws -> Void)] = [
            ("NUL in a session", { try store.save(WindowState(session: "a\0b", window: "w")) }),
            ("NUL in a window id", { try store.update(session: "s", window: "\0") { _ in } }),
            ("NUL in a route type", { _ = try Route(type: "A\0", json: "1") }),
            ("raw NUL in JSON", { _ = try Route(type: "A", json: "[1,\0]") }),
            (
                "a 10 MB value",
                { _ = try Route(type: "Big", json: "\"" + String(repeating: "v", count: 10_000_000) + "\"") }
            ),
            ("JSON nested 100,000 deep", { _ = try Route(type: "Deep", json: Self.nested(100_000)) }),
            ("empty JSON", { _ = try Route(type: "A", json: "") }),
            ("whitespace-only JSON", { _ = try Route(type: "A", json: " \n\t") }),
            (
                "an item path without an item",
                { try store.save(WindowState(session: "s", window: "w", itemPath: [route("A")])) }
            ),
            (
                "popping past the bottom",
                { try store.update(session: "base", window: "w") { state throws(StateStoreError) in try state.pop(2) } }
            ),
            (
                "pop 0",
                { try store.update(session: "base", window: "w") { state throws(StateStoreError) in try state.pop(0) } }
            ),
            (
                "a negative expected revision",
                { try store.save(WindowState(session: "s", window: "w"), expectedRevision: -1) }
            ),
            (
                "changing the ids inside update",
                { try store.update(session: "base", window: "w") { $0.window = "other" } }
            ),
            (
                "changing an id to a canonically equivalent one inside update",
                { try store.update(session: "s", window: "\u{E9}") { $0.window = "e\u{301}" } }
            ),
            ("a history limit of 0", { _ = try store.history(session: "base", window: "w", limit: 0) }),
            ("an empty database path", { _ = try WindowStore(path: "") }),
        ]
        for (name, body) in refused {
            #expect("\(name)") {
                try body()
            } throws: { ($0 as? StateStoreError)?.isInvalidInput == true }
        }
        #expect(try rawDump(path) == before, "nothing written")

        // A route type with a ':' (only the command line splits at it) and a 1 MiB-limit window.
        let colon = try store.save(
            WindowState(session: "s", window: "colon", path: [try Route(type: "a:b", json: "1")]))
        #expect(try store.window(session: "s", window: "colon")?.path == colon.path)
        // A decomposed and a composed é are two windows, each keeping its bytes.
        try store.save(WindowState(session: "s", window: "e\u{301}", sizeClass: .compact))
        try store.save(WindowState(session: "s", window: "\u{E9}", sizeClass: .regular))
        let windows = try store.windows(session: "s").map { (Array($0.window.utf8), $0.sizeClass) }
        #expect(windows.count == 3)
        #expect(windows.contains { $0.0 == [0x65, 0xCC, 0x81] && $0.1 == .compact })
        #expect(windows.contains { $0.0 == [0xC3, 0xA9] && $0.1 == .regular })

        // replaceSession likewise: two windows, and a session that only looks the same is another.
        let replaced = try store.replaceSession(
            "r", with: [WindowState(session: "r", window: "e\u{301}"), WindowState(session: "r", window: "\u{E9}")])
        #expect(replaced.count == 2)
        #expect(try store.windows(session: "r").count == 2)
        #expect {
            try store.replaceSession("\u{E9}", with: [WindowState(session: "e\u{301}", window: "w")])
        } throws: { ($0 as? StateStoreError)?.isInvalidInput == true }
        #expect(try store.windows(session: "e\u{301}").isEmpty, "nothing written under the other session")
    }

    // MARK: Binary only

    /// Global options and arguments that only the command line has.
    @Test func binaryOnlyInputs() throws {
        let folder = TemporaryFolder()
        let path = try Self.seededDatabase(in: folder)
        let before = try rawDump(path)
        let notSQLite = folder.file("notes.txt")
        try Data(String(repeating: "not a database\n", count: 20).utf8).write(to: URL(fileURLWithPath: notSQLite))
        let cases: [(String, [String], Int32)] = [
            ("--db pointing at a folder", ["--db", folder.path, "set", "s", "w", "--push", "A"], 74),
            ("--db pointing at a folder, reading", ["--db", folder.path, "list"], 74),
            ("--db pointing at a text file", ["--db", notSQLite, "set", "s", "w", "--push", "A"], 74),
            ("--db empty", ["--db", "", "list"], 64),
            ("--busy-timeout negative", ["--db", path, "--busy-timeout", "-1", "set", "s", "w", "--push", "A"], 64),
            ("--busy-timeout past Int64", ["--db", path, "--busy-timeout", "99999999999999999999", "list"], 64),
            ("--pop 0", ["--db", path, "set", "base", "w", "--pop", "0"], 64),
            ("--pop huge", ["--db", path, "set", "base", "w", "--pop", "99999999999999999999"], 64),
            ("--pop past the bottom", ["--db", path, "set", "base", "w", "--pop", "2"], 65),
            (
                "--expect-revision negative",
                ["--db", path, "set", "s", "w", "--push", "A", "--expect-revision", "-1"], 64
            ),
            (
                "--expect-revision that does not match",
                ["--db", path, "set", "base", "w", "--dismiss", "--expect-revision", "7"], 1
            ),
            ("--size-class huge", ["--db", path, "set", "s", "w", "--size-class", "huge"], 64),
            ("--policy with SQL", ["--db", path, "set", "s", "w", "--policy", "migrate' OR '1'='1"], 64),
            ("set without a mutation", ["--db", path, "set", "s", "w"], 64),
            ("an unknown option with SQL", ["--db", path, "list", "--'; DROP TABLE windows"], 64),
        ]
        for (name, arguments, code) in cases {
            let outcome = try statectl(arguments)
            #expect(outcome.termination == .exited(code), "\(name): \(outcome.err)")
            #expect(outcome.err.hasPrefix("Error: "), "\(name): \(outcome.err)")
        }
        #expect(try rawDump(path) == before, "nothing written")
        // No file created anywhere (a read-only connection of `rawDump` may leave hostile.db's WAL).
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files.filter { !$0.hasPrefix("hostile.db-") } == ["hostile.db", "notes.txt"], "\(files)")
    }
}
