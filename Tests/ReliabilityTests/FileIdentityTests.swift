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
        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "s", window: "w", path: [route("A", "1")]))
    }

    // MARK: Hard links

    /// A database with a second name is refused by the library, before anything is written.
    @Test func aHardLinkedDatabaseIsRefusedByTheLibrary() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        try Self.seed(path)
        #expect(link(path, folder.file("other.db")) == 0)
        let before = try #require(contents(path))
        for name in [path, folder.file("other.db")] {
            #expect {
                try WindowStore(path: name)
            } throws: { error in
                guard case .io(let failure) = error as? StateStoreError else { return false }
                return failure.message.contains("\(name) has 2 hard links")
            }
        }
        #expect(contents(path) == before, "not a byte changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["other.db", "state.db"])
    }

    /// `statectl` refuses it with 74, for reading and writing alike, naming the link count.
    @Test func aHardLinkedDatabaseIsRefusedByTheBinary() throws {
        let folder = TemporaryFolder()
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

    // MARK: A file replaced or deleted under a live connection

    /// The error a connection gives once its path names another file, or none.
    static func isReplaced(_ error: any Error, _ path: String) -> Bool {
        guard case .replaced(path) = error as? StateStoreError else { return false }
        return String(describing: error).contains("\(path) was replaced or deleted")
    }

    /// A store with two windows at `path`, a copy of it taken then at `copy`, and one more window
    /// written after the copy (so only the live file has it). Returns the copy's export.
    private static func storeAndCopy(_ store: WindowStore, path: String, copy: String) throws -> String {
        try store.save(WindowState(session: "s", window: "w", sizeClass: .compact, path: [route("A", "1")]))
        try store.update(session: "s", window: "w") { $0.push(route("B", "1")) }
        try store.save(WindowState(session: "s", window: "other"))
        try rawSQL(path, "VACUUM INTO '\(copy)'")
        try store.save(WindowState(session: "t", window: "late"))
        var exported: [UInt8] = []
        try WindowStore(path: copy).export { exported += $0 }
        return String(decoding: exported, as: UTF8.self)
    }

    /// The size of a file, from `stat` (no descriptor), or nil when it does not exist.
    private static func size(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// `mv copy.db state.db` under a live store: its next write, on every write path, fails
    /// naming the replacement and writes nothing; every later call fails the same way; the file
    /// now at the path holds the copy whole (the old file's WAL is not replayed onto it).
    @Test(arguments: SharedFileTests.WritePath.allCases)
    func aFileReplacedUnderALiveStoreStopsItsNextWrite(path write: SharedFileTests.WritePath) throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let copy = folder.file("copy.db")
        do {
            let store = try WindowStore(path: path)
            let copied = try Self.storeAndCopy(store, path: path, copy: copy)
            #expect(rename(copy, path) == 0)

            #expect("\(write)") { try write.write(store) } throws: { Self.isReplaced($0, path) }
            #expect { try store.window(session: "s", window: "w") } throws: { Self.isReplaced($0, path) }
            #expect { try write.write(store) } throws: { Self.isReplaced($0, path) }
            #expect(Self.size(path + "-wal") ?? 0 == 0, "the old file's WAL went with its connection")

            var exported: [UInt8] = []
            try WindowStore(path: path).export { exported += $0 }
            #expect(String(decoding: exported, as: UTF8.self) == copied, "the copy, whole")
        }
        #expect(try rawQuery(path, "PRAGMA integrity_check") == ["ok"])
    }

    /// The file renamed away under a live store (`mv state.db archive.db`): the next write fails,
    /// and the archive holds every write acknowledged before, although its WAL was left under the
    /// old name.
    @Test func aFileRenamedAwayKeepsEveryAcknowledgedWrite() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let archive = folder.file("archive.db")
        var expected: [UInt8] = []
        do {
            let store = try WindowStore(path: path)
            for n in 1...20 { try store.save(WindowState(session: "s", window: "w\(n)", path: [route("R", "\(n)")])) }
            try store.export { expected += $0 }
            #expect(rename(path, archive) == 0)
            #expect { try store.save(WindowState(session: "s", window: "x")) } throws: { Self.isReplaced($0, path) }
        }
        #expect(!exists(path), "nothing created at the old name")
        var archived: [UInt8] = []
        try WindowStore(path: archive).export { archived += $0 }
        #expect(archived == expected)
        #expect(try rawQuery(archive, "PRAGMA integrity_check") == ["ok"])
    }

    /// The file deleted under a live store: the next write fails and creates nothing; a store
    /// made at the path afterwards starts empty.
    @Test func aFileDeletedUnderALiveStoreStopsItsNextWrite() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        do {
            let store = try WindowStore(path: path)
            try store.save(WindowState(session: "s", window: "w"))
            #expect(unlink(path) == 0)
            #expect { try store.save(WindowState(session: "s", window: "x")) } throws: { Self.isReplaced($0, path) }
            #expect(!exists(path), "nothing created at the path")
            #expect { try store.deleteSession("s") } throws: { Self.isReplaced($0, path) }
            // Nothing reopens behind the caller's back: not a feed, not a backup, not a check.
            #expect { try store.changeFeed() } throws: { Self.isReplaced($0, path) }
            #expect { try store.backup(to: folder.file("copy.db")) } throws: { Self.isReplaced($0, path) }
            #expect { try store.check() } throws: { Self.isReplaced($0, path) }
            #expect(!exists(path) && !exists(folder.file("copy.db")), "nothing created")
        }
        #expect(try WindowStore(path: path).windowSummaries().isEmpty)
    }

    /// A change feed whose file is replaced: its next poll fails the same way, and so does every
    /// later one.
    @Test func aFileReplacedUnderAFeedStopsItsNextPoll() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let copy = folder.file("copy.db")
        let store = try WindowStore(path: path)
        let feed = try store.changeFeed(after: 0)
        _ = try Self.storeAndCopy(store, path: path, copy: copy)
        #expect(try feed.poll().count == 4)
        #expect(rename(copy, path) == 0)
        #expect { try feed.poll() } throws: { Self.isReplaced($0, path) }
        #expect { try feed.wait(timeout: .zero) } throws: { Self.isReplaced($0, path) }
    }

    // MARK: A folder on the way re-pointed

    /// A folder `a` holding a store with one window, another `b` holding another store, and a
    /// link `link` to `a`: the database is `link/state.db`, as a user would give it.
    private static func linkedFolders(_ folder: TemporaryFolder) throws -> (path: String, other: String) {
        for name in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: false)
        }
        try Self.seed(folder.file("a/state.db"))
        try WindowStore(path: folder.file("b/state.db")).save(WindowState(session: "b", window: "only"))
        #expect(symlink("a", folder.file("link")) == 0)
        return (folder.file("link/state.db"), folder.file("b/state.db"))
    }

    /// `ln -sfn b link`: the link replaced by one to `b`, in one rename, as `ln` does it.
    static func repoint(_ link: String, to target: String) {
        unlink(link + ".new")
        #expect(symlink(target, link + ".new") == 0)
        #expect(rename(link + ".new", link) == 0)
    }

    /// `--db link/state.db`, then `ln -sfn b link`: the path as given names `b/state.db` now, so a
    /// store opened through it stops at its next write (on every write path) and its feeds at
    /// their next poll, naming the path; nothing goes into either file; new stores use `b`'s.
    @Test(arguments: SharedFileTests.WritePath.allCases)
    func aFolderOnThePathRepointedStopsTheNextWrite(path write: SharedFileTests.WritePath) throws {
        let folder = TemporaryFolder()
        let (path, other) = try Self.linkedFolders(folder)
        let store = try WindowStore(path: path)
        let feed = try store.changeFeed()
        try store.save(WindowState(session: "s", window: "before"))
        #expect(try feed.poll().count == 1)
        let second = try #require(contents(other))

        Self.repoint(folder.file("link"), to: "b")
        #expect("\(write)") { try write.write(store) } throws: { Self.isReplaced($0, path) }
        #expect { try store.window(session: "s", window: "w") } throws: { Self.isReplaced($0, path) }
        #expect { try feed.poll() } throws: { Self.isReplaced($0, path) }
        #expect(contents(other) == second, "nothing written into the file the path names now")
        #expect(try WindowStore(path: path).windowSummaries().map(\.window) == ["only"])
        let kept = try WindowStore(path: folder.file("a/state.db")).windowSummaries().map(\.window)
        #expect(kept.sorted() == ["before", "w"], "every acknowledged write is in the file opened")
    }

    /// A folder on a path with no link in it renamed away (`mv a a.old`) and another put in its
    /// place holding a store: the path names that one now, and the next write stops, on every
    /// write path, writing into neither; the renamed folder's file keeps what was acknowledged.
    @Test(arguments: SharedFileTests.WritePath.allCases)
    func aFolderOnALinkFreePathReplacedStopsTheNextWrite(path write: SharedFileTests.WritePath) throws {
        let folder = TemporaryFolder()
        let path = folder.file("a/state.db")
        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "s", window: "before"))
        try WindowStore(path: folder.file("b/state.db")).save(WindowState(session: "s", window: "only"))
        let second = try #require(contents(folder.file("b/state.db")))

        #expect(rename(folder.file("a"), folder.file("a.old")) == 0)
        #expect(rename(folder.file("b"), folder.file("a")) == 0)
        #expect("\(write)") { try write.write(store) } throws: { Self.isReplaced($0, path) }
        #expect(contents(path) == second, "nothing written into the file the path names now")
        let kept = try WindowStore(path: folder.file("a.old/state.db")).windowSummaries().map(\.window)
        #expect(kept == ["before"])
    }

    /// A running `statectl watch --db link/state.db` stops with 74 once the link is re-pointed,
    /// naming the path, and prints none of the other file's changes.
    @Test func aFolderOnThePathRepointedEndsWatchWith74() throws {
        let folder = TemporaryFolder()
        let (path, other) = try Self.linkedFolders(folder)
        let store = try WindowStore(path: folder.file("a/state.db"))
        let watch = try Child(statectlPath, ["--db", path, "watch", "--timeout", "60"])
        var printed: String?
        for attempt in 1...200 where printed == nil {
            try store.save(WindowState(session: "s", window: "w\(attempt)"))
            printed = watch.readLine(timeout: .milliseconds(300))
        }
        #expect(printed?.hasPrefix("s w") == true, "\(watch.errors)")
        Self.repoint(folder.file("link"), to: "b")
        try WindowStore(path: other).save(WindowState(session: "b", window: "after"))
        #expect(try watch.wait(timeout: .seconds(60)) == .exited(74))
        #expect(watch.errors.contains("Error: \(path) was replaced or deleted"), "\(watch.errors)")
        #expect(!watch.output.contains("after"), "\(watch.output)")
    }

    /// A running `statectl watch` whose file is replaced says so on standard error and exits 74.
    @Test func aFileReplacedUnderWatchEndsItWith74() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let copy = folder.file("copy.db")
        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "s", window: "w"))
        let watch = try Child(statectlPath, ["--db", path, "watch", "--timeout", "30"])
        // Once a change has been printed, the watcher is following the file.
        var printed: String?
        for attempt in 1...200 where printed == nil {
            try store.save(WindowState(session: "s", window: "w\(attempt)"))
            printed = watch.readLine(timeout: .milliseconds(300))
        }
        #expect(printed?.hasPrefix("s w") == true, "\(watch.errors)")
        try rawSQL(path, "VACUUM INTO '\(copy)'")
        #expect(rename(copy, path) == 0)
        #expect(try watch.wait(timeout: .seconds(60)) == .exited(74))
        #expect(watch.errors.contains("Error: \(path) was replaced or deleted"), "\(watch.errors)")
    }
}
