import Foundation
import StateStore
import Testing

// iOS lets a suspended app keep SQLite's locks only on a database in WAL mode: what the store keeps
// open must be in WAL mode when its call returns, and what is not (a backup's copy) must be closed
// by then.
@Suite struct SuspensionSafetyTests {
    /// Bytes 18 and 19 of a SQLite header: 2 and 2 for WAL mode, 1 and 1 for a rollback journal.
    private func journalVersions(_ path: String) throws -> [UInt8] {
        let header = try #require(contents(path))
        return Array(header[18...19])
    }

    @Test func aNewStoreIsInWALModeWhenItsOpenReturns() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        #expect(try journalVersions(path) == [2, 2])
        _ = store
    }

    @Test func aBackupKeepsNoFileOfItsCopyOpen() throws {
        #if os(Linux)
            let folder = TemporaryFolder()
            let store = try WindowStore(path: folder.file("state.db"))
            _ = try store.save(WindowState(session: "s", window: "w"))
            let copy = folder.file("copy.db")
            #expect(try store.backup(to: copy).windows == 1)
            // The copy is in rollback mode, so nothing of it may stay open once the call returns.
            #expect(try journalVersions(copy) == [1, 1])
            let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
            }
            #expect(open.contains { $0.hasPrefix(folder.path + "/state.db") }, "the store's own file stays open")
            #expect(!open.contains { $0.hasPrefix(copy) }, "\(open.filter { $0.hasPrefix(folder.path) })")
        #endif
    }
}
