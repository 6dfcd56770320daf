import Foundation
import StateStore
import Testing

/// A file replaced while a store opens it: the store must know the file SQLite opened, not the
/// one the name leads to a moment later. Each round opens a store while a thread renames fresh
/// copies over the path, stops the thread, then saves: the save either fails naming the
/// replacement or its window is in the file the path names once the store has closed. A save
/// acknowledged into the file the renames unlinked is a lost write.
@Suite(.serialized)
struct OpeningSwapTests {
    /// The bytes of a closed store holding one window, to copy over the path.
    private static func template(in folder: TemporaryFolder) throws -> [UInt8] {
        let path = folder.file("template.db")
        try WindowStore(path: path).save(WindowState(session: "s", window: "seed"))
        return try #require(contents(path).map { [UInt8]($0) })
    }

    /// Writes `bytes` as a new file at `path`.
    private static func write(_ bytes: [UInt8], to path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    /// Opens a store at `path` while `renamer` runs, stops it, then saves `window`: whether the
    /// save was acknowledged (false: refused as replaced; nil: the open failed). The store is
    /// closed when this returns.
    private static func openAndSave(
        _ path: String, window: String, options: WindowStore.Options, while renamer: Renamer
    ) -> (saved: Bool?, swaps: Int) {
        let opened = Result { try WindowStore(path: path, options: options) }
        let swaps = renamer.stop()
        let store: WindowStore
        switch opened {
        case .success(let opened): store = opened
        case .failure(let error):
            Issue.record("the open failed: \(error)")
            return (nil, swaps)
        }
        do {
            try store.save(WindowState(session: "s", window: window))
            return (true, swaps)
        } catch {
            #expect(Self.isReplaced(error), "\(error)")
            return (false, swaps)
        }
    }

    /// The size of a file, from `stat`, or nil when there is none.
    private static func size(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    private static func isReplaced(_ error: any Error) -> Bool {
        if case .replaced? = error as? StateStoreError { true } else { false }
    }

    /// `RELIABILITY_OPEN_SWAPS` rounds (2,000; at most 60 s): 0 saves acknowledged into a file the
    /// path no longer names. With the file's identity read from SQLite's descriptor, and without
    /// (as where SQLite's VFS is not its unix one: SQLite's own check then decides).
    @Test(arguments: [true, false])
    func aFileReplacedWhileAStoreOpensItIsNeverWritten(readsDescriptor: Bool) throws {
        var options = WindowStore.Options()
        options.readsDescriptor = readsDescriptor
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let bytes = try Self.template(in: folder)
        Self.write(bytes, to: path)
        let spread = setting("RELIABILITY_OPEN_SWAP_SPREAD_US", default: 200)
        let rounds = setting("RELIABILITY_OPEN_SWAPS", default: 2000)
        let deadline = ContinuousClock.now + .seconds(60)
        var (acknowledged, refused, lost, swaps, done) = (0, 0, [String](), 0, 0)
        for round in 1...rounds where ContinuousClock.now < deadline {
            done = round
            // One rename, at a moment spread over the open's first part (where SQLite opens the
            // file): more would replace the file again before the save, which the check then sees.
            let copy = folder.file("copy.tmp")
            Self.write(bytes, to: copy)
            let delay = Duration.microseconds(Int.random(in: 0...spread))
            let renamer = Renamer {
                let start = ContinuousClock.now
                while ContinuousClock.now - start < delay {}
                rename(copy, path)
            }
            let outcome = Self.openAndSave(path, window: "r\(round)", options: options, while: renamer)
            swaps += outcome.swaps
            switch outcome.saved {
            case nil: continue
            case false?:
                refused += 1
                unlink(path + "-wal")  // the refused store's, emptied into the file it opened
                unlink(path + "-shm")
                continue
            case true?: acknowledged += 1
            }
            // The store has closed. Had it written into the file the rename unlinked, SQLite would
            // have kept that file's WAL under the path's name (it neither empties nor deletes the
            // WAL of a moved file), where the next open would replay it onto the file now there.
            let leftWAL = Self.size(path + "-wal") ?? 0
            unlink(path + "-wal")
            unlink(path + "-shm")
            let kept = try WindowStore(path: path).window(session: "s", window: "r\(round)") != nil
            if leftWAL > 0 || !kept { lost.append("r\(round)") }
        }
        print(
            "OpeningSwapTests (descriptor read: \(readsDescriptor)): \(done) opens, \(swaps) renames: \(acknowledged) saves acknowledged, "
                + "\(refused) refused as replaced, \(lost.count) lost")
        #expect(lost.isEmpty, "acknowledged into a file the path no longer named: \(lost)")
        #expect(acknowledged > 0 && refused > 0, "both outcomes met: the race ran")
    }
}

/// A thread running `body` over and over from its making until ``stop()``.
final class Renamer: @unchecked Sendable {
    private let lock = NSLock()
    private var stopping = false
    private var runs = 0
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the thread, and returns once it runs.
    init(_ body: @escaping @Sendable () -> Void) {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            started.signal()
            body()
            lock.withLock { runs = 1 }
            finished.signal()
        }
        thread.start()
        started.wait()
    }

    /// Stops the thread, once its run under way has ended; how many runs it made.
    func stop() -> Int {
        lock.withLock { stopping = true }
        finished.wait()
        return lock.withLock { runs }
    }
}
