import Foundation
import StateStore
import StateStoreSQLite
import Testing

/// Processes that open one new file at once: the switch to WAL must wait for the lock like any
/// other write, not fail at once. (Found by `ProcessTests`: SQLite does not call the busy handler
/// when `PRAGMA journal_mode = WAL` meets another connection's lock on a new file.)
struct OpeningRaceTests {
    @Test(arguments: ["zero-length", "blank SQLite"])
    func openingWaitsForALockOnANewFile(_ kind: String) throws {
        let folder = TemporaryFolder()
        let path = folder.file("new.db")
        if kind == "zero-length" {
            _ = FileManager.default.createFile(atPath: path, contents: Data())
        } else {
            try rawSQL(path, "PRAGMA page_size = 4096; VACUUM;")
        }
        // Another connection, as another process creating the store would, has the write lock
        // of the still rollback-journal file, and gives it back after a moment.
        var other: OpaquePointer?
        #expect(sqlite3_open(path, &other) == SQLITE_OK)
        #expect(sqlite3_exec(other, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
        let handle = UncheckedHandle(pointer: other)
        let release = Thread {
            usleep(300_000)
            sqlite3_exec(handle.pointer, "COMMIT", nil, nil, nil)
            sqlite3_close(handle.pointer)
        }
        release.start()

        let store = try WindowStore(path: path)  // waits up to the default 5 s
        #expect(try store.check().isOK)
        #expect(try rawQuery(path, "PRAGMA journal_mode") == ["wal"])
    }

    /// The same lock kept past the timeout: the open fails with the busy error, after the timeout.
    @Test func openingANewFileLockedPastTheTimeoutIsBusy() throws {
        let folder = TemporaryFolder()
        let path = folder.file("new.db")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        var other: OpaquePointer?
        #expect(sqlite3_open(path, &other) == SQLITE_OK)
        defer { sqlite3_close(other) }
        #expect(sqlite3_exec(other, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)

        var options = WindowStore.Options()
        options.busyTimeoutMilliseconds = 200
        let started = ContinuousClock.now
        #expect {
            try WindowStore(path: path, options: options)
        } throws: { if case .busy? = $0 as? StateStoreError { true } else { false } }
        #expect(ContinuousClock.now - started >= .milliseconds(200), "it waited the timeout")
        #expect(ContinuousClock.now - started < .seconds(30), "and not for ever")
        #expect(sqlite3_exec(other, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
        #expect(contents(path)?.isEmpty == true, "nothing written")
    }
}

struct UncheckedHandle: @unchecked Sendable {
    let pointer: OpaquePointer?
}
