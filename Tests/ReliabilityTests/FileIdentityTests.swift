import Foundation
import StateStore
import Testing

/// SPEC §4: a connection writes only to the file its path names. SQLite finds a database's WAL by
/// name, so a file known by two names (hard links) gets two WALs, and a file replaced under a
/// live connection gets the old file's WAL replayed onto it.
@Suite(.serialized)
struct FileIdentityTests {
    /// A store with one window, closed.
    private static func seed(_ path: String) throws {
        let store = try StateStore(path: path)
        try store.save(WindowState(session: "s", window: "w", path: [route("A", "1")]))
    }

    // MARK: Hard links

    /// A database with a second name is refused by the library, before anything is written.
    @Test func aHardLinkedDatabaseIsRefusedByTheLibrary() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("state.db")
        try Self.seed(path)
        #expect(link(path, folder.file("other.db")) == 0)
        let before = try #require(contents(path))
        for name in [path, folder.file("other.db")] {
            #expect {
                try StateStore(path: name)
            } throws: { error in
                guard case .damaged(let failure) = error as? StateStoreError else { return false }
                return failure.message.contains("\(name) has 2 hard links")
            }
        }
        #expect(contents(path) == before, "not a byte changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["other.db", "state.db"])
    }

    /// `statectl` refuses it with 74, for reading and writing alike, naming the link count.
    @Test func aHardLinkedDatabaseIsRefusedByTheBinary() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("state.db")
        try Self.seed(path)
        #expect(link(path, folder.file("second.db")) == 0)
        #expect(link(path, folder.file("third.db")) == 0)
        let before = try #require(contents(path))
        for arguments in [["set", "s", "w", "--push", "B"], ["list"], ["import", "-"], ["check"]] {
            let outcome = try statectl(
                ["--db", folder.file("second.db")] + arguments,
                stdin: Array(#"{"format":"statectl/1","windows":[]}"#.utf8))
            #expect(outcome.status == 74, "\(arguments): \(outcome.err)")
            #expect(outcome.err.contains("second.db has 3 hard links"), "\(arguments): \(outcome.err)")
            #expect(outcome.out.isEmpty)
        }
        #expect(contents(path) == before, "not a byte changed")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "second.db", "state.db", "third.db",
            ], "no WAL beside any name")
    }
}
