import StateStore
import Testing

/// Hostile import documents (`StateDocument(utf8:)`, then `importDocument`): refused whole with
/// a clear error and nothing written, or every window stored as given.
struct HostileImportTests {
    static func document(_ windows: String) -> String { #"{"format":"statectl/1","windows":[\#(windows)]}"# }
    static let window = #"{"session":"s","window":"w"}"#

    static let refused: [(String, [UInt8])] = [
        ("not JSON", Array("format: statectl/1".utf8)),
        ("empty", []),
        ("invalid UTF-8", Array(document(#"{"session":"s","window":"w"#).utf8) + [0xFF, 0x22, 0x7D, 0x5D, 0x7D]),
        ("NUL byte", Array(document(window).utf8) + [0]),
        ("another format", Array(#"{"format":"statectl/2","windows":[]}"#.utf8)),
        ("no format", Array(#"{"windows":[]}"#.utf8)),
        ("format twice", Array(#"{"format":"statectl/1","format":"statectl/1","windows":[]}"#.utf8)),
        ("an unknown key", Array(#"{"format":"statectl/1","windows":[],"extra":1}"#.utf8)),
        ("a window with an unknown key", Array(document(#"{"session":"s","window":"w","colour":"red"}"#).utf8)),
        ("a window with a key twice", Array(document(#"{"session":"s","session":"t","window":"w"}"#).utf8)),
        ("a window twice", Array(document(window + "," + window).utf8)),
        ("itemPath without item", Array(document(#"{"session":"s","window":"w","itemPath":[{"type":"A"}]}"#).utf8)),
        (
            "a route with type twice",
            Array(document(#"{"session":"s","window":"w","path":[{"type":"A","type":"B"}]}"#).utf8)
        ),
        ("a route without a type", Array(document(#"{"session":"s","window":"w","path":[{"value":1}]}"#).utf8)),
        ("a session with a control character", Array(document(#"{"session":"s\u0007","window":"w"}"#).utf8)),
        ("a NUL escape in a window id", Array(document(#"{"session":"s","window":"\u0000"}"#).utf8)),
        ("a lone surrogate escape in an id", Array(document(#"{"session":"\ud800","window":"w"}"#).utf8)),
        ("a size class in capitals", Array(document(#"{"session":"s","window":"w","sizeClass":"Regular"}"#).utf8)),
        (
            "nested 10,000 deep",
            Array(
                document(
                    #"{"session":"s","window":"w","item":{"type":"D","value":"#
                        + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}}"
                ).utf8)
        ),
        (
            "a 10 MB value",
            Array(
                document(
                    #"{"session":"s","window":"w","item":{"type":"B","value":""#
                        + String(repeating: "v", count: 10_000_000) + "\"}}"
                ).utf8)
        ),
        (
            "513 routes",
            Array(
                document(
                    #"{"session":"s","window":"w","path":["#
                        + Array(repeating: #"{"type":"R"}"#, count: 513).joined(separator: ",") + "]}"
                ).utf8)
        ),
        ("a good window, then a bad one", Array(document(window + #",{"session":"","window":"w"}"#).utf8)),
        ("trailing text", Array((document(window) + " {}").utf8)),
    ]

    @Test func refusedWholeWithNothingWritten() throws {
        let folder = TemporaryFolder()
        let path = try HostileInputTests.seededDatabase(in: folder)
        let store = try WindowStore(path: path)
        let before = try rawDump(path)
        for (name, bytes) in Self.refused {
            #expect("\(name)") {
                try store.importDocument(try StateDocument(utf8: bytes))
            } throws: { error in
                guard case .invalidInput(let message) = error as? StateStoreError else { return false }
                return message.hasPrefix("import document")
            }
        }
        #expect(try rawDump(path) == before, "nothing written")
    }

    /// Ids that Swift compares as equal but that are different bytes are different windows: an
    /// export of a store holding both imports again.
    @Test func canonicallyEquivalentIdsAreTwoWindows() throws {
        let folder = TemporaryFolder()
        let store = try WindowStore(path: folder.file("export.db"))
        try store.save(WindowState(session: "s", window: "e\u{301}", sizeClass: .compact))
        try store.save(WindowState(session: "s", window: "\u{E9}", sizeClass: .regular))
        var exported: [UInt8] = []
        try store.export { exported += $0 }
        let document = try StateDocument(utf8: exported)
        #expect(document.windows.map { Array($0.window.utf8) } == [[0x65, 0xCC, 0x81], [0xC3, 0xA9]])
        let copy = try WindowStore(path: folder.file("import.db"))
        try copy.importDocument(document)
        let windows = try copy.windows(session: "s").map { (Array($0.window.utf8), $0.sizeClass) }
        #expect(windows.count == 2)
        #expect(windows.contains { $0.0 == [0x65, 0xCC, 0x81] && $0.1 == .compact })
        #expect(windows.contains { $0.0 == [0xC3, 0xA9] && $0.1 == .regular })

        // Sessions likewise: naming both exports both.
        try store.save(WindowState(session: "e\u{301}", window: "w"))
        try store.save(WindowState(session: "\u{E9}", window: "w"))
        var named: [UInt8] = []
        try store.export(sessions: ["\u{E9}", "e\u{301}"]) { named += $0 }
        #expect(
            try StateDocument(utf8: named).windows.map { Array($0.session.utf8) } == [
                [0x65, 0xCC, 0x81], [0xC3, 0xA9],
            ])
    }

    /// Values kept exactly as written through export and import: `1e999`, duplicate keys,
    /// escapes, SQL in ids.
    @Test func hostileButValidWindowsRoundTrip() throws {
        let folder = TemporaryFolder()
        let text = HostileImportTests.document(
            #"{"session":"'; DROP TABLE windows; --","window":"\" OR 1=1","path":[{"type":"N","value":1e999},"#
                + #"{"type":"D","value":{"a":1,"a":2}},{"type":"S","value":"\u0000\ud83d\ude80"}],"#
                + #""item":{"type":"E","value":-0.0E-0},"itemPath":[{"type":"Deep","value":"#
                + String(repeating: "[", count: 512) + String(repeating: "]", count: 512) + "}]}")
        let store = try WindowStore(path: folder.file("round.db"))
        let stored = try store.importDocument(try StateDocument(parsing: text))
        #expect(stored.map(\.revision) == [1])
        let state = try #require(try store.window(session: "'; DROP TABLE windows; --", window: "\" OR 1=1"))
        #expect(state.path.map(\.json) == ["1e999", #"{"a":1,"a":2}"#, #""\u0000\ud83d\ude80""#])
        #expect(state.item?.json == "-0.0E-0")
        #expect(state.itemPath.first?.json.utf8.count == 1024)
    }
}
