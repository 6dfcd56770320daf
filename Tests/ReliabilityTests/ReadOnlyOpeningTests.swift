import Foundation
import StateStore
import Testing

/// A store opened read-only (`statectl`'s reading commands, when they may not write the file or
/// its folder). A WAL file with no `-wal` and no `-shm` beside it, in a folder the reader cannot
/// write, is read as it is on disk, without locks; a writer may open it at any time after, so
/// every call checks the file is as it was, and fails with busy (retry) once it is not. The folder
/// is made immutable (`chattr +i`, which stops root) for the reader and mutable again for the
/// writer, so both are had in one process.
struct ReadOnlyOpeningTests {
    static func readOnly() -> WindowStore.Options {
        var options = WindowStore.Options()
        options.readOnly = true
        return options
    }

    /// A store at rest in `folder/locked`, made immutable; `nil` with the reason when it cannot be.
    static func lockedStore() throws -> (folder: TemporaryFolder, inner: String, path: String) {
        let (scratch, reason) = immutableCapableFolder()
        guard let folder = scratch else { try Test.cancel("chattr +i is not possible here: \(reason)") }
        let inner = folder.file("locked")
        let path = inner + "/state.db"
        try WindowStore(path: path).save(WindowState(session: "s", window: "w", path: [route("A")]))
        #expect(!exists(path + "-wal") && !exists(path + "-shm"), "closed: at rest")
        if let reason = makeImmutable(inner) { try Test.cancel("\(reason)") }
        return (folder, inner, path)
    }

    @Test func aStoreAtRestInAFolderNoOneCanWriteIsReadAsItIs() throws {
        let (_, inner, path) = try Self.lockedStore()
        defer { makeMutable(inner) }
        let reader = try WindowStore(path: path, options: Self.readOnly())
        #expect(try reader.window(session: "s", window: "w")?.path == [route("A")])
        #expect(try reader.windowSummaries().count == 1)
        #expect(throws: StateStoreError.self, "it writes nothing") {
            try reader.save(WindowState(session: "s", window: "x"))
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: inner)) == ["state.db"])
    }

    @Test func aWriteByAnotherConnectionAfterTheOpenFailsTheNextReadWithBusy() throws {
        let (_, inner, path) = try Self.lockedStore()
        defer { makeMutable(inner) }
        let reader = try WindowStore(path: path, options: Self.readOnly())
        #expect(try reader.window(session: "s", window: "w")?.revision == 1)

        // A writer that opens, commits and closes: its checkpoint writes the file itself.
        makeMutable(inner)
        try WindowStore(path: path).update(session: "s", window: "w") { $0.push(route("B")) }
        #expect(!exists(path + "-wal"), "closed again: nothing beside the file")
        #expect {
            try reader.window(session: "s", window: "w")
        } throws: { error in
            guard case .busy(let failure) = error as? StateStoreError else { return false }
            return "\(error)".hasPrefix("\(path) was written by another process while it was read")
                && failure.code.primary == .busy
        }
        // Every later call too: the snapshot is gone for good; a new store reads the new state.
        #expect(throws: StateStoreError.self) { try reader.windowSummaries() }
        #expect(try WindowStore(path: path, options: Self.readOnly()).window(session: "s", window: "w")?.revision == 2)
    }

    @Test func aWriterHoldingTheFileOpenFailsTheNextReadWithBusy() throws {
        let (_, inner, path) = try Self.lockedStore()
        defer { makeMutable(inner) }
        let reader = try WindowStore(path: path, options: Self.readOnly())
        #expect(try reader.window(session: "s", window: "w")?.revision == 1)
        makeMutable(inner)
        let writer = try WindowStore(path: path)
        #expect(exists(path + "-wal"))
        #expect(throws: StateStoreError.self) { try reader.window(session: "s", window: "w") }
        // A reader opened now reads through the writer's -wal and -shm, with SQLite's locks.
        try writer.update(session: "s", window: "w") { $0.push(route("C")) }
        #expect(try WindowStore(path: path, options: Self.readOnly()).window(session: "s", window: "w")?.revision == 2)
    }

    @Test func readOnlyCreatesNothingAndLeavesAWALStoreWithoutItsFilesAsItWas() throws {
        let folder = TemporaryFolder()
        let missing = folder.file("missing.db")
        #expect(throws: StateStoreError.notFound(.file(path: missing))) {
            try WindowStore(path: missing, options: Self.readOnly())
        }
        #expect(!exists(missing))
        // A -wal left beside the file with no -shm (what a crash leaves, copied here from a live
        // writer), in a folder no one can write: SQLite needs a -shm to read it, and reading the
        // file without it would miss its commits. Refused, not misread.
        let (scratch, reason) = immutableCapableFolder()
        guard let other = scratch else { try Test.cancel("chattr +i is not possible here: \(reason)") }
        let inner = other.file("crashed")
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        let live = folder.file("live.db")
        let writer = try WindowStore(path: live)
        try writer.save(WindowState(session: "s", window: "w", path: [route("InTheWAL")]))
        let path = inner + "/state.db"
        try FileManager.default.copyItem(atPath: live, toPath: path)
        try FileManager.default.copyItem(atPath: live + "-wal", toPath: path + "-wal")
        if let reason = makeImmutable(inner) { try Test.cancel("\(reason)") }
        defer { makeMutable(inner) }
        #expect(throws: StateStoreError.self) { try WindowStore(path: path, options: Self.readOnly()) }
    }
}
