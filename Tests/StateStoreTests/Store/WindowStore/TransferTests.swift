import Foundation
import StateStore
import Testing

struct TransferTests {
    static func sample(_ store: WindowStore) throws {
        try store.save(
            WindowState(
                session: "mail", window: "main", sizeClass: .regular, path: [route("Folder", #""inbox""#)],
                item: route("Thread", #"{"id":42, "x":1.50}"#), itemPath: [route("Attachment", #""a.pdf""#)]))
        try store.save(WindowState(session: "mail", window: "compose", sizeClass: .compact, policy: .dismiss))
        try store.save(WindowState(session: "notes", window: "é", path: [route("N", "[]")]))
    }

    static func exported(_ store: WindowStore, _ sessions: [String] = []) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try store.export(sessions: sessions) { bytes += $0 }
        return bytes
    }

    /// The window states of a document, without the fields the store stamps.
    static func content(_ bytes: [UInt8]) throws -> [WindowState] {
        try StateDocument(utf8: bytes).windows
    }

    @Test func exportImportExportKeepsEveryState() throws {
        let source = try WindowStore.inMemory()
        try Self.sample(source)
        let first = try Self.exported(source)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first)) as? [String: Any])
        #expect(object["format"] as? String == "statectl/1")
        #expect((object["windows"] as? [Any])?.count == 3)

        let target = try WindowStore.inMemory()
        let written = try target.importDocument(StateDocument(utf8: first))
        #expect(written.map(\.revision) == [1, 1, 1])
        let second = try Self.exported(target)
        #expect(try Self.content(second) == Self.content(first))
        // Values are carried as written, not re-encoded.
        #expect(String(decoding: second, as: UTF8.self).contains(#"{"id":42,"x":1.50}"#))
    }

    @Test func importWritesNewRevisionsAndKeepsHistory() throws {
        let store = try WindowStore.inMemory()
        try Self.sample(store)
        let document = try StateDocument(
            parsing:
                #"{"format":"statectl/1","windows":[{"session":"mail","window":"main","revision":99,"updatedAt":"x"},{"session":"new","window":"w","item":{"type":"I"},"itemPath":[{"type":"J","value":1}]}]}"#
        )
        let written = try store.importDocument(document)
        #expect(written.map(\.revision) == [2, 1])
        #expect(written[0].sizeClass == .unspecified, "fields left out are as in a new window")
        #expect(written[0].path.isEmpty)
        #expect(written[1].item == route("I"))
        #expect(try store.history(session: "mail", window: "main").map(\.revision) == [2, 1])
    }

    @Test func exportOfNamedSessions() throws {
        let store = try WindowStore.inMemory()
        try Self.sample(store)
        let windows = try Self.content(Self.exported(store, ["notes", "mail", "notes"]))
        #expect(windows.map { "\($0.session)/\($0.window)" } == ["mail/compose", "mail/main", "notes/é"])
        #expect(throws: StateStoreError.notFound(.session("nope"))) {
            try Self.exported(store, ["mail", "nope"])
        }
        let empty = try WindowStore.inMemory()
        #expect(try Self.content(Self.exported(empty)).isEmpty)
    }

    @Test func exportStreamsLargeStoresInChunks() throws {
        let store = try WindowStore.inMemory()
        let big = try Route(type: "Big", json: "\"" + String(repeating: "x", count: 30_000) + "\"")
        for n in 0..<20 { try store.save(WindowState(session: "s", window: "w\(n)", path: [big])) }
        var chunks: [[UInt8]] = []
        try store.export { chunks.append($0) }
        #expect(chunks.count > 2)
        #expect(try Self.content(chunks.flatMap { $0 }).count == 20)
    }

    @Test(
        "bad documents are refused, naming the window and field",
        arguments: [
            (#"{"format":"statectl/2","windows":[]}"#, "statectl/2"),
            (#"{"windows":[]}"#, "format"),
            (#"{"format":"statectl/1"}"#, "windows"),
            (#"{"format":"statectl/1","windows":[],"extra":1}"#, "extra"),
            (#"{"format":"statectl/1","windows":[{"session":"s"}]}"#, "windows[0]"),
            (#"{"format":"statectl/1","windows":[{"session":"s","window":"w","colour":"red"}]}"#, "colour"),
            (
                #"{"format":"statectl/1","windows":[{"session":"s","window":"w"},{"session":"s","window":"w"}]}"#,
                "windows[1]"
            ),
            (
                #"{"format":"statectl/1","windows":[{"session":"s","window":"w","itemPath":[{"type":"A"}]}]}"#,
                "itemPath"
            ),
            (#"{"format":"statectl/1","windows":[{"session":"s","window":"w","sizeClass":"huge"}]}"#, "sizeClass"),
            (#"{"format":"statectl/1","windows":[{"session":"s","window":"w","path":[{"value":1}]}]}"#, "path"),
            (
                #"{"format":"statectl/1","windows":[{"session":"s","window":"w","path":[{"type":"T","value":}]}]}"#,
                "path"
            ),
            (#"{"format":"statectl/1","windows":[{"session":"","window":"w"}]}"#, "windows[0]"),
            (#"{"format":"statectl/1","windows":[{"session":"s","window":"w","policy":"keep"}]}"#, "policy"),
            (#"{"format":"statectl/1","windows":[{"session":"s","window":"w","session":"t"}]}"#, "session"),
            (#"[1]"#, "document"),
            (#"{"format":"statectl/1","windows":[]} trailing"#, "document"),
        ])
    func refusesBadDocuments(_ text: String, _ named: String) {
        #expect {
            try StateDocument(parsing: text)
        } throws: { error in
            guard case .invalidInput(let message) = error as? StateStoreError else { return false }
            return message.contains(named)
        }
    }

    @Test func refusesInvalidUTF8() {
        var bytes = Array(#"{"format":"statectl/1","windows":[{"session":"s"#.utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array(#"","window":"w"}]}"#.utf8)
        #expect(throws: StateStoreError.self) { try StateDocument(utf8: bytes) }
    }

    @Test func importIsAllOrNothing() throws {
        let store = try WindowStore.inMemory()
        try Self.sample(store)
        let before = try Self.exported(store)
        // The second window is over the route limit: validated before anything is written.
        let tooMany = WindowState(session: "x", window: "y", path: Array(repeating: route("P"), count: 513))
        let document = StateDocument(windows: [WindowState(session: "mail", window: "main"), tooMany])
        #expect(throws: StateStoreError.self) { try store.importDocument(document) }
        #expect(try Self.exported(store) == before)
    }
}
