import Foundation
import Observation
import StateStore
import StateStoreBaselines
import StateStoreHost

// The host section: a live WindowModel on the main actor, which is idle between the
// steps (statebench's main is async, so the main queue the host delivers on is serviced).

extension Bench {
    /// A verb's own time on the main actor; the time from the verb to the model learning that its
    /// write committed (its `revision` changes, observed with `withObservationTracking`); and the
    /// time from an outside `statectl set` to the model's `stack` changing.
    @MainActor
    func host() async throws {
        let path = folder + "/host.db"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let base = try Route(type: "Bench.Folder", json: #""inbox""#)
        try WindowStore(path: path).save(WindowState(session: "host", window: "main", path: [base]))
        let session = try await WindowSession.open(path: path, session: "host")
        let model = session.window("main", as: Route.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        guard model.revision == 1 else { throw StatebenchError("host: the window was not restored") }

        let verbs = options.quick ? 100 : 400
        progress("host: \(verbs) pushes on the main actor, each to its commit")
        let routes = try (0..<16).map { try Route(type: "Bench.Message", json: #"{"id":\#($0)}"#) }
        var verbTimes: [Double] = []
        var verbCPUTimes: [Double] = []
        var queuedTimes: [Double] = []
        var commitTimes: [Double] = []
        for index in 0..<verbs {
            // The first push hands its write to the idle writer; the second, made in the same turn
            // of the main actor, finds that write in flight and only records its edit.
            let revision = model.revision
            var (start, handed, queued) = (UInt64(0), UInt64(0), UInt64(0))
            var (cpuStart, cpuEnd) = (UInt64(0), UInt64(0))
            let committed = try await nextChange(of: { _ = model.revision }) {
                cpuStart = threadCPUNanoseconds()
                start = monotonicNanoseconds()
                model.push(routes[index % routes.count])
                handed = monotonicNanoseconds()
                cpuEnd = threadCPUNanoseconds()
                model.push(routes[(index + 1) % routes.count])
                queued = monotonicNanoseconds()
            }
            verbTimes.append(Double(handed - start) / 1e3)
            verbCPUTimes.append(Double(cpuEnd - cpuStart) / 1e3)
            queuedTimes.append(Double(queued - handed) / 1e3)
            commitTimes.append(Double(committed - start) / 1e6)
            while model.revision < revision + 2 { _ = try await nextChange(of: { _ = model.revision }) {} }
            _ = try await nextChange(of: { _ = model.revision }) { model.pop(2) }
            if let error = model.lastError { throw StatebenchError("host: \(error)") }
        }
        hostFigure("push on the main actor, median", .microsecondsPerOperation, percentile(verbTimes, 0.5))
        hostFigure("push on the main actor, p99", .microsecondsPerOperation, percentile(verbTimes, 0.99))
        // The main thread's own CPU time: what is left once other threads and processes preempting
        // it (the writer it woke, on a machine of two cores) are taken out.
        hostFigure("push, main thread's CPU time, median", .microsecondsPerOperation, percentile(verbCPUTimes, 0.5))
        hostFigure(
            "push, its window's write in flight, median", .microsecondsPerOperation, percentile(queuedTimes, 0.5))
        hostFigure("push, its window's write in flight, p99", .microsecondsPerOperation, percentile(queuedTimes, 0.99))
        hostFigure("push → its commit, median", .milliseconds, percentile(commitTimes, 0.5))
        hostFigure("push → its commit, p95", .milliseconds, percentile(commitTimes, 0.95))
        measured["host verb"] = percentile(verbTimes, 0.5)
        let (detached, detachedAfterIdle) = measureDetachedPushes(routes: routes)
        // What the push that found the writer idle took over the one after it, whose write was in
        // flight: waking the writer's thread, mostly.
        let handOffs = zip(verbTimes, queuedTimes).map { $0 - $1 }
        hostFigure(
            "push: its hand-off (push − the push after it), median", .microsecondsPerOperation,
            percentile(handOffs, 0.5))
        if let (floor, otherCore) = measureWakeFloor() {
            // What this machine allows a push that starts a write: the model's own work after the
            // main thread idled, and waking the writer's thread on the other core, plus 2 µs.
            measured["host verb allowance"] = detachedAfterIdle + otherCore + 2
            notes["host verb"] =
                "a push with no session (the model alone): " + detached.joined(separator: ", ")
                + "; the floor, a thread waking another (C): " + floor.joined(separator: ", ")
        } else {
            notes["host verb"] = "the wake floor is measured on Linux with two cores or more"
        }

        guard let statectl = Self.statectlPath() else {
            notes["host outside"] = "statectl not found: build it with `swift build -c release --product statectl`"
            return
        }
        let changes = options.quick ? 15 : 60
        progress("host: \(changes) outside `statectl set` commits, each to the model's change")
        var random = SplitMix64(seed: 11)
        var latencies: [Double] = []
        var early = 0
        for index in 0..<changes {
            // Anywhere in a polling feed's period.
            try await Task.sleep(for: .milliseconds(Int(random.next() % 60)))
            let mutation = index % 2 == 0 ? ["--push", #"Bench.Outside:{"n":\#(index)}"#] : ["--pop", "1"]
            let exit = ChildExit()
            let changed = try await nextChange(of: { _ = model.stack }) {
                let arguments = ["set", "--db", path, "host", "main"] + mutation
                Thread {
                    let run = try? runProcess(statectl, arguments)
                    exit.record(status: run?.status ?? -1)
                }.start()
            }
            let (exited, status) = exit.wait()
            guard status == 0 else { throw StatebenchError("host: statectl set exited \(status)") }
            if changed < exited { early += 1 }
            latencies.append(Double(changed > exited ? changed - exited : 0) / 1e6)
        }
        hostFigure("outside statectl set → model change, median", .milliseconds, percentile(latencies, 0.5))
        hostFigure("outside statectl set → model change, p95", .milliseconds, percentile(latencies, 0.95))
        measured["host outside"] = percentile(latencies, 0.95)
        notes["host outside"] =
            "from the child's exit (after its commit) to the model's stack changing; "
            + "\(early) of \(changes) changed before the exit was seen (counted as 0)"
    }

    /// A push with no session behind it (``WindowModel/init(previewing:item:itemPath:sizeClass:options:)``):
    /// nothing to write, no thread to wake, so only the model's own work; made back to back (its
    /// code and data in the caches), and after the main thread slept 0.3 ms, as between a user's
    /// actions (what an idle core gives back to the machine is cold again).
    /// Returns the medians as the target's note says them, and the median after the sleep.
    @MainActor
    private func measureDetachedPushes(routes: [Route]) -> (parts: [String], afterIdle: Double) {
        let model = WindowModel<Route>(previewing: [routes[0]])
        let count = options.quick ? 200 : 1000
        var parts: [String] = []
        var afterIdle = 0.0
        for (sleeps, name) in [(false, "back to back"), (true, "after 0.3 ms asleep")] {
            var times: [Double] = []
            for index in 0..<count {
                if sleeps { usleep(300) }
                let start = monotonicNanoseconds()
                model.push(routes[index % routes.count])
                times.append(Double(monotonicNanoseconds() - start) / 1e3)
                model.pop()
            }
            hostFigure(
                "push with no session (no write), \(name), median", .microsecondsPerOperation,
                percentile(times, 0.5))
            parts.append(String(format: "%.1f", percentile(times, 0.5)) + " µs \(name)")
            if sleeps { afterIdle = percentile(times, 0.5) }
        }
        return (parts, afterIdle)
    }

    /// The floor of a verb that starts a write, in C: a thread idle for a millisecond (a user's pace)
    /// waking one that sleeps on the same core, and on the other one; each woken thread then works
    /// 100 µs, as a commit does. Only the wake is timed. Returns the medians as the target's note
    /// says them, and the other core's median; `nil` where threads cannot be placed on cores (not
    /// Linux, or one core).
    private func measureWakeFloor() -> (parts: [String], otherCore: Double)? {
        let rounds = options.quick ? 60 : 200
        var parts: [String] = []
        var otherCoreMedian = 0.0
        for (otherCore, name) in [(false, "same core"), (true, "other core")] {
            guard
                let times = wakeFloor(
                    otherCore: otherCore, rounds: rounds, idleMicroseconds: 1000, workMicroseconds: 100)
            else { return nil }
            let median = percentile(times, 0.5)
            hostFigure("floor (C): waking a sleeping thread on the \(name), median", .microsecondsPerOperation, median)
            parts.append(String(format: "%.1f", median) + " µs on the \(name)")
            if otherCore { otherCoreMedian = median }
        }
        return (parts, otherCoreMedian)
    }

    /// The goals of the host issue.
    var hostTargets: [Target] {
        [
            // 10 µs where a thread wakes in microseconds; on a machine whose idle core halts, what it
            // allows: the model's own work after idling and the other core's wake floor, + 2 µs.
            Target(
                figure: "a verb on the main actor, median", measured: measured["host verb"], unit: "µs",
                bound: .atMost, limit: max(10, measured["host verb allowance"] ?? 10), note: notes["host verb"]),
            Target(
                figure: "outside commit → model change, p95", measured: measured["host outside"], unit: "ms",
                bound: .atMost, limit: 100, note: notes["host outside"]),
        ]
    }

    private func hostFigure(_ operation: String, _ unit: Figure.Unit, _ value: Double) {
        figures.append(Figure(operation: operation, unit: unit, subject: value, rawName: "host"))
    }

    /// Runs `body`, then waits until what `read` reads changes; returns when it did (monotonic
    /// nanoseconds, taken as the change is made), or throws after 10 s.
    @MainActor
    private func nextChange(of read: @escaping @MainActor () -> Void, after body: () -> Void) async throws -> UInt64 {
        let once = OneShot()
        let timeout = Task {
            try await Task.sleep(for: .seconds(10))
            once.finish(.failure(StatebenchError("host: nothing changed within 10 s")))
        }
        defer { timeout.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            once.continuation = continuation
            withObservationTracking(read) { once.finish(.success(monotonicNanoseconds())) }
            body()
        }
    }

    /// The calling thread's CPU time in nanoseconds.
    private func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private func percentile(_ values: [Double], _ quantile: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * quantile).rounded()))]
    }
}

/// A continuation resumed by whichever comes first: the change or the timeout.
private final class OneShot: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: CheckedContinuation<UInt64, any Error>?
    private var result: Result<UInt64, any Error>?

    var continuation: CheckedContinuation<UInt64, any Error>? {
        get { lock.withLock { waiting } }
        set {
            let early = lock.withLock { () -> Result<UInt64, any Error>? in
                if let result { return result }
                waiting = newValue
                return nil
            }
            if let early { newValue?.resume(with: early) }
        }
    }

    func finish(_ outcome: Result<UInt64, any Error>) {
        let continuation = lock.withLock { () -> CheckedContinuation<UInt64, any Error>? in
            guard result == nil else { return nil }
            result = outcome
            defer { waiting = nil }
            return waiting
        }
        continuation?.resume(with: outcome)
    }
}

/// When a child process exited, as seen by the thread that waited for it.
private final class ChildExit: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var nanoseconds: UInt64 = 0
    private var status: Int32 = 0

    func record(status: Int32) {
        nanoseconds = monotonicNanoseconds()
        self.status = status
        done.signal()
    }

    func wait() -> (nanoseconds: UInt64, status: Int32) {
        done.wait()
        return (nanoseconds, status)
    }
}
