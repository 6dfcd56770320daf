import Foundation
import StateStore
import Testing

/// A connection writes only to the file its path names. SQLite finds a database's WAL by name, so a
/// file known by two names (hard links) gets two WALs, and a file replaced under a live connection
/// gets the old file's WAL replayed onto it.
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

    // MARK: A file bind-mounted at a second name

    /// A store of one window at `state.db`, bind-mounted at `mounted.db` (`mount --bind`, as a
    /// container's single-file volume is): one link, two names. Nil, with the reason printed,
    /// where the kernel refuses the mount.
    private static func bindMounted(_ folder: TemporaryFolder) throws -> (path: String, mounted: String)? {
        let path = folder.file("state.db")
        let mounted = folder.file("mounted copy.db")  // mountinfo writes the space as \\040
        try Self.seed(path)
        _ = FileManager.default.createFile(atPath: mounted, contents: Data())
        if let reason = bindMount(path, at: mounted) {
            print("FileIdentityTests: skipped the bind mount: \(reason)")
            return nil
        }
        return (path, mounted)
    }

    /// The name a file is bind-mounted at is refused by the library and by `statectl` (74), for
    /// reading and writing, naming it, before anything is written; the source's name, the one
    /// other, works. Two stores therefore never write through two names.
    @Test func aFileBindMountedAtASecondNameIsRefusedThere() throws {
        let folder = TemporaryFolder()
        guard let (path, mounted) = try Self.bindMounted(folder) else { return }
        defer { unmount(mounted) }
        let before = try #require(contents(path))
        #expect {
            try WindowStore(path: mounted)
        } throws: { error in
            guard case .io(let failure) = error as? StateStoreError else { return false }
            return failure.message.contains("\(mounted) is a file bind-mounted from another name")
        }
        for arguments in [["set", "s", "w", "--push", "B"], ["list"], ["check"]] {
            let outcome = try statectl(["--db", mounted] + arguments)
            #expect(outcome.status == 74, "\(arguments): \(outcome.err)")
            #expect(outcome.err.contains("bind-mounted"), "\(arguments): \(outcome.err)")
        }
        #expect(contents(path) == before, "not a byte changed")
        #expect(!exists(mounted + "-wal") && !exists(path + "-wal"), "no WAL beside either name")

        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "s", window: "through the source"))
        #expect(try store.windowSummaries().map(\.window).sorted() == ["through the source", "w"])
    }

    /// A kernel before Linux 5.8 cannot say that a file is a mount's root: the mount table is read
    /// instead, and finds the mount from either name.
    @Test func theMountTableFindsABindMountedFileFromEitherName() throws {
        let folder = TemporaryFolder()
        guard let (path, mounted) = try Self.bindMounted(folder) else { return }
        defer { unmount(mounted) }
        #expect(StoreFile.bindMount(of: mounted) == mounted, "the kernel says the mounted name is a mount's root")
        #expect(StoreFile.bindMount(of: path) == nil, "and the source's is not")
        #expect(StoreFile.bindMount(of: mounted, useMountTable: true) == mounted)
        #expect(StoreFile.bindMount(of: path, useMountTable: true) == mounted)
        #expect(StoreFile.bindMount(of: folder.file("a.db"), useMountTable: true) == nil, "nothing there")
    }

    /// A folder bind-mounted at a second name gives its file two names too, but one WAL: the
    /// WAL's name is in the same folder either way. Neither name is refused.
    @Test func aFileInABindMountedFolderIsNoSecondName() throws {
        let folder = TemporaryFolder()
        let (plain, view) = (folder.file("plain"), folder.file("view"))
        for name in [plain, view] {
            try FileManager.default.createDirectory(atPath: name, withIntermediateDirectories: false)
        }
        try Self.seed(plain + "/state.db")
        if let reason = bindMount(plain, at: view) {
            print("FileIdentityTests: skipped the folder's bind mount: \(reason)")
            return
        }
        defer { unmount(view) }
        for name in [plain + "/state.db", view + "/state.db"] {
            #expect(StoreFile.bindMount(of: name) == nil)
            #expect(StoreFile.bindMount(of: name, useMountTable: true) == nil)
        }
        let first = try WindowStore(path: plain + "/state.db")
        let second = try WindowStore(path: view + "/state.db")
        try first.save(WindowState(session: "s", window: "first"))
        try second.save(WindowState(session: "s", window: "second"))
        #expect(try first.windowSummaries().map(\.window).sorted() == ["first", "second", "w"])
        #expect(try second.windowSummaries().map(\.window).sorted() == ["first", "second", "w"])
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

    /// Where SQLite's descriptor cannot be read (a VFS not shaped as its unix one), SQLite's own
    /// check and the path against SQLite's name stand: a file replaced, a file deleted and a link
    /// on the way re-pointed each stop the next write, and an untouched store writes on.
    @Test func withoutTheDescriptorSQLitesOwnCheckStands() throws {
        var options = WindowStore.Options()
        options.readsDescriptor = false
        let folder = TemporaryFolder()
        let (linked, _) = try Self.linkedFolders(folder)
        let (replaced, deleted) = (folder.file("replaced.db"), folder.file("deleted.db"))
        let stores = try [replaced, deleted, linked].map { try WindowStore(path: $0, options: options) }
        for store in stores { try store.save(WindowState(session: "s", window: "before")) }
        try rawSQL(replaced, "VACUUM INTO '\(folder.file("copy.db"))'")
        #expect(rename(folder.file("copy.db"), replaced) == 0)
        #expect(unlink(deleted) == 0)
        Self.repoint(folder.file("link"), to: "b")
        for (store, path) in zip(stores, [replaced, deleted, linked]) {
            #expect { try store.save(WindowState(session: "s", window: "after")) } throws: { Self.isReplaced($0, path) }
        }
        let untouched = try WindowStore(path: folder.file("untouched.db"), options: options)
        try untouched.save(WindowState(session: "s", window: "w"))
        try untouched.save(WindowState(session: "s", window: "w"))
        #expect(try untouched.window(session: "s", window: "w")?.revision == 2)
    }

    // MARK: A path that cannot be looked at for a moment

    /// A folder on the way made unsearchable for a moment (`chmod 000`, then back): the write
    /// made meanwhile fails with an I/O error that says the path cannot be looked at (not
    /// `replaced`) and writes nothing, a feed's poll reads on from the file it has open, and once
    /// the folder is searchable again the same store and feed go on. Root searches any folder
    /// whatever its modes, so the store runs in a child process as another user (`nobody`). With
    /// the file's identity read from SQLite's descriptor, and without (SQLite's own check, which
    /// takes a failed `stat` for a moved file, is then not asked while the path cannot be seen).
    @Test(arguments: [true, false])
    func aFolderUnsearchableForAMomentFailsThatWriteAndTheStoreGoesOn(readsDescriptor: Bool) throws {
        let folder = TemporaryFolder()
        let storeFolder = folder.file("store")
        let path = storeFolder + "/state.db"
        try FileManager.default.createDirectory(atPath: storeFolder, withIntermediateDirectories: false)
        let uid: UInt32 = getuid() == 0 ? 65534 : getuid()
        #expect(chmod(folder.path, 0o755) == 0 && chown(storeFolder, uid, uid) == 0)
        // The child's commands come through a FIFO, held open for reading and writing here first
        // so that neither end waits for the other to open.
        let fifo = folder.file("commands")
        #expect(mkfifo(fifo, 0o600) == 0)
        let commands = open(fifo, O_RDWR | O_CLOEXEC)
        #expect(commands >= 0)
        let child = try Child(
            stressHelperPath, ["as-user", "\(uid)", path] + (readsDescriptor ? [] : ["sqlite-check"]), stdin: fifo)
        func send(_ line: String) -> String? {
            _ = Array((line + "\n").utf8).withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            return child.readLine(timeout: .seconds(60))
        }
        #expect(child.readLine(timeout: .seconds(60)) == "ready", "\(child.errors)")
        #expect(send("save before") == "saved before")
        #expect(send("poll") == "polled 1")

        #expect(chmod(storeFolder, 0) == 0)
        let during = send("save during")
        #expect(during?.hasPrefix("io cannot look at \(path) now (Permission denied)") == true, "\(during ?? "")")
        #expect(send("poll") == "polled 0", "the feed reads on")
        #expect(send("save during, again") == during, "and so does the next")
        #expect(chmod(storeFolder, 0o755) == 0)

        #expect(send("save after") == "saved after", "the same store goes on")
        #expect(send("poll") == "polled 1", "and so does its feed")
        close(commands)
        #expect(try child.wait(timeout: .seconds(60)) == .exited(0), "\(child.errors)")
        #expect(try WindowStore(path: path).windowSummaries().map(\.window).sorted() == ["after", "before"])
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
