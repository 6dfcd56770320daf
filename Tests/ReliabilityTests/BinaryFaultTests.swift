import Foundation
import StateStore
import Testing

/// The faults of `FaultTests` and `ProcessTests` met by the `statectl` binary: its exit codes (74
/// for I/O and damage, 75 for busy), `Error: …` on stderr, nothing written.
@Suite(.serialized)
struct BinaryFaultTests {
    /// Runs statectl on `path`.
    static func statectl(_ path: String, _ arguments: [String]) throws -> Outcome {
        try ReliabilityTests.statectl(["--db", path] + arguments)
    }

    static func expectFailure(_ outcome: Outcome, _ code: Int32, _ what: String, mentioning words: String...) {
        #expect(outcome.termination == .exited(code), "\(what): \(outcome.err)")
        #expect(outcome.err.hasPrefix("Error: "), "\(what): \(outcome.err)")
        for word in words {
            #expect(outcome.err.contains(word), "\(what): \(outcome.err)")
        }
    }

    @Test func busyPastTheTimeoutExits75AndWritesNothing() throws {
        let folder = TemporaryFolder()
        let path = folder.file("busy.db")
        #expect(try Self.statectl(path, ["set", "s", "w", "--size-class", "compact"]).status == 0)
        let before = try rawDump(path)

        let holder = try Child(stressHelperPath, ["hold", path, "60"])
        #expect(holder.readLine(timeout: .seconds(60)) == "locked", "\(holder.errors)")
        let started = ContinuousClock.now
        let outcome = try Self.statectl(path, ["--busy-timeout", "300", "set", "s", "w", "--size-class", "regular"])
        let waited = ContinuousClock.now - started
        Self.expectFailure(outcome, 75, "set while another process writes", mentioning: "busy")
        #expect(outcome.stdout.isEmpty)
        #expect(waited >= .milliseconds(300), "it waited the timeout first")
        #expect(holder.readLine(timeout: .zero) == nil, "and failed while the lock was still held")
        // Reading is not blocked by a writer.
        let shown = try Self.statectl(path, ["--busy-timeout", "300", "show", "s", "w", "--json"])
        #expect(shown.status == 0, "\(shown.err)")
        #expect(shown.out.contains(#""sizeClass":"compact""#))

        holder.send(SIGKILL)
        _ = try holder.wait()
        #expect(try rawDump(path) == before, "nothing written")
        #expect(try Self.statectl(path, ["set", "s", "w", "--size-class", "regular"]).status == 0)
    }

    /// Several `statectl set` processes at once on one window (the default 5 s timeout): every
    /// one succeeds and every push is there.
    @Test func concurrentSetsLoseNothing() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("shared.db")
        let processes = 4
        let each = setting("RELIABILITY_CLI_WRITES", default: 10)
        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for process in 0..<processes {
                group.addTask {
                    var failures: [String] = []
                    for n in 0..<each {
                        let outcome = try Self.statectl(path, ["set", "s", "w", "--push", "P\(process):\(n)"])
                        if outcome.status != 0 { failures.append("\(outcome.termination): \(outcome.err)") }
                    }
                    return failures
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures.isEmpty)
        let state = try #require(try WindowStore(path: path).window(session: "s", window: "w"))
        #expect(state.revision == processes * each)
        #expect(state.path.count == processes * each)
        // Each process's own pushes are in its order.
        for process in 0..<processes {
            let mine = state.path.filter { $0.type == "P\(process)" }.map(\.json)
            #expect(mine == (0..<each).map(String.init))
        }
    }

    @Test func readOnlyFileAndFolderExit74() throws {
        let (scratch, reason) = immutableCapableFolder()
        guard let folder = scratch else {
            print("BinaryFaultTests: skipped, no file system here takes chattr +i: \(reason)")
            try Test.cancel("chattr +i is not possible here: \(reason)")
        }
        let file = folder.file("file.db")
        #expect(try Self.statectl(file, ["set", "s", "w", "--push", "A"]).status == 0)
        let inner = folder.file("locked")
        let inFolder = inner + "/state.db"
        #expect(try Self.statectl(inFolder, ["set", "s", "w", "--push", "A"]).status == 0)
        let fileBytes = try #require(contents(file))
        let folderBytes = try #require(contents(inFolder))
        if let reason = makeImmutable(file) { try Test.cancel("\(reason)") }
        defer { makeMutable(file) }
        if let reason = makeImmutable(inner) { try Test.cancel("\(reason)") }
        defer { makeMutable(inner) }

        let writes = [
            ["set", "s", "w", "--push", "B"], ["set", "s", "new", "--dismiss"], ["delete", "s", "w"], ["delete", "s"],
            ["revert", "s", "w", "1"],
        ]
        for write in writes {
            let onFile = try Self.statectl(file, write)
            Self.expectFailure(onFile, 74, "\(write) on a read-only file", mentioning: "is not writable")
            let inLockedFolder = try Self.statectl(inFolder, write)
            Self.expectFailure(
                inLockedFolder, 74, "\(write) in a read-only folder", mentioning: "the folder \(inner) is not writable")
        }
        // Reading works: a read-only file, and a store at rest in a read-only folder (read as it is
        // on disk: SQLite cannot make the -shm a reader needs there, and no process has it open).
        let listed = try Self.statectl(file, ["list", "--json"])
        #expect(listed.status == 0, "\(listed.err)")
        #expect(listed.out.contains(#""session":"s""#))
        let listedInFolder = try Self.statectl(inFolder, ["list", "--json"])
        #expect(listedInFolder.status == 0, "\(listedInFolder.err)")
        #expect(listedInFolder.out.contains(#""session":"s""#))
        // A new file, and a new folder, in the read-only folder.
        Self.expectFailure(
            try Self.statectl(inner + "/new.db", ["set", "s", "w", "--push", "A"]), 74,
            "a new file in a read-only folder", mentioning: "not writable")
        Self.expectFailure(
            try Self.statectl(inner + "/sub/new.db", ["set", "s", "w", "--push", "A"]), 74,
            "a new folder in a read-only folder", mentioning: "cannot create folder")

        #expect(contents(file) == fileBytes, "not a byte changed")
        #expect(contents(inFolder) == folderBytes, "not a byte changed")
    }

    /// A full file system (a small tmpfs; skipped with the reason where mounting is not possible).
    @Test func fullDiskExits74AndKeepsWhatWasWritten() throws {
        let folder = TemporaryFolder()
        let mountPoint = folder.file("small")
        if let reason = mountSmallFileSystem(at: mountPoint, size: "400k") {
            print("BinaryFaultTests: skipped the tmpfs full-disk test: \(reason)")
            try Test.cancel("\(reason)")
        }
        defer { unmount(mountPoint) }
        let path = mountPoint + "/state.db"
        let value = "Blob:\"" + String(repeating: "z", count: 60_000) + "\""
        var written = 0
        var failure: Outcome?
        for n in 0..<100 {
            let outcome = try Self.statectl(path, ["set", "s", "w\(n)", "--push", value])
            guard outcome.status == 0 else {
                failure = outcome
                break
            }
            written += 1
        }
        let full = try #require(failure, "400 KB filled up")
        Self.expectFailure(full, 74, "a write on a full disk", mentioning: "full")
        #expect(written > 0)
        let store = try WindowStore(path: path)
        #expect(try store.windowSummaries().count == written, "the failed write left nothing")
        #expect(try store.check().integrity == ["ok"])
    }

    /// Bytes overwritten in the middle of the file: `check` exits 74 and writes nothing.
    @Test func damagedFileFailsCheckWith74AndNothingWritten() throws {
        let folder = TemporaryFolder()
        let path = folder.file("damaged.db")
        try writeManyPagesStore(at: path)
        #expect(try Self.statectl(path, ["check"]).status == 0, "sound before")
        var bytes = try #require(contents(path))
        for offset in (5 * 4096)..<(7 * 4096) { bytes[offset] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: path))

        let check = try Self.statectl(path, ["check"])
        #expect(check.termination == .exited(74), "\(check.err)")
        #expect(check.err.hasPrefix("Error: "))
        let json = try Self.statectl(path, ["check", "--json"])
        #expect(json.termination == .exited(74))
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any]
        #expect(report?["ok"] as? Bool == false)
        #expect((report?["integrity"] as? [String])?.isEmpty == false)
        #expect(contents(path) == bytes, "check wrote nothing")
        #expect(!exists(path + "-wal") || contents(path + "-wal")?.isEmpty == true)
    }

    /// A zero-length file is a new, empty store: reading it lists nothing, writing it works.
    @Test func zeroLengthFileIsANewStore() throws {
        let folder = TemporaryFolder()
        let path = folder.file("empty.db")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let list = try Self.statectl(path, ["list", "--json"])
        #expect(list.status == 0, "\(list.err)")
        #expect(list.out == "[]\n")
        #expect(try Self.statectl(path, ["check"]).status == 0)
        let set = try Self.statectl(path, ["set", "s", "w", "--push", "A:1", "--json"])
        #expect(set.status == 0, "\(set.err)")
        #expect(set.out.contains(#""revision":1"#))
        #expect(try WindowStore(path: path).check().isOK)
    }

    /// A file that is not a database, and one cut short: exit 74 for any command, untouched.
    @Test func notADatabaseExits74Untouched() throws {
        let folder = TemporaryFolder()
        let text = folder.file("text.db")
        let bytes = Data(String(repeating: "hello, not a database\n", count: 10).utf8)
        try bytes.write(to: URL(fileURLWithPath: text))
        for arguments in [["list"], ["check"], ["set", "s", "w", "--dismiss"], ["show", "s", "w"], ["migrate"]] {
            Self.expectFailure(try Self.statectl(text, arguments), 74, "\(arguments) on a text file")
        }
        #expect(contents(text) == bytes)
    }
}
