import Foundation
import StateStore
import StateStoreSQLite
import Testing

/// Faults of the file system and of the file: a read-only file or folder, a full disk, damaged
/// bytes. Each gives a clear error (exit code 74), never a crash, and leaves the data as it was.
@Suite(.serialized)
struct FaultTests {
    /// A store at `path` holding one window at revision 1; closed again.
    @discardableResult
    static func seed(_ path: String) throws -> WindowState {
        let store = try WindowStore(path: path)
        return try store.save(
            WindowState(session: "s", window: "w", sizeClass: .regular, path: [route("Folder", #""inbox""#)]))
    }

    static func isIOError(_ error: any Error, mentioning words: [String] = []) -> Bool {
        guard let error = error as? StateStoreError, error.isIO else { return false }
        let text = error.description.lowercased()
        return words.isEmpty || words.contains { text.contains($0) }
    }

    // MARK: Read-only

    @Test func readOnlyDatabaseFileRefusesWritesAndKeepsItsBytes() throws {
        let (scratch, reason) = immutableCapableFolder()
        guard let folder = scratch else {
            print("FaultTests: skipped, no file system here takes chattr +i: \(reason)")
            try Test.cancel("chattr +i is not possible here: \(reason)")
        }
        let path = folder.file("readonly.db")
        let saved = try Self.seed(path)
        let before = try #require(contents(path))
        if let reason = makeImmutable(path) { try Test.cancel("\(reason)") }
        defer { makeMutable(path) }

        do {
            let store = try WindowStore(path: path)
            #expect(try store.window(session: "s", window: "w") == saved, "reading still works")
            for write in Self.writes {
                #expect("\(write.name) on a read-only file") {
                    try write.body(store)
                } throws: { Self.isIOError($0, mentioning: ["is not writable"]) }
            }
        }
        // Read once the store is closed: closing a descriptor of the file would drop its locks.
        #expect(contents(path) == before, "not a byte changed")
        makeMutable(path)
        #expect(try WindowStore(path: path).window(session: "s", window: "w") == saved)
    }

    @Test func readOnlyFolderGivesAClearErrorAndWritesNothing() throws {
        let (scratch, reason) = immutableCapableFolder()
        guard let folder = scratch else {
            print("FaultTests: skipped, no file system here takes chattr +i: \(reason)")
            try Test.cancel("chattr +i is not possible here: \(reason)")
        }
        let inner = folder.file("locked")
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        let path = inner + "/state.db"
        let saved = try Self.seed(path)
        let before = try #require(contents(path))
        #expect(!exists(path + "-wal"), "closed cleanly: no WAL left")
        if let reason = makeImmutable(inner) { try Test.cancel("\(reason)") }
        defer { makeMutable(inner) }

        // The WAL and its index cannot be created beside the file: whatever fails, fails clearly,
        // naming the folder.
        let notWritable = "the folder \(inner) is not writable".lowercased()
        do {
            let store = try WindowStore(path: path)
            let read = Result { () throws(StateStoreError) in try store.window(session: "s", window: "w") }
            switch read {
            case .success(let state): #expect(state == saved)
            case .failure(let error): #expect(Self.isIOError(error, mentioning: [notWritable]), "\(error)")
            }
            for write in Self.writes {
                #expect("\(write.name) in a read-only folder") {
                    try write.body(store)
                } throws: { Self.isIOError($0, mentioning: [notWritable]) }
            }
        } catch {
            #expect(Self.isIOError(error, mentioning: [notWritable]), "\(error)")
        }
        // A new file, or a new folder, in the read-only folder.
        #expect {
            try WindowStore(path: inner + "/new.db").save(WindowState(session: "s", window: "w"))
        } throws: { Self.isIOError($0, mentioning: [notWritable]) }
        #expect {
            try WindowStore(path: inner + "/sub/new.db")
        } throws: { Self.isIOError($0, mentioning: ["cannot create folder"]) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: inner) == ["state.db"])
        #expect(contents(path) == before, "not a byte changed")
        makeMutable(inner)
        #expect(try WindowStore(path: path).window(session: "s", window: "w") == saved)
    }

    /// Every kind of write the store makes.
    static let writes: [(name: String, body: @Sendable (WindowStore) throws -> Void)] = [
        ("save", { try $0.save(WindowState(session: "s", window: "w", sizeClass: .compact)) }),
        ("save of a new window", { try $0.save(WindowState(session: "s", window: "other")) }),
        ("update", { try $0.update(session: "s", window: "w") { $0.dismiss() } }),
        ("revert", { try $0.revert(session: "s", window: "w", to: 1) }),
        ("deleteWindow", { try $0.deleteWindow(session: "s", window: "w") }),
        ("deleteSession", { try $0.deleteSession("s") }),
        ("focus", { try $0.focus(session: "s", window: "w", kind: "mail") }),
        ("setKind", { try $0.setKind("mail", session: "s", window: "other") }),
        ("setSelectedTab", { try $0.setSelectedTab("inbox", session: "s", window: "w") }),
    ]

    // MARK: Full disk

    /// The file may not grow past a few pages (`PRAGMA max_page_count` on the store's own
    /// connection): a large write fails mid-transaction with SQLITE_FULL, is rolled back whole,
    /// and the store goes on working once there is room again.
    @Test func fullDiskMidTransactionRollsBackAndKeepsEarlierData() throws {
        let folder = TemporaryFolder()
        let path = folder.file("full.db")
        let saved = try Self.seed(path)
        let store = try WindowStore(path: path)
        let pages = try #require(try store.integer(onConnection: "PRAGMA page_count"))
        #expect(try store.integer(onConnection: "PRAGMA max_page_count = \(pages + 3)") == pages + 3)

        // ~900 KB over 15 routes: needs far more than three new pages.
        let big = (0..<15).map { route("Page", "\"\(String(repeating: "\($0 % 10)", count: 60_000))\"") }
        var state = saved
        state.path = big
        let before = try rawQuery(path, "SELECT count(*) FROM window_history")
        #expect {
            try store.save(state)
        } throws: { error in
            guard case .io(let failure) = error as? StateStoreError else { return false }
            return failure.code.primary == .full
        }
        #expect(try store.window(session: "s", window: "w") == saved, "the earlier state is intact")
        #expect(try rawQuery(path, "SELECT count(*) FROM window_history") == before, "no history row left behind")
        #expect(try store.check().isOK)
        // The same through update, which reads first: nothing half-done either.
        #expect {
            try store.update(session: "s", window: "w") { $0.path = big }
        } throws: { ($0 as? StateStoreError)?.isIO == true }
        #expect(try store.window(session: "s", window: "w") == saved)

        // Room again: the same connection writes.
        _ = try store.integer(onConnection: "PRAGMA max_page_count = 1000000")
        #expect(try store.save(state).revision == 2)
        #expect(try WindowStore(path: path).window(session: "s", window: "w")?.path == big)
    }

    /// A real full file system: a small tmpfs (needs `mount`, which root has here; skipped with
    /// the reason where it is not possible). Writes go on until the disk is full; the error is
    /// clear, and everything written before it is intact.
    @Test func fullFileSystemKeepsWhatWasWritten() throws {
        let folder = TemporaryFolder()
        let mountPoint = folder.file("small")
        guard let reason = mountSmallFileSystem(at: mountPoint, size: "512k") else {
            defer { unmount(mountPoint) }
            let path = mountPoint + "/state.db"
            let store = try WindowStore(path: path)
            var written: [WindowState] = []
            var failure: StateStoreError?
            for n in 0..<200 {
                let state = WindowState(
                    session: "s", window: "w\(n)", path: [route("Blob", "\"\(String(repeating: "z", count: 30_000))\"")]
                )
                do {
                    written.append(try store.save(state))
                } catch {
                    failure = error
                    break
                }
            }
            let error = try #require(failure, "512 KB filled up")
            #expect(error.isIO, "\(error)")
            #expect(!written.isEmpty)
            for state in written {
                #expect(try store.window(session: state.session, window: state.window) == state)
            }
            #expect(try store.windowSummaries().count == written.count, "the failed write left nothing")
            #expect(try store.check().integrity == ["ok"])
            return
        }
        print("FaultTests: skipped the tmpfs full-disk test: \(reason)")
        try Test.cancel("\(reason)")
    }

    // MARK: Damaged bytes

    /// Pages overwritten in the middle of the file (the header left alone): `check` reports it,
    /// reads of damaged data fail clearly, nothing crashes, and neither opening nor checking
    /// writes a byte.
    @Test(arguments: ["zeros", "random", "0xFF"])
    func overwrittenPagesAreReportedAndNothingIsWritten(_ pattern: String) throws {
        let folder = TemporaryFolder()
        let path = folder.file("damaged.db")
        try writeManyPagesStore(at: path)
        #expect(!exists(path + "-wal"), "closed cleanly: everything is in the main file")
        var bytes = try #require(contents(path))
        let pageSize = 4096
        #expect(bytes.count > 12 * pageSize)
        var random = SeededRandom(seed: 42)
        for offset in (4 * pageSize)..<(8 * pageSize) {
            switch pattern {
            case "zeros": bytes[offset] = 0
            case "random": bytes[offset] = UInt8(truncatingIfNeeded: random.next())
            default: bytes[offset] = 0xFF
            }
        }
        try bytes.write(to: URL(fileURLWithPath: path))

        // The check reports the damage (even damage that stops SQLite's check midway) rather
        // than failing to check.
        let report = try WindowStore(path: path).check()
        #expect(!report.isOK)
        #expect(report.integrity != ["ok"] && !report.integrity.isEmpty)
        #expect(contents(path) == bytes, "opening and checking wrote nothing")

        // Reading every window: each either reads back as written or fails with a clear error.
        if let store = try? WindowStore(path: path) {
            for n in 0..<300 {
                do {
                    if let state = try store.window(session: "s\(n)", window: "w") {
                        #expect(state.path.first?.json.count == 302)
                    }
                } catch {
                    #expect(error.isDamageOrIO, "\(error)")
                }
            }
            do {
                _ = try store.windowSummaries()
            } catch {
                #expect(error.isDamageOrIO, "\(error)")
            }
        }
    }

    /// A file cut short, as a copy interrupted half-way leaves it.
    @Test func truncatedFileIsReportedAsDamaged() throws {
        let folder = TemporaryFolder()
        let path = folder.file("cut.db")
        do {
            let store = try WindowStore(path: path)
            for n in 0..<200 {
                try store.save(WindowState(session: "s\(n)", window: "w", path: [route("P", "\"\(n)\"")]))
            }
        }
        let bytes = try #require(contents(path))
        let cut = bytes.prefix(bytes.count / 2)
        try cut.write(to: URL(fileURLWithPath: path))
        let outcome = Result { () throws(StateStoreError) -> CheckReport in try WindowStore(path: path).check() }
        switch outcome {
        case .success(let report): #expect(!report.isOK)
        case .failure(let error): #expect(error.isDamageOrIO, "\(error)")
        }
        #expect(contents(path) == cut)
    }

    /// Rows another program wrote into our tables that the store would never write: text that is
    /// not UTF-8, JSON that does not parse, a size class it does not know. Reading them is a clear
    /// error (or, for bytes that are not UTF-8, a repaired string), never a crash.
    @Test func rowsWrittenBehindTheStoresBackAreReadSafely() throws {
        let folder = TemporaryFolder()
        let path = try Self.tampered(
            folder.file("tampered.db"),
            [
                #"(CAST(X'FF61' AS TEXT), 'w', 'compact', '[]', NULL, '[]', 'migrate', 1, 0)"#,
                #"('bad-json', 'w', 'compact', '[{"type":', NULL, '[]', 'migrate', 1, 0)"#,
                #"('bad-item', 'w', 'compact', '[]', '{"value":1}', '[]', 'migrate', 1, 0)"#,
                #"('bad-path', 'w', 'compact', '{}', NULL, '[]', 'migrate', 1, 0)"#,
                #"('nul', CAST(X'610062' AS TEXT), 'regular', '[]', NULL, '[]', 'dismiss', 1, 0)"#,
            ])
        let store = try WindowStore(path: path)
        for session in ["bad-json", "bad-item", "bad-path"] {
            #expect("\(session)") {
                try store.window(session: session, window: "w")
            } throws: { if case .damaged? = $0 as? StateStoreError { true } else { false } }
        }
        #expect {
            try store.windowSummaries()
        } throws: { if case .damaged? = $0 as? StateStoreError { true } else { false } }
        #expect(try store.windowSummaries(session: "s").map(\.window) == ["w"], "other sessions still list")
        #expect(try store.windows(session: "nul").map { Array($0.window.utf8) } == [[0x61, 0x00, 0x62]])
    }

    /// A seeded store at `path` with rows inserted behind its back, as another program would:
    /// each of `values` one row's `(session, window, size_class, path, item, item_path, policy,
    /// revision, updated_at)`.
    static func tampered(_ path: String, _ values: [String]) throws -> String {
        try seed(path)
        let row = "(session, window, size_class, path, item, item_path, policy, revision, updated_at)"
        try rawSQL(path, values.map { "INSERT INTO windows \(row) VALUES \($0);" }.joined(separator: "\n"))
        return path
    }

    /// A path another program damaged fails SQLite's count of its routes, which stops the whole
    /// listing: the error still names the window, as reading that window alone does, in every
    /// listing and under every filter that holds it. Filters that leave it out list the rest.
    @Test func aListingOverADamagedPathNamesTheWindow() throws {
        let folder = TemporaryFolder()
        // Nested past what SQLite parses (about 2,000 levels): also not JSON to it.
        let deep = String(repeating: "[", count: 2100) + String(repeating: "]", count: 2100)
        let path = try Self.tampered(
            folder.file("damaged-path.db"),
            [
                #"('t', 'broken', 'compact', '[{"type":', NULL, '[]', 'migrate', 1, 0)"#,
                #"('t', 'fine', 'compact', '[]', NULL, '[]', 'migrate', 1, 0)"#,
                #"('u', 'deep', 'compact', '[{"type":"A","value":\#(deep)}]', NULL, '[]', 'migrate', 1, 0)"#,
            ])
        let store = try WindowStore(path: path)
        let alone = try #require(
            #expect(throws: StateStoreError.self) { try store.window(session: "t", window: "broken") })
        #expect(alone.description.contains("'t' 'broken'"), "\(alone)")
        func names(_ error: StateStoreError?) -> Bool {
            guard case .damaged? = error, let text = error?.description else { return false }
            return text.contains("stored window 't' 'broken'") && text.contains("path")
        }
        for (session, sizeClass) in [(nil, nil), ("t", nil), (nil, SizeClass.compact), ("t", .compact)] {
            let filter = "session \(session ?? "any"), size class \(sizeClass?.rawValue ?? "any")"
            let summaries = #expect(throws: StateStoreError.self, "\(filter)") {
                try store.windowSummaries(session: session, sizeClass: sizeClass)
            }
            #expect(names(summaries), "\(filter): \(String(describing: summaries))")
            let lent = #expect(throws: StateStoreError.self, "\(filter)") {
                try store.forEachListedWindow(session: session, sizeClass: sizeClass) { _ in }
            }
            #expect(names(lent), "\(filter): \(String(describing: lent))")
        }
        let deepError = #expect(throws: StateStoreError.self) { try store.windowSummaries(session: "u") }
        #expect(
            deepError?.description.contains("stored window 'u' 'deep' has a path that cannot be read: JSON nested")
                == true,
            "\(String(describing: deepError))")
        #expect(try store.windowSummaries(session: "s").map(\.window) == ["w"], "another session still lists")
        #expect(try store.windowSummaries(sizeClass: .regular).map(\.window) == ["w"], "another size class too")
    }
}
