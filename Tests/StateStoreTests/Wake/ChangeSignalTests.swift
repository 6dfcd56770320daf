import Foundation
import StateStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// The signal a change feed blocks on between polls (file notifications). Nothing here is timed: a
// wait that must wake has a generous timeout as a safety only, and one that must not wake is
// asserted by the reason it ended. Events are queued by the kernel before the call that causes them
// returns, so `wait(timeout: .zero)` takes exactly what happened so far.

/// A folder with a database path in it, and the binary other processes write with.
private struct SignalFixture {
    let folder = TemporaryFolder(prefix: "statestore-signal-")
    var database: String { folder.file("state.db") }
    var wal: String { database + "-wal" }

    /// A store holding one window, left open (so its WAL stays) for as long as it is held.
    func openStore(at path: String? = nil) throws -> WindowStore {
        let store = try WindowStore(path: path ?? database)
        try store.save(WindowState(session: "s", window: "w", path: [route("Folder", #""inbox""#)]))
        return store
    }

    /// Starts `statectl --db database arguments...` in another process.
    func startStatectl(_ arguments: [String], database path: String? = nil) throws -> SpawnedChild {
        var environment = ProcessInfo.processInfo.environment
        environment["STATECTL_DB"] = nil
        return try SpawnedChild(
            builtBinary("statectl", environment: "STATECTL_BIN"), ["--db", path ?? database] + arguments,
            environment: environment)
    }

    /// Runs `statectl set` in another process to the end: one committed write.
    func setByAnotherProcess(_ window: String = "w", database path: String? = nil) throws {
        let process = try startStatectl(["set", "s", window, "--push", "Folder"], database: path)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}

/// Takes every event queued so far; true if there were any for the database.
@discardableResult
private func drain(_ signal: ChangeSignal) -> Bool {
    var woke = false
    while case .changed = signal.wait(timeout: .zero) { woke = true }
    return woke
}

/// The causes of a `.changed` wake; `nil` for any other.
private func causes(_ wake: Wake) -> WakeCauses? {
    if case .changed(let causes) = wake { causes } else { nil }
}

private let generous = Duration.seconds(30)

private func resolved(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
}

#if canImport(Glibc)
    @Suite struct ChangeSignalTests {
        // MARK: what wakes a wait

        @Test func aWriteByAnotherProcessWakesAWait() throws {
            let fixture = SignalFixture()
            let store = try fixture.openStore()  // keeps the WAL: the commit is the only news
            let signal = try ChangeSignal(path: fixture.database)
            #expect(signal.mechanism == .notifications)
            #expect(signal.wait(timeout: .zero) == .timedOut)

            let writer = try fixture.startStatectl(["set", "s", "other", "--push", "Folder"])
            let wake = signal.wait(timeout: generous)
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0)
            #expect(causes(wake)?.contains(.walWritten) == true, "\(wake)")
            #expect(try store.window(session: "s", window: "other") != nil)
        }

        @Test func aCheckpointWakesAWait() throws {
            let fixture = SignalFixture()
            let store = try fixture.openStore()
            let signal = try ChangeSignal(path: fixture.database)
            try rawSQL(fixture.database, "PRAGMA wal_checkpoint(TRUNCATE)")
            let wake = signal.wait(timeout: generous)
            #expect(causes(wake)?.contains(.databaseWritten) == true, "\(wake)")
            #expect(try store.window(session: "s", window: "w") != nil)
        }

        @Test(arguments: ["TRUNCATE", "RESTART"])
        func aWriteAfterACheckpointResetsTheWALAndWakesAWait(mode: String) throws {
            let fixture = SignalFixture()
            let store = try fixture.openStore()
            try rawSQL(fixture.database, "PRAGMA wal_checkpoint(\(mode))")
            let signal = try ChangeSignal(path: fixture.database)
            try store.save(WindowState(session: "s", window: "again"))
            let wake = signal.wait(timeout: generous)
            #expect(causes(wake)?.contains(.walWritten) == true, "\(wake)")
        }

        @Test func theWALDeletedByTheLastConnectionToCloseWakesAWait() throws {
            let fixture = SignalFixture()
            var store: WindowStore? = try fixture.openStore()
            let signal = try ChangeSignal(path: fixture.database)
            #expect(exists(fixture.wal))
            #expect(store != nil)
            store = nil  // the last connection: SQLite checkpoints and deletes the WAL
            let wake = signal.wait(timeout: generous)
            #expect(!exists(fixture.wal))
            #expect(causes(wake)?.contains(.walRemoved) == true, "\(wake)")
        }

        @Test func aDatabaseCreatedAfterTheSignalStartedWakesIt() throws {
            let fixture = SignalFixture()
            let signal = try ChangeSignal(path: fixture.database)
            #expect(signal.mechanism == .notifications)
            #expect(signal.watchedFolder == resolved(fixture.folder.path))
            try fixture.setByAnotherProcess()
            let wake = signal.wait(timeout: generous)
            #expect(causes(wake)?.contains(.databaseAdded) == true, "\(wake)")
        }

        @Test func aFileReplacedByARenameWakesAWait() throws {
            let fixture = SignalFixture()
            try fixture.setByAnotherProcess()
            let copy = fixture.folder.file("copy.db")
            _ = try WindowStore(path: fixture.database).backup(to: copy)
            let signal = try ChangeSignal(path: fixture.database)
            #expect(rename(copy, fixture.database) == 0)
            let replaced = signal.wait(timeout: generous)
            #expect(causes(replaced)?.contains(.databaseAdded) == true, "\(replaced)")

            #expect(rename(fixture.database, fixture.folder.file("old.db")) == 0)
            let renamedAway = signal.wait(timeout: generous)
            #expect(causes(renamedAway)?.contains(.databaseRemoved) == true, "\(renamedAway)")
        }

        @Test func eventsThatArriveTogetherWakeOnce() throws {
            let fixture = SignalFixture()
            let store = try fixture.openStore()
            let signal = try ChangeSignal(path: fixture.database)
            for window in ["a", "b", "c"] { try store.save(WindowState(session: "s", window: window)) }
            try rawSQL(fixture.database, "PRAGMA wal_checkpoint(TRUNCATE)")
            let wake = signal.wait(timeout: .zero)
            #expect(causes(wake)?.isSuperset(of: [.walWritten, .databaseWritten]) == true, "\(wake)")
            #expect(signal.wait(timeout: .zero) == .timedOut)
        }

        @Test func aDatabaseReachedThroughALinkIsWatchedWhereSQLiteKeepsItsWAL() throws {
            let fixture = SignalFixture()
            try FileManager.default.createDirectory(
                atPath: fixture.folder.file("real"), withIntermediateDirectories: true)
            let real = fixture.folder.file("real/state.db")
            let link = fixture.folder.file("link.db")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
            let store = try fixture.openStore(at: link)
            let signal = try ChangeSignal(path: link)
            #expect(signal.path == resolved(real))
            #expect(exists(real + "-wal"))
            #expect(!exists(link + "-wal"))
            try store.save(WindowState(session: "s", window: "through the link"))
            let wake = signal.wait(timeout: generous)
            #expect(causes(wake)?.contains(.walWritten) == true, "\(wake)")
        }

        @Test func aCommitBetweenAFeedsPollAndItsWaitWakesTheWait() throws {
            let fixture = SignalFixture()
            let store = try fixture.openStore()
            // The order a feed keeps: the signal first, then the feed's first read, then polls and waits.
            let signal = try ChangeSignal(path: fixture.database)
            let feed = try store.changeFeed(session: "s")
            var schedule = WakeSchedule()
            #expect(try feed.poll().isEmpty)
            let first = schedule.next(after: nil, found: false, mechanism: signal.mechanism)
            try fixture.setByAnotherProcess("between")
            let wake = signal.wait(timeout: first)
            #expect(wake.isChange, "\(wake)")
            var seen = try feed.poll().compactMap(\.change?.window)
            // A commit may be published just after its wake: the rechecks find it, never the net.
            var next = schedule.next(after: wake, found: !seen.isEmpty, mechanism: signal.mechanism)
            while seen.isEmpty && next < schedule.safetyNetInterval {
                let again = signal.wait(timeout: next)
                seen = try feed.poll().compactMap(\.change?.window)
                next = schedule.next(after: again, found: !seen.isEmpty, mechanism: signal.mechanism)
            }
            #expect(seen == ["between"])
        }

        // MARK: what does not

        @Test func anIdleSignalDoesNotWakeBeforeItsTimeout() throws {
            let fixture = SignalFixture()
            let store = try fixture.openStore()
            let signal = try ChangeSignal(path: fixture.database)
            // Reads on an open connection write nothing: a feed's own polls do not wake it.
            _ = try store.windows(session: "s")
            _ = try store.restore(session: "s", window: "w", into: .compact)
            #expect(signal.wait(timeout: .milliseconds(50)) == .timedOut)
        }

        @Test func eventsForOtherFilesInTheFolderDoNotWakeIt() throws {
            let fixture = SignalFixture()
            let signal = try ChangeSignal(path: fixture.database)
            // Another store in the same folder, with its own WAL and -shm.
            let other = try fixture.openStore(at: fixture.folder.file("other.db"))
            try other.save(WindowState(session: "s", window: "x"))
            // Names that only look like the database's.
            for name in ["state.db-shm", "state.db-journal", "state.dbx", "xstate.db", "state.db-wal.bak", "state"] {
                let path = fixture.folder.file(name)
                #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
                #expect(rename(path, path + ".moved") == 0)
                try FileManager.default.removeItem(atPath: path + ".moved")
            }
            try FileManager.default.createDirectory(
                atPath: fixture.folder.file("state.db.d"), withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: fixture.folder.file("state.db.d/state.db"), contents: nil))
            #expect(signal.wait(timeout: .zero) == .timedOut)
        }

        // MARK: interrupts

        @Test func anInterruptFromAnotherThreadWakesAWait() throws {
            let fixture = SignalFixture()
            let signal = try ChangeSignal(path: fixture.database)
            let interrupter = signal.interrupter
            Thread { interrupter.interrupt() }.start()
            #expect(signal.wait(timeout: generous) == .interrupted)
            #expect(signal.wait(timeout: .zero) == .timedOut)
        }

        @Test func interruptsBeforeAWaitEndItOnceAndWinOverEventsWhichWakeTheNextWait() throws {
            let fixture = SignalFixture()
            let store = try fixture.openStore()
            let signal = try ChangeSignal(path: fixture.database)
            try store.save(WindowState(session: "s", window: "x"))
            signal.interrupt()
            signal.interrupt()
            #expect(signal.wait(timeout: generous) == .interrupted)
            #expect(causes(signal.wait(timeout: .zero))?.contains(.walWritten) == true)
            #expect(signal.wait(timeout: .zero) == .timedOut)
        }

        @Test(arguments: [nil, Duration.seconds(Int64.max)])
        func aWaitWithoutALimitEndsByAnInterrupt(timeout: Duration?) throws {
            let fixture = SignalFixture()
            let signal = try ChangeSignal(path: fixture.database)
            let interrupter = signal.interrupter
            Thread { interrupter.interrupt() }.start()
            #expect(signal.wait(timeout: timeout) == .interrupted)
        }

        // MARK: folders that come and go

        @Test func aMissingFolderIsAwaitedFromTheNearestFolderAboveIt() throws {
            let fixture = SignalFixture()
            let path = fixture.folder.file("a/b/state.db")
            let signal = try ChangeSignal(path: path)
            #expect(signal.mechanism == .notifications)
            #expect(signal.watchedFolder == resolved(fixture.folder.path))

            try FileManager.default.createDirectory(
                atPath: fixture.folder.file("a"), withIntermediateDirectories: false)
            #expect(causes(signal.wait(timeout: generous))?.contains(.folderChanged) == true)
            #expect(signal.watchedFolder == resolved(fixture.folder.file("a")))

            try FileManager.default.createDirectory(
                atPath: fixture.folder.file("a/b"), withIntermediateDirectories: false)
            #expect(causes(signal.wait(timeout: generous))?.contains(.folderChanged) == true)
            #expect(signal.watchedFolder == resolved(fixture.folder.file("a/b")))

            try fixture.setByAnotherProcess(database: path)
            #expect(causes(signal.wait(timeout: generous))?.contains(.databaseAdded) == true)
        }

        /// Told that the database exists, a signal awaiting a folder watches the database's folder
        /// at once, though news of that folder's creation is still queued unread; read later, that
        /// news (of a watch given up) wakes nothing, and the database's own changes do.
        @Test func aSignalToldTheDatabaseExistsWatchesItsFolderAtOnce() throws {
            let fixture = SignalFixture()
            let path = fixture.folder.file("a/b/state.db")
            let signal = try ChangeSignal(path: path)
            try FileManager.default.createDirectory(
                atPath: fixture.folder.file("a"), withIntermediateDirectories: false)
            #expect(causes(signal.wait(timeout: generous))?.contains(.folderChanged) == true)
            #expect(signal.watchedFolder == resolved(fixture.folder.file("a")))

            try fixture.setByAnotherProcess(database: path)  // makes `b`: news queued on `a`'s watch
            signal.databaseFound()
            #expect(signal.watchedFolder == resolved(fixture.folder.file("a/b")))
            #expect(signal.mechanism == .notifications)
            #expect(signal.wait(timeout: .zero) == .timedOut, "the queued news of `b` wakes nothing")
            signal.databaseFound()  // watching the database's folder: nothing changes
            #expect(signal.watchedFolder == resolved(fixture.folder.file("a/b")))

            try fixture.setByAnotherProcess("x", database: path)
            #expect(causes(signal.wait(timeout: generous))?.contains(.walWritten) == true)
        }

        @Test func foldersMadeAtOnceAreFollowedToTheDeepest() throws {
            let fixture = SignalFixture()
            let path = fixture.folder.file("a/b/c/state.db")
            let signal = try ChangeSignal(path: path)
            try FileManager.default.createDirectory(
                atPath: fixture.folder.file("a/b/c"), withIntermediateDirectories: true)
            #expect(causes(signal.wait(timeout: generous))?.contains(.folderChanged) == true)
            #expect(signal.watchedFolder == resolved(fixture.folder.file("a/b/c")))
            drain(signal)
            try fixture.setByAnotherProcess(database: path)
            #expect(causes(signal.wait(timeout: generous))?.contains(.databaseAdded) == true)
        }

        @Test func aFolderRemovedAndMadeAgainIsWatchedAgain() throws {
            let fixture = SignalFixture()
            let path = fixture.folder.file("sub/state.db")
            try fixture.setByAnotherProcess(database: path)
            let signal = try ChangeSignal(path: path)
            #expect(signal.watchedFolder == resolved(fixture.folder.file("sub")))

            try FileManager.default.removeItem(atPath: fixture.folder.file("sub"))
            #expect(causes(signal.wait(timeout: generous))?.contains(.folderChanged) == true)
            drain(signal)
            #expect(signal.watchedFolder == resolved(fixture.folder.path))

            try fixture.setByAnotherProcess(database: path)
            #expect(causes(signal.wait(timeout: generous))?.contains(.folderChanged) == true)
            #expect(signal.watchedFolder == resolved(fixture.folder.file("sub")))
            // The database may have come with the folder, before the watch: a wake says to look.
            drain(signal)
            try fixture.setByAnotherProcess(database: path)
            #expect(causes(signal.wait(timeout: generous))?.contains(.walWritten) == true)
        }

        @Test func aFolderRenamedAwayIsNoLongerWatched() throws {
            let fixture = SignalFixture()
            let path = fixture.folder.file("sub/state.db")
            try fixture.setByAnotherProcess(database: path)
            let signal = try ChangeSignal(path: path)
            #expect(rename(fixture.folder.file("sub"), fixture.folder.file("moved")) == 0)
            #expect(causes(signal.wait(timeout: generous))?.contains(.folderChanged) == true)
            #expect(signal.watchedFolder == resolved(fixture.folder.path))
            drain(signal)
            // The watch follows the path, not the folder: writes where it went are not news.
            try fixture.setByAnotherProcess(database: fixture.folder.file("moved/state.db"))
            #expect(signal.wait(timeout: .zero) == .timedOut)
        }

        @Test func anOverflowedQueueWakesItAndItGoesOnWatching() throws {
            let limit = try #require(
                (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
                    .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) },
                "no inotify queue limit to exceed")
            let fixture = SignalFixture()
            let signal = try ChangeSignal(path: fixture.database)
            // Other files' events fill the queue too; alternating two files keeps the kernel from
            // merging them.
            let files = ["a", "b"].map { open(fixture.folder.file($0), O_WRONLY | O_CREAT | O_CLOEXEC, 0o644) }
            defer { files.forEach { close($0) } }
            var byte: UInt8 = 0
            for index in 0...limit { #expect(write(files[index % 2], &byte, 1) == 1) }
            let wake = signal.wait(timeout: .zero)
            #expect(causes(wake)?.contains(.overflow) == true, "\(wake)")
            drain(signal)
            try fixture.setByAnotherProcess()
            #expect(causes(signal.wait(timeout: generous))?.contains(.databaseAdded) == true)
        }

        // MARK: falling back to polling

        @Test func theForcedFallbackPollsAndItsWaitsTimeOut() throws {
            let fixture = SignalFixture()
            let store = try fixture.openStore()
            let signal = try ChangeSignal(path: fixture.database, polling: true)
            #expect(signal.mechanism == .polling(reason: "polling was asked for"))
            #expect(signal.mechanism.description == "polling (polling was asked for)")
            #expect(signal.watchedFolder == nil)
            try store.save(WindowState(session: "s", window: "x"))
            try fixture.setByAnotherProcess()
            #expect(signal.wait(timeout: .milliseconds(20)) == .timedOut)
            signal.interrupt()
            #expect(signal.wait(timeout: generous) == .interrupted)
        }

        @Test func aFolderThatIsAFilePollsAndSaysWhy() throws {
            let fixture = SignalFixture()
            let file = fixture.folder.file("plain")
            #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
            let signal = try ChangeSignal(path: file + "/state.db")
            #expect(signal.mechanism == .polling(reason: "cannot watch \(resolved(file)): it is not a folder"))
        }

        @Test func aFolderThatCannotBeLookedAtPollsAndSaysWhy() throws {
            let fixture = SignalFixture()
            let loop = fixture.folder.file("loop")
            try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
            let signal = try ChangeSignal(path: loop + "/state.db")
            guard case .polling(let reason) = signal.mechanism else {
                Issue.record("\(signal.mechanism)")
                return
            }
            #expect(reason.hasPrefix("cannot look at \(resolved(fixture.folder.path))/loop: "), "\(reason)")
        }

        @Test func aRelativePathIsMadeAbsolute() throws {
            let here = resolved(FileManager.default.currentDirectoryPath)
            let signal = try ChangeSignal(path: "no-such-folder/../no-such-file.db", polling: true)
            #expect(signal.path == here + "/no-such-file.db")
        }

        @Test func aFolderReplacedByAFileTurnsTheSignalToPolling() throws {
            let fixture = SignalFixture()
            let sub = fixture.folder.file("sub")
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: false)
            let signal = try ChangeSignal(path: sub + "/state.db")
            #expect(signal.mechanism == .notifications)
            try FileManager.default.removeItem(atPath: sub)
            #expect(FileManager.default.createFile(atPath: sub, contents: nil))
            #expect(signal.wait(timeout: generous) == .changed([]))
            #expect(signal.mechanism == .polling(reason: "cannot watch \(resolved(sub)): it is not a folder"))
            #expect(signal.watchedFolder == nil)
            #expect(signal.wait(timeout: .milliseconds(20)) == .timedOut)
        }

        /// The real mount table with every file system's type replaced by `type`.
        private func mountTable(saying type: String, in folder: TemporaryFolder) throws -> String {
            let real = try String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)
            let lines = real.split(separator: "\n").map { line -> String in
                var fields = line.split(separator: " ").map(String.init)
                if let separator = fields.firstIndex(of: "-"), separator + 1 < fields.count {
                    fields[separator + 1] = type
                }
                return fields.joined(separator: " ")
            }
            let path = folder.file("mountinfo-" + type)
            try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }

        @Test(arguments: ["nfs", "nfs4", "cifs", "smb3", "9p", "ceph", "virtiofs", "fuse", "fuseblk", "fuse.sshfs"])
        func aFolderOnANetworkOrFUSEFileSystemPolls(type: String) throws {
            let fixture = SignalFixture()
            let table = try mountTable(saying: type, in: fixture.folder)
            let signal = try ChangeSignal(path: fixture.database, mountTable: table)
            guard case .polling(let reason) = signal.mechanism else {
                Issue.record("\(type): \(signal.mechanism)")
                return
            }
            #expect(reason.contains("on a \(type) file system"), "\(reason)")
            #expect(reason.hasPrefix(resolved(fixture.folder.path)))
        }

        @Test(arguments: ["ext4", "xfs", "btrfs", "tmpfs", "overlay", "apfs"])
        func aFolderOnALocalFileSystemIsWatched(type: String) throws {
            let fixture = SignalFixture()
            let table = try mountTable(saying: type, in: fixture.folder)
            let signal = try ChangeSignal(path: fixture.database, mountTable: table)
            #expect(signal.mechanism == .notifications)
        }

        @Test func aMountTableThatCannotBeReadCountsTheFolderAsLocal() throws {
            let fixture = SignalFixture()
            let signal = try ChangeSignal(path: fixture.database, mountTable: fixture.folder.file("no such table"))
            #expect(signal.mechanism == .notifications)
        }

        @Test func aMissingFoldersFileSystemIsTheNearestExistingFolders() throws {
            let fixture = SignalFixture()
            let table = try mountTable(saying: "nfs4", in: fixture.folder)
            let signal = try ChangeSignal(path: fixture.folder.file("not/yet/state.db"), mountTable: table)
            #expect(signal.mechanism != .notifications)
        }
    }
#endif

// MARK: the parts that need no kernel

@Suite struct ChangeSignalRulesTests {
    @Test func anEmptyPathIsRefused() {
        #expect(throws: StateStoreError.invalidInput("database path is empty")) { try ChangeSignal(path: "") }
    }

    @Test func theMountTableIsReadByDevice() {
        let table = """
            22 27 0:21 / /proc rw,relatime - proc proc rw
            27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard
            36 35 0:52 /export /mnt/share rw,relatime shared:7 master:1 - nfs4 server:/export rw,vers=4.2
            37 35 0:53 / /mnt/a\\040b rw - fuse.sshfs user@host: rw
            truncated line
            """
        #expect(ChangeSignal.fileSystemType(ofDevice: "254:0", inMountTable: table) == "ext4")
        #expect(ChangeSignal.fileSystemType(ofDevice: "0:52", inMountTable: table) == "nfs4")
        #expect(ChangeSignal.fileSystemType(ofDevice: "0:53", inMountTable: table) == "fuse.sshfs")
        #expect(ChangeSignal.fileSystemType(ofDevice: "8:1", inMountTable: table) == nil)
        #expect(ChangeSignal.fileSystemType(ofDevice: "line", inMountTable: table) == nil)
    }

    @Test func deviceNumbersAreWrittenAsTheMountTableWritesThem() {
        #expect(ChangeSignal.deviceName(0xFE00) == "254:0")
        #expect(ChangeSignal.deviceName(0x34) == "0:52")
        // Numbers past 8 and 12 bits, made as glibc's makedev makes them.
        let (major, minor): (UInt64, UInt64) = (0x12345, 0x6789A)
        let device = (major & 0xfff) << 8 | (major & ~0xfff) << 32 | (minor & 0xff) | (minor & ~0xff) << 12
        #expect(ChangeSignal.deviceName(device) == "\(major):\(minor)")
    }

    @Test(arguments: [
        (EMFILE, "inotify is not available: too many open files or inotify instances"),
        (ENFILE, "inotify is not available: the system's limit of open files is reached"),
        (ENOMEM, "inotify is not available: not enough kernel memory"),
    ])
    func aFailedInotifyInitSaysWhy(code: Int32, reason: String) {
        #expect(ChangeSignal.reason(initFailedWith: code).hasPrefix(reason))
    }

    @Test(arguments: [
        (ENOSPC, "cannot watch /x: the limit of inotify watches is reached (fs.inotify.max_user_watches)"),
        (EACCES, "cannot watch /x: no permission to read it"),
        (ENOMEM, "cannot watch /x: not enough kernel memory"),
        (ENOTDIR, "cannot watch /x: it is not a folder"),
    ])
    func aFailedWatchSaysWhy(code: Int32, reason: String) {
        #expect(ChangeSignal.reason(watchFailedWith: code, folder: "/x") == reason)
    }

    @Test func theScheduleRechecksAfterAWakeThenFallsBackToTheSafetyNet() {
        typealias Schedule = WakeSchedule
        // "A few seconds": at most one idle wake-up a second, and rechecks that widen.
        #expect(Schedule.safetyNet >= .seconds(1) && Schedule.safetyNet <= .seconds(5))
        #expect(Schedule.rechecks == Schedule.rechecks.sorted() && Schedule.rechecks.last! < Schedule.safetyNet)
        var schedule = Schedule(kind: .inotify)
        let notifying = WakeMechanism.notifications
        #expect(schedule.next(after: nil, found: false, mechanism: notifying) == Schedule.safetyNet)
        #expect(schedule.next(after: .timedOut, found: false, mechanism: notifying) == Schedule.safetyNet)
        // A wake: rechecks in turn while they find nothing, then the net again.
        var timeouts = [schedule.next(after: .changed(.walWritten), found: false, mechanism: notifying)]
        for _ in 1..<Schedule.rechecks.count {
            timeouts.append(schedule.next(after: .timedOut, found: false, mechanism: notifying))
        }
        #expect(timeouts == Schedule.rechecks)
        #expect(schedule.next(after: .timedOut, found: false, mechanism: notifying) == Schedule.safetyNet)
        // A wake whose poll found the change rechecks too: a later commit may not be published yet.
        #expect(schedule.next(after: .changed([]), found: true, mechanism: notifying) == Schedule.rechecks[0])
        #expect(schedule.next(after: .timedOut, found: false, mechanism: notifying) == Schedule.rechecks[1])
        // A recheck that finds a change starts them over; an interrupted wait counts as one.
        #expect(schedule.next(after: .timedOut, found: true, mechanism: notifying) == Schedule.rechecks[0])
        #expect(schedule.next(after: .interrupted, found: false, mechanism: notifying) == Schedule.rechecks[1])
        // A change the net found (no event came) rechecks as well.
        for _ in 0..<Schedule.rechecks.count { _ = schedule.next(after: .timedOut, found: false, mechanism: notifying) }
        #expect(schedule.next(after: .timedOut, found: true, mechanism: notifying) == Schedule.rechecks[0])
    }

    @Test func aPollingScheduleWaitsItsIntervalWhateverHappened() {
        var schedule = WakeSchedule(pollingInterval: .milliseconds(30))
        let polling = WakeMechanism.polling(reason: "test")
        let wakes: [Wake?] = [nil, .changed(.walWritten), .timedOut, .interrupted]
        for wake in wakes {
            for found in [false, true] {
                #expect(schedule.next(after: wake, found: found, mechanism: polling) == .milliseconds(30))
            }
        }
        #expect(WakeSchedule().pollingInterval == .milliseconds(50))
    }

    @Test func causesAreNamedForPeople() {
        #expect(WakeCauses([.walWritten, .databaseWritten]).description == "WAL written, database written")
        #expect(WakeCauses().description == "")
        #expect(WakeMechanism.notifications.description == "notifications")
    }
}
