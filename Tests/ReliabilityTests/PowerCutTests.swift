import Foundation
import StateStore
import StateStoreSQLite
import Testing

/// A file whose header a power cut tore while a hot `-journal` or `-wal` lies beside it is SQLite's
/// to recover first, and judged only after SQLite has opened it. Each state here is one a cut
/// leaves: the header sector garbled in the middle of a write whose undo (a rollback journal) or
/// whose pages (a WAL) SQLite still holds.
@Suite(.serialized)
struct PowerCutTests {
    /// The rollback journal's magic, its first 8 bytes once it is hot (pager.c, `aJournalMagic`).
    static let journalMagic: [UInt8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]

    /// Overwrites the first sector of `path` (its 100-byte header and more) with garbage, as a
    /// write cut by a power loss leaves it.
    static func garbleHeader(_ path: String) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: 0)
        handle.write(Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
    }

    /// A store with ten windows whose copy at `path` is in rollback-journal mode with a hot
    /// journal: a transaction that changed page 1 had saved it to the journal (synchronous off,
    /// so the journal's header is whole at once) when the cut tore page 1 in the file.
    static func tornBesideAHotJournal(_ folder: TemporaryFolder, at path: String) throws -> [WindowState] {
        let source = folder.file("source.db")
        let windows = try { () throws -> [WindowState] in
            let store = try WindowStore(path: source)
            for n in 0..<10 { try store.save(WindowState(session: "s", window: "w\(n)", path: [route("R", "\(n)")])) }
            return try store.windows(session: "s")
        }()
        try rawSQL(source, "PRAGMA journal_mode = DELETE")
        var handle: OpaquePointer?
        #expect(sqlite3_open(source, &handle) == SQLITE_OK)
        defer { sqlite3_close(handle) }
        let version = try #require(try rawQuery(source, "PRAGMA user_version").first)
        let sql =
            "PRAGMA synchronous = OFF; BEGIN IMMEDIATE; UPDATE windows SET revision = revision + 1; "
            + "PRAGMA user_version = \(version);"
        #expect(sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK)
        // The cut: the file as it was (the changes are still in the writer's cache) with its first
        // sector torn, and the journal holding the pages it saved.
        try FileManager.default.copyItem(atPath: source, toPath: path)
        try FileManager.default.copyItem(atPath: source + "-journal", toPath: path + "-journal")
        #expect(contents(path + "-journal")?.prefix(8) == Data(Self.journalMagic), "the journal is hot")
        try garbleHeader(path)
        return windows
    }

    /// A torn header beside a hot journal: the store opens with every window, whole, through the
    /// library and the binary; `check` finds nothing wrong.
    @Test func aTornHeaderBesideAHotJournalIsRolledBackAndOpens() throws {
        let folder = TemporaryFolder()
        let path = folder.file("torn.db")
        let windows = try Self.tornBesideAHotJournal(folder, at: path)
        let list = try statectl(["--db", path, "list", "--json"])
        #expect(list.status == 0, "\(list.err)")
        #expect(list.out.components(separatedBy: "\"window\"").count - 1 == 10, "\(list.out)")
        let store = try WindowStore(path: path)
        #expect(try store.windows(session: "s") == windows)
        #expect(try store.check().isOK)
        #expect(!exists(path + "-journal"), "rolled back")
    }

    /// A cut while a new file was being made a store: its first page half written, the journal
    /// of that first transaction (the file was empty) beside it. SQLite's rollback empties the
    /// file, which becomes a new store.
    @Test func aTornFirstPageOfANewFileBesideItsJournalBecomesANewStore() throws {
        let folder = TemporaryFolder()
        let scratch = folder.file("scratch.db")
        var handle: OpaquePointer?
        #expect(sqlite3_open(scratch, &handle) == SQLITE_OK)
        defer { sqlite3_close(handle) }
        let sql = "PRAGMA synchronous = OFF; BEGIN IMMEDIATE; CREATE TABLE first (x);"
        #expect(sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK)
        let path = folder.file("new.db")
        try FileManager.default.copyItem(atPath: scratch + "-journal", toPath: path + "-journal")
        #expect(contents(path + "-journal")?.prefix(8) == Data(Self.journalMagic))
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 13) }).write(to: URL(fileURLWithPath: path))

        let list = try statectl(["--db", path, "list"])
        #expect(list.status == 0, "\(list.err)")
        #expect(list.err == "No windows.\n")
        let set = try statectl(["--db", path, "set", "s", "w", "--push", "A"])
        #expect(set.status == 0, "\(set.err)")
        #expect(try WindowStore(path: path).check().isOK)
    }

    /// A cut in a checkpoint: the WAL a killed writer left holds every commit, page 1 included,
    /// and the file's header sector is garbled. SQLite reads page 1 from the WAL: every
    /// acknowledged revision is there, through the library and the binary.
    @Test func aTornHeaderBesideAWALHoldingItsPageOpens() throws {
        let folder = TemporaryFolder()
        let source = folder.file("source.db")
        let count = 30
        let child = try Child(stressHelperPath, ["wal", source, "s", "w", String(count)])
        #expect(child.readLine(timeout: .seconds(60)) == "done", "\(child.errors)")
        child.send(SIGKILL)
        #expect(try child.wait() == .signaled(SIGKILL))
        let path = folder.file("torn.db")
        try copyDatabase(source, to: path)
        try Self.garbleHeader(path)

        let show = try statectl(["--db", path, "show", "s", "w", "--json"])
        #expect(show.status == 0, "\(show.err)")
        #expect(show.out.contains("\"revision\":\(count)"), "\(show.out)")
        let store = try WindowStore(path: path)
        #expect(try store.window(session: "s", window: "w")?.revision == count)
        #expect(try store.check().isOK)
    }

    /// What SQLite cannot recover is still refused untouched (74): a garbled header beside a
    /// `-journal` that is not hot (garbage, or zeros: a journal SQLite had not begun) or a `-wal`
    /// that is not one; the files beside it keep every byte.
    @Test(arguments: ["journal garbage", "journal zeros", "wal garbage", "wal header only"])
    func aTornHeaderBesideNothingSQLiteCanUseIsRefusedUntouched(_ beside: String) throws {
        let folder = TemporaryFolder()
        let path = folder.file("torn.db")
        try WindowStore(path: path).save(WindowState(session: "s", window: "w"))
        try Self.garbleHeader(path)
        let sidecar = path + (beside.hasPrefix("journal") ? "-journal" : "-wal")
        var bytes =
            beside.hasSuffix("zeros")
            ? Data(count: 1024) : Data((0..<1024).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) })
        // A WAL's magic and garbage after it: SQLite opens it, finds no valid frame, and reads the
        // torn header from the file.
        if beside == "wal header only" { bytes.replaceSubrange(0..<4, with: [0x37, 0x7f, 0x06, 0x82]) }
        try bytes.write(to: URL(fileURLWithPath: sidecar))
        let before = try #require(contents(path))

        let list = try statectl(["--db", path, "list"])
        #expect(list.status == 74, "\(list.err)")
        #expect(list.err.contains("is not a database"), "\(list.err)")
        #expect { try WindowStore(path: path) } throws: { error in
            if case .notADatabase(path) = error as? StateStoreError { return true }
            return false
        }
        #expect(contents(path) == before)
        #expect(contents(sidecar) == bytes)
    }
}
