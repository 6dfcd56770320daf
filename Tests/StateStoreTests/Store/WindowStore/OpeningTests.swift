import Foundation
import StateStore
import Testing

/// What `WindowStore(path:)` accepts, creates and refuses, and that a refused file is untouched.
struct OpeningTests {
    @Test func createsFileAndFolders() throws {
        let folder = TemporaryFolder()
        let path = folder.file("a/b/c/state.db")
        _ = try WindowStore(path: path)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    /// `full` durability asks for F_FULLFSYNC (Apple's drives keep fsync'd data in their cache);
    /// `normal` leaves SQLite's default, off.
    @Test(arguments: WindowStore.Durability.allCases)
    func durabilitySetsSynchronousAndFullFsync(_ durability: WindowStore.Durability) throws {
        let folder = TemporaryFolder()
        var options = WindowStore.Options()
        options.durability = durability
        let store = try WindowStore(path: folder.file("state.db"), options: options)
        #expect(try store.integer(onConnection: "PRAGMA synchronous") == (durability == .full ? 2 : 1))
        #expect(try store.integer(onConnection: "PRAGMA fullfsync") == (durability == .full ? 1 : 0))
    }

    /// The page cache is SQLite's default (2,000 KiB) unless one is asked for, and at least 1 KiB.
    @Test(arguments: [(nil, -2000), (256, -256), (0, -1), (-5, -1)] as [(Int?, Int)])
    func pageCacheIsTheOneAskedFor(_ kib: Int?, _ expected: Int) throws {
        let folder = TemporaryFolder()
        var options = WindowStore.Options()
        options.pageCacheKiB = kib
        let store = try WindowStore(path: folder.file("state.db"), options: options)
        #expect(try store.integer(onConnection: "PRAGMA cache_size") == expected)
    }

    @Test func missingFileIsNotFoundWithoutCreate() throws {
        let folder = TemporaryFolder()
        var options = WindowStore.Options()
        options.createIfMissing = false
        let path = folder.file("x/state.db")
        #expect(throws: StateStoreError.notFound(.file(path: path))) {
            try WindowStore(path: path, options: options)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("x")), "no folder created")
    }

    @Test func zeroLengthFileBecomesAStore() throws {
        let folder = TemporaryFolder()
        let path = folder.file("empty.db")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "s", window: "w"))
        #expect(try store.window(session: "s", window: "w")?.revision == 1)
    }

    @Test func emptySQLiteFileBecomesAStore() throws {
        let folder = TemporaryFolder()
        let path = folder.file("blank.db")
        try rawSQL(path, "PRAGMA page_size = 4096; VACUUM;")
        #expect((contents(path)?.count ?? 0) > 0)
        _ = try WindowStore(path: path)
        #expect(try rawQuery(path, "PRAGMA application_id") == [String(0x5353_5452)])
    }

    @Test(arguments: [
        ("a table, no application id", "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');"),
        ("another application id", "PRAGMA application_id = 42; CREATE TABLE t (x);"),
        ("another application id, no tables", "PRAGMA application_id = 7; VACUUM;"),
        ("a user_version but no id", "PRAGMA user_version = 3; VACUUM;"),
        ("our tables, no id", "CREATE TABLE windows (session TEXT);"),
    ])
    func refusesSQLiteFilesNotOurs(_ what: String, _ sql: String) throws {
        let folder = TemporaryFolder()
        let path = folder.file("foreign.db")
        try rawSQL(path, sql)
        let before = try #require(contents(path))
        #expect {
            try WindowStore(path: path)
        } throws: { error in
            guard case .notOurs(path) = error as? StateStoreError else { return false }
            return true
        }
        #expect(contents(path) == before, "\(what): the file is untouched")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal") || contents(path + "-wal")?.isEmpty == true)
    }

    @Test func refusesANewerSchemaUntouched() throws {
        let folder = TemporaryFolder()
        let path = folder.file("newer.db")
        do {
            let store = try WindowStore(path: path)
            try store.save(WindowState(session: "s", window: "w"))
        }
        try rawSQL(
            path,
            "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA user_version = \(WindowStore.schemaVersion + 1); PRAGMA journal_mode = DELETE;"
        )
        let before = try #require(contents(path))
        #expect(
            throws: StateStoreError.newerSchema(
                path: path, found: WindowStore.schemaVersion + 1, supported: WindowStore.schemaVersion)
        ) {
            try WindowStore(path: path)
        }
        #expect(contents(path) == before, "untouched, journal mode included")
        #expect(try rawQuery(path, "PRAGMA journal_mode") == ["delete"])
    }

    @Test(arguments: [
        Data(
            "this is a text file, not a database, but it is long enough to have a header of a hundred bytes........"
                .utf8),
        Data("short".utf8),
        Data([0x53, 0x51, 0x4C, 0x69, 0x74, 0x65]),
    ])
    func refusesFilesThatAreNotSQLite(_ bytes: Data) throws {
        let folder = TemporaryFolder()
        let path = folder.file("text.db")
        _ = FileManager.default.createFile(atPath: path, contents: bytes)
        #expect(throws: StateStoreError.notADatabase(path: path)) {
            try WindowStore(path: path)
        }
        #expect(contents(path) == bytes)
    }

    @Test func refusesAFolder() throws {
        let folder = TemporaryFolder()
        #expect {
            try WindowStore(path: folder.path)
        } throws: { error in
            guard case .io(let failure) = error as? StateStoreError else { return false }
            return failure.code == .cantOpen && failure.message.contains("is a directory")
        }
    }

    @Test func damagedFileFailsCheck() throws {
        let folder = TemporaryFolder()
        let path = folder.file("damaged.db")
        try writeManyPagesStore(at: path)
        try rawSQL(path, "PRAGMA wal_checkpoint(TRUNCATE)")
        var bytes = try #require(contents(path))
        #expect(bytes.count > 8 * 4096)
        // Overwrite pages in the middle, leaving the header (page 1) alone.
        for offset in (4 * 4096)..<(6 * 4096) { bytes[offset] = 0x5A }
        try bytes.write(to: URL(fileURLWithPath: path))
        let outcome: Result<CheckReport, StateStoreError> = Result { () throws(StateStoreError) in
            try WindowStore(path: path).check()
        }
        switch outcome {
        case .success(let report): #expect(!report.isOK)
        case .failure(let error):
            guard case .damaged(let failure) = error else { Issue.record("\(error)"); return }
            #expect([.corrupt, .notADatabase].contains(failure.code.primary))
        }
    }
}
