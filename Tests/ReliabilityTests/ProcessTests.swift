import Foundation
import StateStore
import Testing

/// Many processes share one file; no write is lost; a lock not had within the timeout is an error,
/// never a silent drop, and a lock that is had within it is never an error.
@Suite(.serialized)
struct ProcessTests {
    /// N processes (`RELIABILITY_PROCESSES`, default 4) each make K (`RELIABILITY_INCREMENTS`,
    /// default 100) read-modify-write increments with expected revisions, retrying on conflict.
    /// They open a file that does not exist yet all at once, then start incrementing together.
    @Test func processesIncrementingWithExpectedRevisionsLoseNoWrite() throws {
        let folder = TemporaryFolder()
        let path = folder.file("shared/counter.db")
        let processes = setting("RELIABILITY_PROCESSES", default: 4)
        let increments = setting("RELIABILITY_INCREMENTS", default: 100)
        let go = folder.file("go")

        let children = try (0..<processes).map { _ in
            try Child(stressHelperPath, ["increment", path, "counter", "w", String(increments), go])
        }
        for child in children {
            #expect(child.readLine(timeout: .seconds(60)) == "ready", "opening at once: \(child.output)")
        }
        _ = FileManager.default.createFile(atPath: go, contents: Data())
        var conflicts = 0
        for child in children {
            let termination = try child.wait()
            // A busy error (or any other) would end the child with its exit code and say so.
            #expect(termination == .exited(0), "\(child.output) \(child.errors)")
            let report = child.remainingLines().last ?? ""
            #expect(report.hasPrefix("conflicts "), "\(report)")
            conflicts += Int(report.dropFirst("conflicts ".count)) ?? 0
        }
        print("ProcessTests: \(processes) × \(increments) increments, \(conflicts) conflicts retried")

        let store = try WindowStore(path: path)
        let final = try #require(try store.window(session: "counter", window: "w"))
        #expect(final.item?.json == String(processes * increments))
        #expect(final.revision == processes * increments)
        #expect(try store.check().isOK)
    }

    /// Another process holds the write lock past this store's busy timeout: the write fails with
    /// the busy error once the timeout has run out — not sooner, and not only when the lock is
    /// given back — and writes nothing.
    @Test func aLockHeldByAnotherProcessPastTheTimeoutIsBusy() throws {
        let folder = TemporaryFolder()
        let path = folder.file("busy.db")
        var options = WindowStore.Options()
        options.busyTimeoutMilliseconds = 300
        let store = try WindowStore(path: path, options: options)
        let before = try store.save(WindowState(session: "s", window: "w", sizeClass: .compact))

        let holder = try Child(stressHelperPath, ["hold", path, "60"])
        #expect(holder.readLine(timeout: .seconds(60)) == "locked", "\(holder.errors)")

        let started = ContinuousClock.now
        #expect {
            try store.save(WindowState(session: "s", window: "w", sizeClass: .regular))
        } throws: { error in
            guard case .busy(let failure) = error as? StateStoreError else { return false }
            return failure.code.primary == .busy
        }
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(300), "it waited the whole timeout first")
        // Promptly: the holder still has the lock (it keeps it for a minute).
        #expect(holder.readLine(timeout: .zero) == nil)
        #expect(waited < .seconds(30), "failed long before the holder let go")
        // Readers are not blocked meanwhile, and see nothing new.
        #expect(try store.window(session: "s", window: "w") == before)

        holder.send(SIGKILL)
        _ = try holder.wait()
        #expect(try store.window(session: "s", window: "w") == before, "nothing was written")
        #expect(try store.windowSummaries().map(\.window) == ["w"], "the holder wrote nothing either")
        #expect(try store.save(WindowState(session: "s", window: "w")).revision == 2)
    }

    /// A lock given back within the timeout is waited for: no busy error reaches the caller.
    @Test func aLockReleasedWithinTheTimeoutIsWaitedFor() throws {
        let folder = TemporaryFolder()
        let path = folder.file("wait.db")
        let store = try WindowStore(path: path)  // the default timeout: 5 s
        try store.save(WindowState(session: "s", window: "w"))

        let holder = try Child(stressHelperPath, ["hold", path, "1"])
        #expect(holder.readLine(timeout: .seconds(60)) == "locked", "\(holder.errors)")
        let saved = try store.save(WindowState(session: "s", window: "w", sizeClass: .regular))
        #expect(saved.revision == 2)
        #expect(holder.readLine(timeout: .seconds(60)) == "released", "the holder gave the lock back, writing nothing")
        #expect(try holder.wait() == .exited(0))
        #expect(try store.window(session: "s", window: "w")?.sizeClass == .regular)
    }
}
