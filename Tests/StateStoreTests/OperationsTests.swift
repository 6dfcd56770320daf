import Foundation
import StateStore
import Testing

struct NavigationPathTests {
    @Test func encodesLastElementFirstAsTheIssueShows() {
        let routes = [route("App.Folder", #""inbox""#), route("App.Thread", #"{"id":42}"#)]
        #expect(NavigationPathCoding.json(for: routes) == #"["App.Thread","{\"id\":42}","App.Folder","\"inbox\""]"#)
        #expect(NavigationPathCoding.json(for: []) == "[]")
    }

    @Test func decodesWhatItEncodes() throws {
        let routes = [route("A", "null"), route("B.C", #"{"k":[1,"x y"],"é":"😀"}"#), route("D", #""\u00e9""#)]
        #expect(try NavigationPathCoding.routes(from: NavigationPathCoding.json(for: routes)) == routes)
        // Element JSON is minified on the way in, whitespace in the outer array is fine.
        let decoded = try NavigationPathCoding.routes(from: #" [ "T" , "{ \"a\" : 1 }" ] "#)
        #expect(decoded == [route("T", #"{"a":1}"#)])
    }

    @Test(
        "malformed representations are bad data",
        arguments: [
            #"["T"]"#, #"["T","1","U"]"#, #"["T",1]"#, #"[1,"1"]"#, #"["T","{"]"#, #"["T","1 2"]"#, #"{"T":"1"}"#,
            #"["","1"]"#, #"["T","1"] x"#, "", "[", #"["T",null]"#, #"["T\u0000","1"]"#,
        ])
    func refusesMalformed(_ text: String) {
        #expect(throws: StateStoreError.self) { try NavigationPathCoding.routes(from: text) }
    }
}

struct TransferTests {
    static func sample(_ store: StateStore) throws {
        try store.save(
            WindowState(
                session: "mail", window: "main", sizeClass: .regular, path: [route("Folder", #""inbox""#)],
                item: route("Thread", #"{"id":42, "x":1.50}"#), itemPath: [route("Attachment", #""a.pdf""#)]))
        try store.save(WindowState(session: "mail", window: "compose", sizeClass: .compact, policy: .dismiss))
        try store.save(WindowState(session: "notes", window: "é", path: [route("N", "[]")]))
    }

    static func exported(_ store: StateStore, _ sessions: [String] = []) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try store.export(sessions: sessions) { bytes += $0 }
        return bytes
    }

    /// The window states of a document, without the fields the store stamps.
    static func content(_ bytes: [UInt8]) throws -> [WindowState] {
        try StateDocument(utf8: bytes).windows
    }

    @Test func exportImportExportKeepsEveryState() throws {
        let source = try StateStore.inMemory()
        try Self.sample(source)
        let first = try Self.exported(source)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first)) as? [String: Any])
        #expect(object["format"] as? String == "statectl/1")
        #expect((object["windows"] as? [Any])?.count == 3)

        let target = try StateStore.inMemory()
        let written = try target.importDocument(StateDocument(utf8: first))
        #expect(written.map(\.revision) == [1, 1, 1])
        let second = try Self.exported(target)
        #expect(try Self.content(second) == Self.content(first))
        // Values are carried as written, not re-encoded.
        #expect(String(decoding: second, as: UTF8.self).contains(#"{"id":42,"x":1.50}"#))
    }

    @Test func importWritesNewRevisionsAndKeepsHistory() throws {
        let store = try StateStore.inMemory()
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
        let store = try StateStore.inMemory()
        try Self.sample(store)
        let windows = try Self.content(Self.exported(store, ["notes", "mail", "notes"]))
        #expect(windows.map { "\($0.session)/\($0.window)" } == ["mail/compose", "mail/main", "notes/é"])
        #expect(throws: StateStoreError.notFound(.session("nope"))) {
            try Self.exported(store, ["mail", "nope"])
        }
        let empty = try StateStore.inMemory()
        #expect(try Self.content(Self.exported(empty)).isEmpty)
    }

    @Test func exportStreamsLargeStoresInChunks() throws {
        let store = try StateStore.inMemory()
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
        let store = try StateStore.inMemory()
        try Self.sample(store)
        let before = try Self.exported(store)
        // The second window is over the route limit: validated before anything is written.
        let tooMany = WindowState(session: "x", window: "y", path: Array(repeating: route("P"), count: 513))
        let document = StateDocument(windows: [WindowState(session: "mail", window: "main"), tooMany])
        #expect(throws: StateStoreError.self) { try store.importDocument(document) }
        #expect(try Self.exported(store) == before)
    }
}

struct ReplaceSessionTests {
    @Test func replacesTheWholeSessionInOneWrite() throws {
        let store = try StateStore.inMemory()
        try store.save(WindowState(session: "s", window: "gone"))
        try store.save(WindowState(session: "s", window: "kept"))
        try store.save(WindowState(session: "other", window: "w"))
        let stored = try store.replaceSession(
            "s",
            with: [
                WindowState(session: "s", window: "kept", sizeClass: .regular),
                WindowState(session: "s", window: "new"),
            ])
        #expect(stored.map(\.revision) == [1, 1], "a new session: the old one is gone with its history")
        #expect(try store.windows(session: "s").map(\.window) == ["kept", "new"])
        #expect(try store.windows(session: "s").first?.sizeClass == .regular)
        #expect(try store.history(session: "s", window: "gone").isEmpty)
        #expect(try store.history(session: "s", window: "kept").count == 1)
        #expect(try store.windows(session: "other").count == 1)
    }

    @Test func anyBadWindowWritesNothing() throws {
        let store = try StateStore.inMemory()
        try store.save(WindowState(session: "s", window: "w"))
        let before = try store.windows(session: "s")
        let cases: [[WindowState]] = [
            [WindowState(session: "s", window: "a"), WindowState(session: "t", window: "b")],
            [WindowState(session: "s", window: "a"), WindowState(session: "s", window: "a")],
            [WindowState(session: "s", window: "a", itemPath: [route("Orphan")])],
        ]
        for windows in cases {
            #expect(throws: StateStoreError.self) { try store.replaceSession("s", with: windows) }
        }
        #expect(try store.windows(session: "s") == before)
    }
}

struct PruneTests {
    final class Clock: @unchecked Sendable {
        var now: Int64 = 1_000_000_000_000
    }

    @Test func prunesSessionsWhoseNewestWriteIsOld() throws {
        let clock = Clock()
        var options = StateStore.Options()
        options.clock = { Timestamp(millisecondsSince1970: clock.now) }
        let store = try StateStore.inMemory(options: options)
        try store.save(WindowState(session: "old", window: "a"))
        try store.save(WindowState(session: "old", window: "b"))
        try store.save(WindowState(session: "mixed", window: "old"))
        clock.now += 3_600_000  // an hour later
        try store.save(WindowState(session: "mixed", window: "new"))
        try store.save(WindowState(session: "fresh", window: "w"))
        clock.now += 60_000

        let dry = try store.prune(olderThan: .seconds(90), dryRun: true)
        #expect(dry.map(\.session) == ["old"])
        #expect(dry.first?.windows == ["a", "b"])
        #expect(try store.windowSummaries().count == 5, "a dry run removes nothing")

        let pruned = try store.prune(olderThan: .seconds(90))
        #expect(pruned == dry)
        #expect(try store.windowSummaries().map(\.session) == ["fresh", "mixed", "mixed"])
        #expect(try store.history(session: "old", window: "a").isEmpty)
        #expect(try store.prune(olderThan: .seconds(30)).map(\.session) == ["fresh", "mixed"])
        #expect(try store.prune(olderThan: .seconds(0)).isEmpty)
    }

    @Test func prunesOneSessionsOldWindowsButThoseKept() throws {
        let clock = Clock()
        var options = StateStore.Options()
        options.clock = { Timestamp(millisecondsSince1970: clock.now) }
        let store = try StateStore.inMemory(options: options)
        for window in ["b", "a", "kept", "e\u{301}"] { try store.save(WindowState(session: "s", window: window)) }
        try store.save(WindowState(session: "other", window: "a"))
        clock.now += 3_600_000
        try store.save(WindowState(session: "s", window: "new"))

        // "é" composed is another id than "e" + U+0301: keeping one spares only that one.
        let pruned = try store.pruneWindows(session: "s", olderThan: .seconds(60), keeping: ["kept", "\u{e9}"])
        #expect(pruned == ["a", "b", "e\u{301}"])
        #expect(try store.windows(session: "s").map(\.window) == ["kept", "new"])
        #expect(try store.history(session: "s", window: "a").isEmpty)
        #expect(try store.windows(session: "other").count == 1, "other sessions are not touched")
        #expect(throws: StateStoreError.self) { try store.pruneWindows(session: "", olderThan: .seconds(1)) }
        #expect(throws: StateStoreError.self) { try store.pruneWindows(session: "s", olderThan: .seconds(-1)) }
    }
}

struct ChangeFeedTests {
    /// The changes of `events`, which must hold nothing else (no gap, no unreadable row).
    func changesOnly(_ events: [ChangeEvent]) throws -> [WindowChange] {
        try events.map { event in try #require(event.change, "only changes: \(event)") }
    }

    /// One feed shared by tasks on other threads: polls take turns, and each change is reported
    /// once, to one of them.
    @Test func aFeedPolledFromManyTasksReportsEachChangeOnce() async throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try StateStore(path: folder.file("feed.db"))
        let feed = try store.changeFeed()
        let count = 200
        let pollers = 4
        let seen = try await withThrowingTaskGroup(of: [Int64].self) { group in
            group.addTask {
                for n in 0..<count { try store.save(WindowState(session: "s", window: "w\(n)")) }
                return []
            }
            for _ in 0..<pollers {
                group.addTask {
                    var sequences: [Int64] = []
                    while feed.position < Int64(count) {
                        sequences += try feed.poll().compactMap { $0.change?.sequence }
                        await Task.yield()
                    }
                    return sequences
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(seen.sorted() == (1...Int64(count)).map { $0 })
    }

    @Test func seesWritesAndDeletionsOfAnotherConnectionInOrder() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("feed.db")
        let host = try StateStore(path: path)
        try host.save(WindowState(session: "s", window: "before"))
        let feed = try host.changeFeed()
        #expect(try feed.poll().isEmpty, "starts after what is already there")

        let other = try StateStore(path: path)  // as another process would
        try other.save(WindowState(session: "s", window: "w", sizeClass: .regular))
        try other.update(session: "s", window: "w") { $0.push(route("A")) }
        try other.save(WindowState(session: "t", window: "x"))
        #expect(try other.deleteSession("s") == ["before", "w"])

        let changes = try changesOnly(feed.poll())
        #expect(
            changes.map { "\($0.session)/\($0.window)@\($0.revision.map(String.init) ?? "deleted")" } == [
                "s/w@1", "s/w@2", "t/x@1", "s/before@deleted", "s/w@deleted",
            ])
        #expect(changes[1].state?.path == [route("A")])
        #expect(changes[3].state == nil)
        #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
        #expect(try feed.poll().isEmpty)
    }

    @Test func filtersBySessionAndSeesItsOwnStore() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try StateStore(path: folder.file("feed.db"))
        let feed = try store.changeFeed(session: "mine")
        try store.save(WindowState(session: "other", window: "w"))
        try store.save(WindowState(session: "mine", window: "w"))
        let changes = try changesOnly(feed.wait(timeout: .seconds(5)))
        #expect(changes.map(\.session) == ["mine"])
        try store.save(WindowState(session: "other", window: "w"))
        #expect(try feed.wait(timeout: .milliseconds(120)).isEmpty, "other sessions' changes are not reported")
    }

    /// The stream's feed is made by the call, not later in its task: a write made right after the
    /// call is the first thing it carries.
    @Test(.timeLimit(.minutes(1))) func aWriteRightAfterMakingTheStreamIsInIt() async throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try StateStore(path: folder.file("stream.db"))
        let stream = try store.changes(session: "s", interval: .milliseconds(5))
        try store.save(WindowState(session: "s", window: "first"))
        let later = Task {
            // Were the write above missed, these would come first, and the test fail, not hang.
            for n in 0..<100 where !Task.isCancelled {
                try store.save(WindowState(session: "s", window: "later\(n)"))
                await Task.yield()
            }
        }
        defer { later.cancel() }
        var first: WindowChange?
        for try await event in stream {
            first = event.change
            break
        }
        #expect(first?.window == "first")
    }

    @Test func asyncStreamDeliversChanges() async throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("stream.db")
        let store = try StateStore(path: path)
        let writer = try StateStore(path: path)
        // Another session's writes between this one's are not in the stream.
        let writing = Task {
            for n in 0..<250 {
                try writer.save(WindowState(session: "t", window: "ignored"))
                try writer.save(WindowState(session: "s", window: "w\(n)"))
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        defer { writing.cancel() }
        var received: [WindowChange] = []
        for try await event in try store.changes(session: "s", interval: .milliseconds(10)) {
            received.append(try #require(event.change, "\(event)"))
            if received.count == 3 { break }
        }
        #expect(received.allSatisfy { $0.session == "s" && $0.revision == 1 })
        #expect(zip(received, received.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
    }

    @Test func aFeedResumesFromAPosition() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try StateStore(path: folder.file("resume.db"))
        try store.save(WindowState(session: "s", window: "a"))
        let first = try store.changeFeed(after: 0)
        #expect(try changesOnly(first.poll()).map(\.window) == ["a"], "0: from the first change")
        let reached = first.position
        try store.save(WindowState(session: "s", window: "b"))
        try store.save(WindowState(session: "s", window: "c"))
        let resumed = try store.changeFeed(after: reached)
        #expect(try changesOnly(resumed.poll()).map(\.window) == ["b", "c"])
        #expect(try changesOnly(first.poll()).map(\.window) == ["b", "c"])
    }

    @Test func inMemoryStoresHaveNoFeed() throws {
        #expect(throws: StateStoreError.self) { try StateStore.inMemory().changeFeed() }
    }
}
