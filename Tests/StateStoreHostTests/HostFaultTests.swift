import Foundation
import StateStore
import StateStoreHost
import StateStoreSQLite
import Testing

/// Faults while a model is live: the model keeps working in memory, `lastError` says what happened,
/// and nothing is lost once the fault clears.
@MainActor
struct HostFaultTests {
    @Test func busyPastTheTimeoutIsReportedAndWrittenOnceTheLockIsGone() async throws {
        let fixture = HostFixture()
        var options = fixture.options()
        options.store.busyTimeoutMilliseconds = 100
        let session = try await fixture.open(options: options)
        let model = session.window("main", as: Mail.self)
        model.push(.folder("inbox"))
        #expect(await session.flush())

        let lock = try WriteLock(fixture.database)
        model.push(.thread(1))
        #expect(model.stack == [.folder("inbox"), .thread(1)], "the UI never waits for SQLite")
        #expect(await session.flush(timeout: .milliseconds(400)) == false, "not durable while the lock is held")
        guard case .store(.busy)? = model.lastError else {
            Issue.record("lastError says busy, not \(String(describing: model.lastError))")
            return
        }
        lock.release()
        #expect(await session.flush())
        #expect(model.lastError == nil)
        #expect(try fixture.store().window(session: "app", window: "main")?.path.count == 2, "nothing lost")
    }

    @Test func aWindowOverTheLimitsStaysInMemoryUntilItFitsAgain() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        for n in 0..<Limits.routesPerWindow { model.push(.message(n)) }
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "main")?.path.count == Limits.routesPerWindow)

        model.push(.message(-1))
        #expect(model.path.count == Limits.routesPerWindow + 1, "kept in memory")
        #expect(await session.flush() == false)
        guard case .overLimits? = model.lastError else {
            Issue.record("lastError says over the limits, not \(String(describing: model.lastError))")
            return
        }
        #expect(try fixture.store().window(session: "app", window: "main")?.path.count == Limits.routesPerWindow)

        model.pop(2)
        #expect(await session.flush())
        let saved = try #require(try fixture.store().window(session: "app", window: "main"))
        #expect(saved.path.count == Limits.routesPerWindow - 1)
        #expect(saved.path.last == stored(.message(Limits.routesPerWindow - 2)))
    }

    @Test func aReplacedFileStopsTheWritesAndTheModelGoesOnInMemory() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.push(.folder("inbox"))
        #expect(await session.flush())

        let other = fixture.folder.file("other.db")
        try WindowStore(path: other).save(WindowState(session: "app", window: "elsewhere"))
        #expect(rename(other, fixture.database) == 0)
        model.push(.thread(1))
        #expect(await session.flush(timeout: .seconds(2)) == false)
        guard case .store(.replaced(fixture.database))? = model.lastError else {
            Issue.record("lastError says the file was replaced, not \(String(describing: model.lastError))")
            return
        }
        #expect(model.stack == [.folder("inbox"), .thread(1)])
        #expect(try fixture.store().window(session: "app", window: "main") == nil, "nothing went into the new file")
    }

    /// `--db link/state.db`, then `ln -sfn other link`: the path as the host gave it names another
    /// file now, so the next write stops with `replaced`, `flush` says false, and nothing goes into
    /// either file.
    @Test func aFolderOnThePathRepointedStopsTheWrites() async throws {
        let scratch = TemporaryFolder(prefix: "statestore-host-tests-")
        for name in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: scratch.file(name), withIntermediateDirectories: false)
        }
        #expect(symlink("a", scratch.file("link")) == 0)
        let fixture = HostFixture(folder: scratch, database: scratch.file("link/state.db"))
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.push(.folder("inbox"))
        #expect(await session.flush())

        try WindowStore(path: scratch.file("b/state.db")).save(WindowState(session: "app", window: "elsewhere"))
        #expect(symlink("b", scratch.file("link.new")) == 0)
        #expect(rename(scratch.file("link.new"), scratch.file("link")) == 0)
        model.push(.thread(1))
        #expect(await session.flush(timeout: .seconds(2)) == false)
        guard case .store(.replaced(fixture.database))? = model.lastError else {
            Issue.record("lastError says the file was replaced, not \(String(describing: model.lastError))")
            return
        }
        #expect(try fixture.store().window(session: "app", window: "main") == nil, "nothing went into b")
        let first = try WindowStore(path: scratch.file("a/state.db")).window(session: "app", window: "main")
        #expect(first?.path.count == 1, "a keeps what was acknowledged, and no more")
    }

    @Test func aReadOnlyFileIsReportedAndWrittenOnceItIsWritableAgain() async throws {
        let (scratch, reason) = immutableCapableFolder()
        guard let scratch else {
            print("HostFaultTests: skipped the read-only test: \(reason)")
            try Test.cancel("\(reason)")
        }
        let fixture = HostFixture(folder: scratch)
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.push(.folder("inbox"))
        #expect(await session.flush())

        // The WAL the writer appends to, and the file, made immutable by another process (chattr).
        let files = [fixture.database + "-wal", fixture.database]
        for file in files {
            if let reason = makeImmutable(file) { try Test.cancel("\(reason)") }
        }
        model.push(.thread(1))
        let durable = await session.flush(timeout: .seconds(3))
        for file in files { makeMutable(file) }
        #expect(!durable)
        // An immutable file fails the write itself (SQLite's IOERR_WRITE), which says no more.
        #expect(session.storageIssue?.kind == .failed, "\(String(describing: session.storageIssue))")
        if case .store(let error)? = model.lastError { #expect(session.storageIssue?.error == error) }
        guard case .store(.io)? = model.lastError else {
            Issue.record("lastError says the file cannot be written, not \(String(describing: model.lastError))")
            return
        }
        #expect(model.stack == [.folder("inbox"), .thread(1)], "the model goes on in memory")

        #expect(await session.flush(), "writable again: the write is made")
        model.push(.message(2))
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "main")?.path.count == 3, "nothing lost")
    }

    @Test func aFullDiskIsReportedAndWrittenOnceThereIsRoom() async throws {
        let folder = TemporaryFolder(prefix: "statestore-host-tests-")
        let mountPoint = folder.file("small")
        if let reason = mountSmallFileSystem(at: mountPoint, size: "1m") {
            print("HostFaultTests: skipped the full-disk test: \(reason)")
            try Test.cancel("\(reason)")
        }
        defer { unmount(mountPoint) }
        let fixture = HostFixture(folder: folder, database: mountPoint + "/state.db")
        // Room taken by something else, given back once the disk has filled up.
        let filler = mountPoint + "/filler"
        try Data(count: 600 * 1024).write(to: URL(fileURLWithPath: filler))
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.push(.folder("inbox"))
        #expect(await session.flush())

        var pushed = 1
        var full = false
        for n in 0..<40 where !full {
            model.push(.attachment(String(repeating: Character(UnicodeScalar(UInt8(97 + n % 26))), count: 60_000)))
            pushed += 1
            // Full once a write fails for want of room: a flush that only took long (a busy
            // machine) is not taken for it.
            _ = await session.flush()
            if case .store(.io)? = model.lastError { full = true }
        }
        #expect(full, "1 MiB filled up")
        guard case .store(.io(let failure))? = model.lastError else {
            Issue.record("lastError says the disk is full, not \(String(describing: model.lastError))")
            return
        }
        #expect(failure.code.primary == .full || failure.code.primary == .ioErr, "\(failure)")
        #expect(model.path.count == pushed, "kept in memory")
        let issue = try #require(session.storageIssue, "the user hears of it")
        #expect([.diskFull, .failed].contains(issue.kind), "\(issue)")

        try FileManager.default.removeItem(atPath: filler)
        #expect(await session.flush(), "there is room again: the write is made")
        #expect(session.storageIssue == nil, "a write that commits ends it")
        #expect(try fixture.store().window(session: "app", window: "main")?.path.count == pushed, "nothing lost")
    }

    @Test func aGapInTheFeedReloadsTheWindow() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        model.push(.folder("inbox"))
        #expect(await session.flush())

        session.pauseObserving()
        let outside = try fixture.statectl(["set", "app", "main", "--push", stored(.thread(1)).description])
        #expect(outside.status == 0, "\(outside.stderr)")
        // More changes than the log keeps, after that one: it is trimmed before the feed reads it.
        let windows = (0..<1001).map { #"{"session":"busy","window":"w\#($0)"}"# }.joined(separator: ",")
        let imported = try fixture.statectl(
            ["import", "-"], stdin: #"{"format":"statectl/1","windows":[\#(windows)]}"#)
        #expect(imported.status == 0, "\(imported.stderr)")
        let trim = try fixture.statectl(["set", "busy", "last", "--dismiss"])
        #expect(trim.status == 0, "\(trim.stderr)")
        #expect(model.path == [.folder("inbox")], "paused: nothing was read")

        session.resumeObserving()
        await waitUntil("the reload after the gap") { model.path == [.folder("inbox"), .thread(1)] }
        #expect(model.revision == 2)
    }

    @Test func theFirstFrameIsNotHeldByAProcessWithTheWriteLock() async throws {
        let fixture = HostFixture()
        try fixture.store().save(WindowState(session: "app", window: "main", path: [stored(.folder("inbox"))]))
        let session = try await fixture.open()
        let lock = try WriteLock(fixture.database)
        defer { lock.release() }
        let model = session.window("main", as: Mail.self)
        #expect(!model.isRestoring, "WAL readers do not wait for a writer")
        #expect(model.path == [.folder("inbox")])
    }

    /// The open reads a session's windows ahead, so their first frames need no SQLite at all: shown
    /// at once even while another process recovers the WAL.
    @Test func aWindowTheOpenReadAheadIsShownAtOnceWhateverHoldsTheFile() async throws {
        let fixture = HostFixture()
        try fixture.store().save(WindowState(session: "app", window: "main", path: [stored(.folder("inbox"))]))
        let session = try await fixture.open()
        let recovery = try WALRecovery(fixture.database)
        defer { recovery.finish() }
        let model = session.window("main", as: Mail.self)
        #expect(!model.isRestoring)
        #expect(model.path == [.folder("inbox")])
        let other = session.window("new", as: Mail.self)
        #expect(!other.isRestoring, "a window the open found none of starts empty, read ahead too")
        #expect(other.path == [])
    }

    /// A window not read ahead (a session whose windows come to more bytes than the open reads
    /// ahead) is read on the writer, never on the main actor: it starts empty, and fills in later.
    @Test func aWindowNotReadAheadStartsEmptyAndFillsInLater() async throws {
        let fixture = HostFixture()
        let store = try fixture.store()
        let large = try Route(type: "Large", json: "\"" + String(repeating: "x", count: 60_000) + "\"")
        for index in 0..<10 { try store.save(WindowState(session: "app", window: "a-\(index)", path: [large])) }
        try store.save(WindowState(session: "app", window: "main", path: [stored(.folder("inbox"))]))
        let session = try await fixture.open()
        let recovery = try WALRecovery(fixture.database)
        let model = session.window("main", as: Mail.self)
        #expect(model.isRestoring, "read on the writer, which waits for the recovery")
        #expect(model.path == [])
        model.push(.thread(1))  // the user navigates meanwhile
        recovery.finish()
        await waitUntil("the restored window") { !model.isRestoring }
        #expect(model.path == [.folder("inbox"), .thread(1)], "the local edit is made again on top")
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "main")?.path.count == 2)
    }

    /// Another process recovering the WAL, as the first to open a file after a crash does: the
    /// WAL index's header is not valid, and it holds every lock of the index while it rebuilds it,
    /// so a reader gets SQLite's "busy: recovery" until it is done. The stand-in marks the first
    /// copy of the header as being rewritten and puts it back when done; it runs in a child process,
    /// because a descriptor of the `-shm` opened and closed here would drop this process's own locks.
    final class WALRecovery {
        private let process = Process()
        private let input = Pipe()

        init(_ database: String) throws {
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            // Bytes 120–127 of the -shm: the writer's, the checkpointer's, the recoverer's and the
            // five readers' locks; bytes 0–47 the first copy of the index header.
            process.arguments = [
                "python3", "-c",
                """
                import fcntl, os, sys
                fd = os.open(sys.argv[1], os.O_RDWR)
                fcntl.lockf(fd, fcntl.LOCK_EX, 8, 120)
                header = os.pread(fd, 48, 0)
                os.pwrite(fd, bytes(48), 0)
                print('recovering', flush=True)
                sys.stdin.read()
                os.pwrite(fd, header, 0)
                """,
                database + "-shm",
            ]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            let line = output.fileHandleForReading.readData(ofLength: 11)
            guard String(decoding: line, as: UTF8.self) == "recovering\n" else {
                throw RawSQLError(message: "the WAL-recovery stand-in did not start")
            }
        }

        func finish() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        deinit { finish() }
    }
}
