import Foundation
import StateStore
import Testing

/// `WindowStore.backup(to:)` and `statectl backup FILE`: the one safe way to copy a live store,
/// consistent while other processes write, never over an existing file, nothing left on failure.
@Suite(.serialized)
struct BackupTests {
    /// 50 windows of session `before`, written and acknowledged.
    private static func seed(_ store: WindowStore) throws {
        for n in 0..<50 {
            try store.save(WindowState(session: "before", window: "w\(n)", path: [route("R", "\(n)")]))
        }
    }

    /// Checks a copy: it opens as a store, passes the integrity check, holds the 50 windows of
    /// `before` as written, and the writer's window at a revision of at least `acknowledged`,
    /// whole (every route of revision N carries N). Returns that revision.
    private static func verify(_ copy: String, acknowledged: Int, against original: [WindowState]) throws -> Int {
        #expect(try rawQuery(copy, "PRAGMA integrity_check") == ["ok"])
        let store = try WindowStore(path: copy)
        #expect(try store.check().isOK)
        #expect(try store.windows(session: "before") == original)
        let written = try #require(try store.window(session: "s", window: "w"))
        #expect(written.revision >= acknowledged)
        for route in written.path + [written.item].compactMap({ $0 }) + written.itemPath {
            #expect(route.json.contains(#""n":\#(written.revision)"#), "revision \(written.revision): \(route)")
        }
        return written.revision
    }

    /// Copies taken while another process commits revision after revision: each is a sound store
    /// holding everything acknowledged before it began (`RELIABILITY_BACKUPS` copies, default 4,
    /// half through the library and half through `statectl backup`).
    @Test func aCopyTakenWhileAnotherProcessWritesHoldsEverythingCommittedBefore() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        try Self.seed(store)
        let original = try store.windows(session: "before")
        let writer = try Child(stressHelperPath, ["write", path, "s", "w"])
        var revisions: [Int] = []
        for round in 0..<setting("RELIABILITY_BACKUPS", default: 4) {
            // The newest revision the writer has acknowledged by now; more may follow any moment.
            var acknowledged = 0
            while acknowledged < 5 * (round + 1), let line = writer.readLine(timeout: .seconds(60)) {
                acknowledged = Int(line) ?? acknowledged
            }
            let copy = folder.file("copy-\(round).db")
            if round % 2 == 0 {
                let report = try store.backup(to: copy)
                #expect(report.path == copy)
                #expect(report.windows >= 51)
                #expect(report.bytes == (try FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int))
            } else {
                let outcome = try statectl(["--db", path, "backup", copy, "--json"])
                #expect(outcome.status == 0, "\(outcome.err)")
                let report = try JSONSerialization.jsonObject(with: Data(outcome.stdout)) as? [String: Any]
                #expect(report?["path"] as? String == copy)
                #expect(report?["windows"] as? Int == 51)
                #expect(
                    report?["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int))
            }
            revisions.append(try Self.verify(copy, acknowledged: acknowledged, against: original))
        }
        writer.send(SIGKILL)
        _ = try writer.wait()
        #expect(revisions == revisions.sorted(), "later copies hold later revisions: \(revisions)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.contains { $0.contains("partial") }, "no partial copy left: \(names)")
    }

    /// An existing target — a file, an empty file, a folder, a link, or a leftover `-wal` or
    /// `-journal` that SQLite would replay onto the copy — is refused untouched: 73 from
    /// `statectl`, `alreadyExists` from the library.
    @Test func anExistingTargetIsRefusedUntouched() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        try Self.seed(try WindowStore(path: path))
        let file = folder.file("file.db")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: file))
        let empty = folder.file("empty.db")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let subfolder = folder.file("sub")
        try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: false)
        let dangling = folder.file("dangling.db")
        #expect(symlink(folder.file("nowhere"), dangling) == 0)
        let leftover = folder.file("leftover.db")
        try Data("old log".utf8).write(to: URL(fileURLWithPath: leftover + "-wal"))
        let journal = folder.file("journal.db")
        try Data("old journal".utf8).write(to: URL(fileURLWithPath: journal + "-journal"))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let bytes = [file, empty, leftover + "-wal", journal + "-journal"].map { contents($0) }

        for target in [file, empty, subfolder, dangling, leftover, journal, path] {
            #expect {
                try WindowStore(path: path).backup(to: target)
            } throws: { error in
                guard case .alreadyExists(let message) = error as? StateStoreError else { return false }
                return message.contains("already exists")
            }
            let outcome = try statectl(["--db", path, "backup", target])
            #expect(outcome.status == 73, "\(target): \(outcome.err)")
            #expect(outcome.err.hasPrefix("Error: ") && outcome.err.contains("already exists"), "\(outcome.err)")
            #expect(outcome.out.isEmpty)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
        #expect([file, empty, leftover + "-wal", journal + "-journal"].map { contents($0) } == bytes)
    }

    /// A target SQLite would take for a file of some database — its rollback journal, WAL or
    /// shared-memory index (`-journal`, `-wal`, `-shm`, in any case: a file system may ignore it),
    /// the multiplexor's numbered forms (`-journal01`, `-wal01`) or a super-journal
    /// (`-mjXXXXXX9XX`) — is refused as bad data (65, `invalidInput`) before anything is written:
    /// the next connection to that database would delete the copy, or wait on it until its busy
    /// timeout while a host has the database open. Names that only look alike are copied.
    @Test func aTargetNamedLikeADatabasesJournalOrWALIsRefused() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        try Self.seed(try WindowStore(path: path))
        let other = folder.file("other.db")
        try WindowStore(path: other).save(WindowState(session: "other", window: "o"))
        let host = try WindowStore(path: other)  // a host holding the other store open
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let targets = [
            path + "-journal", path + "-wal", path + "-shm", other + "-wal", other + "-journal", other + "-SHM",
            folder.file("new.db-Journal"), folder.file("x.db-wal07"), folder.file("x.db-journal0001"),
            folder.file("x.db-mj1A2B3C9D4"), folder.file("x.db-mjabcdef9ff"),
        ]
        for target in targets {
            #expect {
                try WindowStore(path: path).backup(to: target)
            } throws: { error in
                guard case .invalidInput(let message) = error as? StateStoreError else { return false }
                return message.contains("would take it for") && message.contains(target)
            }
            let outcome = try statectl(["--db", path, "backup", target])
            #expect(outcome.status == 65, "\(target): \(outcome.err)")
            #expect(outcome.err.hasPrefix("Error: backup path \(target) is named like "), "\(outcome.err)")
            #expect(outcome.out.isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before, "\(target)")
        }
        // The other store is as it was, and a new connection to it is not kept waiting.
        let list = try statectl(["--db", other, "--busy-timeout", "0", "list"])
        #expect(list.status == 0 && list.out.contains("other"), "\(list.err)")
        #expect(try host.windowSummaries().count == 1)

        for name in ["state.db-journal.bak", "state.db-walrus", "copy-wal.db", "x.db-mj1A2B3C9D", "x.db-wal-copy"] {
            let report = try WindowStore(path: path).backup(to: folder.file(name))
            #expect(report.windows == 50, "\(name)")
        }
    }

    /// A store of about `megabytes` MiB (kept revisions of a window one MiB each), so that a copy
    /// takes long enough to be caught midway.
    private static func largeStore(_ path: String, megabytes: Int) throws {
        try Self.seed(try WindowStore(path: path))
        // 16 routes of 64,000 characters each: a window at the limits, a MiB.
        let route = "',{\"type\":\"R\",\"value\":\"' || printf('%.*c', 64000, 'x') || '\"}'"
        let value = "'[' || substr(replace(printf('%.*c', 16, 'r'), 'r', \(route)), 2) || ']'"
        try rawSQL(
            path,
            """
            PRAGMA synchronous = OFF;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(megabytes))
            INSERT INTO window_history (session, window, revision, size_class, path, item, item_path, policy, updated_at)
            SELECT 'big', 'w', i, 'compact', \(value), NULL, '[]', 'migrate', 0 FROM n;
            INSERT INTO windows (session, window, size_class, path, item, item_path, policy, revision, updated_at)
            SELECT session, window, size_class, path, item, item_path, policy, revision, updated_at
            FROM window_history WHERE session = 'big' AND revision = \(megabytes);
            """)
    }

    /// Starts `statectl backup target` of `path` and waits until its partial copy exists; the
    /// partial's name, or nil when the copy ended first.
    private static func backupCaughtMidway(
        _ folder: TemporaryFolder, _ path: String, _ target: String
    ) throws -> (Child, String?) {
        let child = try Child(statectlPath, ["--db", path, "backup", target])
        let name = (target as NSString).lastPathComponent
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            if let partial = names.first(where: { $0.hasPrefix(name + ".partial-") && !$0.hasSuffix("-journal") }) {
                return (child, folder.file(partial))
            }
            if exists(target) { break }
            usleep(500)
        }
        return (child, nil)
    }

    /// The names in `folder` that a backup to `target` may leave: its partial copies and their
    /// journals.
    private static func leftovers(_ folder: TemporaryFolder, of target: String) throws -> [String] {
        let name = (target as NSString).lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix(name + ".partial-")
        }.sorted()
    }

    /// `statectl backup` of a large store interrupted by SIGINT (a typed ^C) or SIGTERM removes its
    /// partial copy and the journal beside it, creates no target, and ends by that signal.
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedBackupRemovesItsPartialCopy(_ signal: Int32) throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        try Self.largeStore(path, megabytes: setting("RELIABILITY_BACKUP_MEGABYTES", default: 64))
        let target = folder.file("copy.db")
        var caught = false
        for _ in 1...5 where !caught {
            let (child, partial) = try Self.backupCaughtMidway(folder, path, target)
            guard partial != nil else {
                _ = try child.wait()
                try? FileManager.default.removeItem(atPath: target)
                continue
            }
            caught = true
            child.send(signal)
            #expect(try child.wait() == .signaled(signal), "\(child.errors)")
            #expect(child.errors.contains("interrupted"), "\(child.errors)")
            #expect(try Self.leftovers(folder, of: target) == [], "nothing left behind")
            #expect(!exists(target))
        }
        #expect(caught, "a copy was caught midway")
        #expect(try rawQuery(path, "PRAGMA integrity_check") == ["ok"])
    }

    /// A backup killed outright (SIGKILL: no chance to clean up) leaves its partial copy; the next
    /// backup to that target removes it once no process holds it and it has not changed for a
    /// while (its writer is gone), and leaves other files alone: another target's partial and a
    /// name that only looks like one.
    @Test func theNextBackupRemovesAPartialCopyWhoseWriterIsGone() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        try Self.largeStore(path, megabytes: setting("RELIABILITY_BACKUP_MEGABYTES", default: 64))
        let target = folder.file("copy.db")
        var left: [String] = []
        for _ in 1...5 where left.isEmpty {
            let (child, partial) = try Self.backupCaughtMidway(folder, path, target)
            child.send(SIGKILL)
            _ = try child.wait()
            try? FileManager.default.removeItem(atPath: target)
            if partial != nil { left = try Self.leftovers(folder, of: target) }
        }
        try #require(!left.isEmpty, "a killed backup left its partial copy")
        // Names that only look like a partial copy of this target, and another target's partial.
        let lookalikes = ["copy.db.partial-", "copy.db.partial-notmine", "copy.db.partial-0badcafe1"]
        let others = lookalikes.map(folder.file) + [folder.file("other.db.partial-0badcafe")]
        for other in others { try Data("keep".utf8).write(to: URL(fileURLWithPath: other)) }
        func age(_ names: [String]) {
            for name in names {
                let hourAgo = timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)
                var times = [hourAgo, hourAgo]
                #expect(utimensat(AT_FDCWD, name, &times, 0) == 0, "\(name)")
            }
        }
        age(others)
        // Just written: its writer might be between two steps, so it stays.
        let fresh = try statectl(["--db", path, "backup", target])
        #expect(fresh.status == 0, "\(fresh.err)")
        #expect(try Self.leftovers(folder, of: target) == (left + lookalikes).sorted())
        try FileManager.default.removeItem(atPath: target)
        // An hour old and held by no process: its writer is gone.
        age(left.map(folder.file))
        let next = try statectl(["--db", path, "backup", target])
        #expect(next.status == 0, "\(next.err)")
        #expect(try Self.leftovers(folder, of: target) == lookalikes.sorted())
        for other in others { #expect(contents(other) == Data("keep".utf8), "\(other)") }
        #expect(try rawQuery(target, "PRAGMA integrity_check") == ["ok"])
        #expect(try WindowStore(path: target).windowSummaries().count == 51)
    }

    /// Through the library, "a while" is measured on the store's clock: a partial copy left by a
    /// writer that is gone is removed once the clock says it is old, and one that another process
    /// holds its lock on is never removed, however old it looks. (Between creating its copy and
    /// taking the lock a writer holds none for a moment: the minute without a change covers it.)
    @Test func aPartialCopyIsRemovedByTheStoresClockButNeverWhileItsWriterWorks() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        try Self.largeStore(path, megabytes: setting("RELIABILITY_BACKUP_MEGABYTES", default: 64))
        let target = folder.file("copy.db")
        let stale = target + ".partial-0000abcd"
        try Data("a copy cut short".utf8).write(to: URL(fileURLWithPath: stale))
        try Data("its journal".utf8).write(to: URL(fileURLWithPath: stale + "-journal"))

        var options = WindowStore.Options()
        #expect(try WindowStore(path: path, options: options).backup(to: target).windows == 51)
        #expect(exists(stale), "written just now: its writer may be at work")
        try FileManager.default.removeItem(atPath: target)
        options.clock = { Timestamp(millisecondsSince1970: Timestamp.now().millisecondsSince1970 + 3_600_000) }
        #expect(try WindowStore(path: path, options: options).backup(to: target).windows == 51)
        #expect(!exists(stale) && !exists(stale + "-journal"), "an hour later by the store's clock, it is gone")

        // A partial another process holds its lock on (its writer at work), made to look an hour
        // old: left alone, it and what lies beside it.
        let live = target + ".partial-0000beef"
        let holder = try Child(stressHelperPath, ["hold", live, "60"])
        #expect(holder.readLine(timeout: .seconds(60)) == "locked", "\(holder.errors)")
        let hourAgo = timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)
        var times = [hourAgo, hourAgo]
        #expect(utimensat(AT_FDCWD, live, &times, 0) == 0)
        try FileManager.default.removeItem(atPath: target)
        #expect(try WindowStore(path: path, options: options).backup(to: target).windows == 51)
        #expect(exists(live) && exists(live + "-wal"), "its writer holds it")
        holder.send(SIGKILL)
        _ = try holder.wait()
    }

    /// A file named like a partial copy that this process has open as a database, or that has a
    /// second name (here the live store's own file), is never taken for a leftover, however old
    /// it looks: the lock test would open and close a descriptor of it, which drops every lock the
    /// process holds on the file, and the leftover would be deleted under the live store.
    @Test func aBackupNeverTouchesAFileThisProcessHasOpenOrOneWithASecondName() throws {
        let folder = TemporaryFolder()
        let target = folder.file("copy.db")
        let live = target + ".partial-0000cafe"
        let liveStore = try WindowStore(path: live)
        try liveStore.save(WindowState(session: "s", window: "w"))
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "s", window: "a"))
        let linked = target + ".partial-0000f00d"
        #expect(link(path, linked) == 0)
        let hourAgo = timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)
        for name in [live, linked] {
            var times = [hourAgo, hourAgo]
            #expect(utimensat(AT_FDCWD, name, &times, 0) == 0)
        }

        var options = WindowStore.Options()
        options.clock = { Timestamp(millisecondsSince1970: Timestamp.now().millisecondsSince1970 + 3_600_000) }
        #expect(try WindowStore(path: folder.file("other.db"), options: options).backup(to: target).windows == 0)
        #expect(exists(live) && exists(linked), "neither taken for a leftover")
        try liveStore.save(WindowState(session: "s", window: "w2"))
        #expect(try liveStore.window(session: "s", window: "w2")?.revision == 1, "the live store writes on")
    }

    /// Two backups to one relative name in one process: the second never takes the first's
    /// partial copy for a leftover (its own process's locks are invisible to the lock test), even
    /// an hour later by its clock. One of them makes the copy; the other finds it there.
    @Test func aBackupNeverRemovesAPartialCopyItsOwnProcessIsWriting() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        try Self.largeStore(path, megabytes: setting("RELIABILITY_BACKUP_MEGABYTES", default: 64))
        let outcome = try run(stressHelperPath, [Array("backup-pair".utf8), Array(path.utf8), Array(folder.path.utf8)])
        #expect(outcome.status == 0, "\(outcome.err)")
        let lines = outcome.out.split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(outcome.out) \(outcome.err)")
        let results = lines.map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }
        #expect(results.filter { $0 == "ok" }.count == 1, "one copy made: \(lines)")
        #expect(results.allSatisfy { $0 == "ok" || $0 == "alreadyExists" }, "\(lines)")
        #expect(try rawQuery(folder.file("copy.db"), "PRAGMA integrity_check") == ["ok"])
    }

    /// A failed copy creates nothing: a target in a missing folder, a full file system midway
    /// (a small tmpfs; skipped where mounting is not possible), a missing database (66).
    @Test func aFailedCopyCreatesNothing() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        try Self.seed(try WindowStore(path: path))

        let missingFolder = folder.file("missing/copy.db")
        #expect { try WindowStore(path: path).backup(to: missingFolder) } throws: {
            ($0 as? StateStoreError)?.isIO == true
        }
        let outcome = try statectl(["--db", path, "backup", missingFolder])
        #expect(outcome.status == 74, "\(outcome.err)")
        #expect(!exists(folder.file("missing")), "no folder created")

        // A target short enough for SQLite, but not with the room its temporary name needs.
        let longFolder = folder.file(String(repeating: "l", count: 200))
        try FileManager.default.createDirectory(atPath: longFolder, withIntermediateDirectories: false)
        let tooLong = longFolder + "/" + String(repeating: "n", count: 500 - longFolder.utf8.count)
        #expect(tooLong.utf8.count <= 504)
        let long = try statectl(["--db", path, "backup", tooLong])
        #expect(long.status == 74, "\(long.err)")
        #expect(long.err.contains("is too long for SQLite"), "\(long.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: longFolder).isEmpty)
        try FileManager.default.removeItem(atPath: longFolder)

        #expect(throws: StateStoreError.invalidInput("backup path is empty")) {
            try WindowStore(path: path).backup(to: "")
        }

        let noDatabase = try statectl(["--db", folder.file("none.db"), "backup", folder.file("copy.db")])
        #expect(noDatabase.status == 66, "\(noDatabase.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["state.db"])

        let mountPoint = folder.file("small")
        guard let reason = mountSmallFileSystem(at: mountPoint, size: "64k") else {
            defer { unmount(mountPoint) }
            // Bigger than the file system: the copy fails partway.
            let filler = route("P", "\"" + String(repeating: "x", count: 60_000) + "\"")
            try WindowStore(path: path).save(WindowState(session: "big", window: "w", path: [filler, filler]))
            #expect { try WindowStore(path: path).backup(to: mountPoint + "/copy.db") } throws: {
                ($0 as? StateStoreError)?.isIO == true
            }
            let full = try statectl(["--db", path, "backup", mountPoint + "/copy.db"])
            #expect(full.status == 74, "\(full.err)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: mountPoint) == [], "nothing left")
            return
        }
        print("BackupTests: skipped the full file system case: \(reason)")
    }

    /// `statectl backup` prints what it wrote for people; a missing or extra argument is a usage
    /// error found before anything is opened.
    @Test func theCommandReportsTheCopyAndChecksItsArguments() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        try Self.seed(try WindowStore(path: path))
        let copy = folder.file("copy.db")
        let outcome = try statectl(["--db", path, "backup", copy])
        #expect(outcome.status == 0, "\(outcome.err)")
        #expect(outcome.out.contains("Backed up 50 windows to \(copy)"), "\(outcome.out)")
        #expect(try WindowStore(path: copy).windows(session: "before").count == 50)

        for arguments in [["backup"], ["backup", "a.db", "b.db"]] {
            let usage = try statectl(["--db", folder.file("none.db")] + arguments)
            #expect(usage.status == 64, "\(arguments): \(usage.err)")
            #expect(usage.err.contains("Usage: statectl backup"), "\(usage.err)")
        }
        let help = try statectl(["backup", "--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("USAGE: statectl backup"), "\(help.out)")
        #expect(!exists(folder.file("none.db")) && !exists(folder.file("a.db")))
    }
}
