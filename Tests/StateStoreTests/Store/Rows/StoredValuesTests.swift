import Foundation
import StateStore
import Testing

/// Values another program wrote into the file — a revision at the top of its range, time stamps at
/// the ends of theirs, a window deleted without its history — never trap and never stop a write
/// with a raw SQLite error: the store writes, or says clearly what is damaged and writes nothing.
struct StoredValuesTests {
    /// A store with window 's' 'w' at revision 1, whose revision is then set by hand.
    func storeWithRevision(_ revision: String, in folder: TemporaryFolder) throws -> WindowStore {
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "s", window: "w", path: [route("A")]))
        try rawSQL(path, "UPDATE windows SET revision = \(revision)")
        return store
    }

    static func isDamagedNamingTheWindow(_ error: any Error) -> Bool {
        guard case .damaged(let failure) = error as? StateStoreError else { return false }
        return failure.message.contains("damaged") && failure.message.contains("'s' 'w'")
            && failure.message.contains("9223372036854775807")
    }

    @Test func aRevisionAtTheLargestIntegerIsDamageOnEveryWritePath() throws {
        let folder = TemporaryFolder()
        let store = try storeWithRevision("9223372036854775807", in: folder)
        let before = try rawQuery(store.path, "SELECT revision || ' ' || path FROM windows")
        #expect(throws: Never.self) { try store.window(session: "s", window: "w") }
        #expect(try store.window(session: "s", window: "w")?.revision == Int.max, "read as stored")

        #expect { try store.save(WindowState(session: "s", window: "w")) } throws: { Self.isDamagedNamingTheWindow($0) }
        #expect {
            try store.update(session: "s", window: "w") { $0.push(route("B")) }
        } throws: { Self.isDamagedNamingTheWindow($0) }
        #expect { try store.revert(session: "s", window: "w", to: 1) } throws: { Self.isDamagedNamingTheWindow($0) }
        let document = try StateDocument(
            utf8: Array(
                #"{"format":"statectl/1","windows":[{"session":"t","window":"x"},{"session":"s","window":"w"}]}"#.utf8))
        #expect { try store.importDocument(document) } throws: { Self.isDamagedNamingTheWindow($0) }

        #expect(try rawQuery(store.path, "SELECT revision || ' ' || path FROM windows") == before, "nothing written")
        #expect(try store.window(session: "t", window: "x") == nil, "the import wrote nothing at all")
        // The way out: delete the window; written again, it starts at 1.
        #expect(try store.deleteWindow(session: "s", window: "w"))
        #expect(try store.save(WindowState(session: "s", window: "w")).revision == 1)
    }

    @Test func revertNamesTheRevisionsKeptWithoutArithmetic() throws {
        let folder = TemporaryFolder()
        let store = try storeWithRevision("9223372036854775807", in: folder)
        #expect {
            try store.revert(session: "s", window: "w", to: 5)
        } throws: { error in
            guard case .notFound(let missing) = error as? StateStoreError else { return false }
            return missing == .revision(session: "s", window: "w", revision: 5, kept: 1...1)
                && missing.description.contains("revision 5") && missing.description.contains("kept: 1–1")
        }
    }

    @Test(arguments: ["'abc'", "0", "-5", "1.5", "X'01'"])
    func aRevisionThatIsNotAWholeNumberAtLeastOneIsDamage(_ revision: String) throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "s", window: "w"))
        // The table's CHECK refuses some of these; a writer that turns the checks off does not.
        try rawSQL(path, "PRAGMA ignore_check_constraints = ON; UPDATE windows SET revision = \(revision)")
        let isDamage = { (error: any Error) -> Bool in
            guard case .damaged(let failure) = error as? StateStoreError else { return false }
            return failure.message.contains("'s' 'w'") && failure.message.contains("revision")
        }
        #expect("read \(revision)") { try store.window(session: "s", window: "w") } throws: { isDamage($0) }
        #expect("list \(revision)") { try store.windowSummaries() } throws: { isDamage($0) }
        #expect("write \(revision)") {
            try store.update(session: "s", window: "w") { $0.push(route("B")) }
        } throws: { isDamage($0) }
        #expect(try rawQuery(path, "SELECT count(*) FROM window_history") == ["1"], "nothing written")
    }

    @Test(arguments: [Int64.min, Int64.min + 1, -1, 0, 253_402_300_799_999, 253_402_300_800_000, Int64.max])
    func timeStampsAtTheEndsOfTheirRangeAreFormatted(_ milliseconds: Int64) throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "s", window: "w"))
        try rawSQL(path, "UPDATE windows SET updated_at = \(milliseconds)")
        let read = try #require(try store.window(session: "s", window: "w"))
        #expect(read.updatedAt.millisecondsSince1970 == milliseconds)
        let text = read.updatedAt.description
        #expect(text.hasSuffix("Z") && text.contains("T"), "\(text)")
        if (0...253_402_300_799_999).contains(milliseconds) {
            #expect(Timestamp(rfc3339: text) == read.updatedAt, "four-digit years read back")
        }
        #expect(try store.windowSummaries().first?.updatedAt == read.updatedAt)
    }

    @Test(arguments: [
        "2026-11-30T05:45:14." + String(repeating: "9", count: 40) + "Z",
        "2026-11-30T05:45:14." + String(repeating: "0", count: 25) + "1Z",
        "9999-12-31T23:59:59.999999999999999999999Z",
    ])
    func longFractionsParseWithoutOverflow(_ text: String) throws {
        let timestamp = try #require(Timestamp(rfc3339: text))
        #expect(timestamp.description.prefix(20) == text.prefix(20))
        #expect(timestamp.millisecondsSince1970 % 1000 == (text.contains("999") ? 999 : 0))
    }

    @Test(arguments: [
        Duration.seconds(Int64.max / 1000) + .milliseconds(999), .seconds(Int64.max), .zero,
    ])
    func pruneAgesAtTheEndOfTheirRangeDoNotTrap(_ age: Duration) throws {
        var options = WindowStore.Options()
        for now in [Int64.min, 0, Int64.max] {
            options.clock = { Timestamp(millisecondsSince1970: now) }
            let store = try WindowStore.inMemory(options: options)
            try store.save(WindowState(session: "s", window: "w"))
            let pruned = try store.prune(olderThan: age, dryRun: true)
            #expect(pruned.count <= 1, "\(age) at \(now)")
        }
    }

    // MARK: Item 9: a window deleted by hand

    /// Window 's' 'w' written three times, then its row deleted by hand, its history left behind.
    func storeWithLeftoverHistory(in folder: TemporaryFolder) throws -> WindowStore {
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        for name in ["A", "B", "C"] { try store.update(session: "s", window: "w") { $0.push(route(name)) } }
        try rawSQL(path, "DELETE FROM windows")
        #expect(try rawQuery(path, "SELECT count(*) FROM window_history") == ["3"])
        return store
    }

    static let writePaths: [(String, @Sendable (WindowStore) throws -> WindowState)] = [
        ("save", { try $0.save(WindowState(session: "s", window: "w", path: [route("New")])) }),
        ("update", { try $0.update(session: "s", window: "w") { $0.push(route("New")) } }),
        (
            "update expecting 0",
            { try $0.update(session: "s", window: "w", expectedRevision: 0) { $0.push(route("New")) } }
        ),
        (
            "import",
            { store in
                let document = try StateDocument(
                    utf8: Array(
                        #"{"format":"statectl/1","windows":[{"session":"s","window":"w","path":[{"type":"New","value":null}]}]}"#
                            .utf8))
                return try #require(try store.importDocument(document).first)
            }
        ),
    ]

    @Test(arguments: writePaths.indices)
    func aWindowDeletedByHandStartsAgainAtRevisionOne(_ index: Int) throws {
        let (what, write) = Self.writePaths[index]
        let folder = TemporaryFolder()
        let store = try storeWithLeftoverHistory(in: folder)
        let written = try write(store)
        #expect(written.revision == 1, "\(what)")
        #expect(written.path == [route("New")], "\(what)")
        let history = try store.history(session: "s", window: "w")
        #expect(history.map(\.revision) == [1], "\(what): the leftover history is gone")
        #expect(history.first?.path == [route("New")], "\(what)")
        #expect(try store.update(session: "s", window: "w") { $0.push(route("Next")) }.revision == 2, "\(what)")
        #expect(try store.revert(session: "s", window: "w", to: 1).path == [route("New")], "\(what)")
        #expect(try store.check().isOK, "\(what)")
    }
}
