import Foundation
import StateStore
import StateStoreBaselines

// The notify section: how soon a change feed learns of a commit made by another
// process, and how often an idle one wakes, with file notifications and with forced polling
// (what every feed did before), in one run.

extension Bench {
    /// Commits in a child process, each after a random pause so that it lands anywhere in a
    /// polling feed's 50 ms; a feed in this process waits on a thread of its own all along. The
    /// latency is from the child's clock just after its commit returned to this process's clock
    /// just after the feed's wait returned the change (CLOCK_MONOTONIC is one clock for both).
    func notify() throws {
        let commits = options.quick ? 30 : 100
        let idle: Duration = options.quick ? .seconds(4) : .seconds(10)
        progress("notify: \(commits) commits by another process, with notifications and polling")
        let notified = try latencies(polling: false, commits: commits)
        let polled = try latencies(polling: true, commits: commits)
        for (name, quantile) in [("median", 0.5), ("p95", 0.95)] {
            let mine = percentile(notified, quantile)
            let theirs = percentile(polled, quantile)
            figures.append(
                Figure(
                    operation: "commit → feed wake-up, \(name)", unit: .milliseconds, subject: mine, raw: theirs,
                    rawName: "polling", subjectOverRaw: mine / theirs))
        }
        measured["notify latency"] = percentile(notified, 0.5)

        guard let statectl = Self.statectlPath() else {
            notes["notify idle"] = "statectl not found: build it with `swift build -c release --product statectl`"
            return
        }
        progress("notify: wake-ups of two idle `statectl watch`, one with --poll, for \(idle)")
        guard let (mine, theirs) = try idleWakeUps(statectl, for: idle) else {
            notes["notify idle"] = "wake-ups are counted from /proc/PID/task/*/status (Linux)"
            return
        }
        figures.append(
            Figure(
                operation: "idle statectl watch: wake-ups", unit: .perSecond, subject: mine, raw: theirs,
                rawName: "polling", subjectOverRaw: mine / theirs,
                note: "voluntary context switches of the process, from /proc/PID/task/*/status"))
        measured["notify idle"] = mine
    }

    /// The issue's goals for notification.
    var notifyTargets: [Target] {
        [
            Target(
                figure: "commit → feed wake-up, median, with notifications", measured: measured["notify latency"],
                unit: "ms", bound: .atMost, limit: 5, note: notes["notify latency"]),
            Target(
                figure: "idle wake-ups of a watching process", measured: measured["notify idle"], unit: "/s",
                bound: .atMost, limit: 1, note: notes["notify idle"]),
        ]
    }

    /// Milliseconds from each commit to the feed's wake-up.
    private func latencies(polling: Bool, commits: Int) throws -> [Double] {
        let path = folder + "/notify-\(polling ? "polling" : "notifications").db"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        var settings = WindowStore.Options()
        settings.forcePolling = polling
        let store = try WindowStore(path: path, options: settings)
        let feed = try store.changeFeed(session: NotifyWriter.session)
        if !polling, case .polling = feed.notification {
            notes["notify latency"] = "no notifications here: \(feed.notification)"
        }
        return try measureLatencies(feed, path: path, commits: commits)
    }

    private func measureLatencies(_ feed: ChangeFeed, path: String, commits: Int) throws -> [Double] {
        let wakes = WakeLog()
        let watcher = Thread {
            while !wakes.stopped {
                guard let events = try? feed.wait(), let revision = events.compactMap(\.change?.revision).max()
                else { continue }
                wakes.record(at: monotonicNanoseconds(), revision: revision)
            }
            wakes.finished.signal()
        }
        watcher.start()
        defer {
            wakes.stop()
            feed.interrupt()
            wakes.finished.wait()
        }

        let writer = try NotifyWriter.Child(path: path)
        defer { writer.finish() }
        var random = SplitMix64(seed: 14)
        var samples: [Double] = []
        for revision in 1...commits {
            usleep(UInt32.random(in: 10_000...110_000, using: &random))
            let committed = try writer.commit()
            guard let woke = wakes.next(timeout: .seconds(10)), woke.revision == revision else {
                throw StatebenchError("notify: the feed did not report revision \(revision)")
            }
            // The feed may read a commit before the writer's call has returned and read its clock.
            samples.append(Double(woke.nanoseconds > committed ? woke.nanoseconds - committed : 0) / 1e6)
        }
        return samples
    }

    /// Voluntary context switches per second of an idle `statectl watch` with notifications and of
    /// one with `--poll`, counted over the same `duration`; `nil` without `/proc`.
    private func idleWakeUps(_ statectl: String, for duration: Duration) throws -> (Double, Double)? {
        let idleFolder = folder + "/notify-idle"
        try? FileManager.default.removeItem(atPath: idleFolder)
        try FileManager.default.createDirectory(atPath: idleFolder, withIntermediateDirectories: true)
        let path = idleFolder + "/state.db"
        try WindowStore(path: path).save(WindowState(session: "idle", window: "w"))
        let watchers = try [false, true].map { polling in
            try IdleWatcher(statectl: statectl, path: path, polling: polling)
        }
        defer { watchers.forEach { $0.stop() } }
        // Each watcher's connection makes the -wal and -shm, which wakes the other, and a wake is
        // followed by rechecks: count from after them (and as long again), when both only wait.
        let rechecks = WakeSchedule.rechecks.reduce(.zero, +)
        sleep(for: rechecks * 2)
        let before = watchers.compactMap(\.switches)
        let start = monotonicNanoseconds()
        sleep(for: duration)
        let elapsed = Double(monotonicNanoseconds() - start) / 1e9
        let after = watchers.compactMap(\.switches)
        guard before.count == 2, after.count == 2 else { return nil }
        let rates = zip(before, after).map { Double($1 - $0) / elapsed }
        return (rates[0], rates[1])
    }

    private func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        usleep(UInt32(seconds) * 1_000_000 + UInt32(attoseconds / 1_000_000_000_000))
    }

    private func percentile(_ values: [Double], _ quantile: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * quantile).rounded()))]
    }
}

/// When the feed's thread saw which revision.
private final class WakeLog: @unchecked Sendable {
    private let lock = NSCondition()
    private var wakes: [(nanoseconds: UInt64, revision: Int)] = []
    private var isStopped = false
    let finished = DispatchSemaphore(value: 0)

    var stopped: Bool { lock.withLock { isStopped } }

    func stop() {
        lock.withLock { isStopped = true }
    }

    func record(at nanoseconds: UInt64, revision: Int) {
        lock.withLock {
            wakes.append((nanoseconds, revision))
            lock.broadcast()
        }
    }

    /// The oldest wake not yet taken, waiting up to `timeout` for one.
    func next(timeout: Duration) -> (nanoseconds: UInt64, revision: Int)? {
        let (seconds, _) = timeout.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds))
        return lock.withLock {
            while wakes.isEmpty {
                guard lock.wait(until: deadline) else { return nil }
            }
            return wakes.removeFirst()
        }
    }
}

/// `statectl watch` left idle, and its count of voluntary context switches: each is a wake-up.
private final class IdleWatcher {
    private let process = Process()

    init(statectl: String, path: String, polling: Bool) throws {
        process.executableURL = URL(fileURLWithPath: statectl)
        process.arguments = ["--db", path, "watch", "--verbose"] + (polling ? ["--poll"] : [])
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Its --verbose line comes once its feed is made: from then on it only waits.
        _ = errors.fileHandleForReading.readLine()
    }

    /// Voluntary context switches of all its threads so far; `nil` where `/proc` does not say.
    var switches: Int? {
        let tasks = "/proc/\(process.processIdentifier)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks), !threads.isEmpty else {
            return nil
        }
        return threads.reduce(0) { total, thread in
            let status = (try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            return total + (line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0)
        }
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

/// The writing side: `statebench --notify-writer PATH` commits one revision of a window for each
/// line on standard input and prints the monotonic clock, in nanoseconds, just after the commit.
enum NotifyWriter {
    static let session = "notify"

    /// The child process's loop.
    static func run(path: String) throws {
        let store = try WindowStore(path: path)
        var state = WindowState(session: session, window: "w")
        while readLine() != nil {
            state.sizeClass = state.sizeClass == .compact ? .regular : .compact
            try store.save(state)
            // One write(2) a line: standard output is a pipe, which print would buffer.
            FileHandle.standardOutput.write(Data("\(monotonicNanoseconds())\n".utf8))
        }
    }

    /// The child, seen from statebench.
    final class Child {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()

        init(path: String) throws {
            guard let me = Bundle.main.executablePath else { throw StatebenchError("notify: where is statebench?") }
            process.executableURL = URL(fileURLWithPath: me)
            process.arguments = ["--notify-writer", path]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        /// Asks for one commit and returns the child's clock just after it.
        func commit() throws -> UInt64 {
            input.fileHandleForWriting.write(Data("commit\n".utf8))
            guard let line = output.fileHandleForReading.readLine(), let nanoseconds = UInt64(line) else {
                throw StatebenchError("notify: the writer stopped")
            }
            return nanoseconds
        }

        func finish() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }
}

extension FileHandle {
    /// One line, read a byte at a time so that nothing after it is taken; `nil` at the end.
    fileprivate func readLine() -> String? {
        var bytes: [UInt8] = []
        while let byte = try? read(upToCount: 1)?.first {
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
