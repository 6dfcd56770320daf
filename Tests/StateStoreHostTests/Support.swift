import Foundation
import Observation
import StateStore
import StateStoreHost
@_exported import StateStoreTestSupport
import Testing

/// A clock that moves only when a test says so: size-class changes settle without anyone sleeping.
final class TestClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [(deadline: Instant, continuation: CheckedContinuation<Void, any Error>)] = []

    private var started = 0

    var now: Instant { lock.withLock { current } }
    /// How many sleeps have begun: each is a task someone woke a thread for.
    var sleepsStarted: Int { lock.withLock { started } }
    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await withCheckedThrowingContinuation { continuation in
            let due = lock.withLock { () -> Bool in
                started += 1
                if deadline <= current { return true }
                sleepers.append((deadline, continuation))
                return false
            }
            if due { continuation.resume() }
        }
    }

    /// Moves the clock on, waking the sleepers whose time has come.
    func advance(by duration: Duration) {
        let due = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.deadline <= current }.map(\.continuation)
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for continuation in due { continuation.resume() }
    }
}

/// A route type of a mail app, as a host would declare it.
enum Mail: Codable, Hashable, RouteRepresentable {
    case folder(String)
    case thread(Int)
    case message(Int)
    case compose(draft: Int)
    case attachment(String)
}

/// The route a `Mail` value is stored as.
func stored(_ value: Mail) -> Route {
    try! value.route()
}

/// A folder for one test, removed when the test ends.
final class HostFixture {
    let folder: TemporaryFolder
    let clock = TestClock()
    let database: String

    /// A fixture in `folder` (a new temporary one by default), its database there or at `database`.
    init(folder: TemporaryFolder = TemporaryFolder(prefix: "statestore-host-tests-"), database: String? = nil) {
        self.folder = folder
        self.database = database ?? folder.file("state.db")
    }

    func options(
        settle: Duration = .milliseconds(500), layoutFollows: SizeClassGate.LayoutFollows = .immediately
    )
        -> WindowSession.Options
    {
        var options = WindowSession.Options()
        options.settle = settle
        options.layoutFollows = layoutFollows
        options.clock = clock
        return options
    }

    @MainActor
    func open(_ session: String = "app", options: WindowSession.Options? = nil) async throws -> WindowSession {
        try await WindowSession.open(path: database, session: session, options: options ?? self.options())
    }

    func store() throws -> WindowStore { try WindowStore(path: database) }

    /// Runs the built `statectl` on this fixture's database.
    @discardableResult
    func statectl(_ arguments: [String], stdin: String? = nil) throws -> (status: Int32, stdout: String, stderr: String)
    {
        var environment = ProcessInfo.processInfo.environment
        environment["STATECTL_DB"] = nil
        let files = TemporaryFolder(prefix: "statectl-run-")
        try Data((stdin ?? "").utf8).write(to: URL(fileURLWithPath: files.file("stdin")))
        let status = try spawnAndWait(
            builtBinary("statectl", environment: "STATECTL_BIN"), ["--db", database] + arguments,
            environment: environment, stdin: .file(files.file("stdin")), stdout: .file(files.file("stdout")),
            stderr: .file(files.file("stderr")))
        func text(_ name: String) throws -> String {
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: files.file(name))), as: UTF8.self)
        }
        return (status, try text("stdout"), try text("stderr"))
    }
}

/// Waits until `condition` holds, re-checking whenever an observed property it reads changes
/// (never by polling), for at most `timeout` of real time.
@MainActor
func waitUntil(
    timeout: Duration = .seconds(10), _ what: String = "the condition",
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @escaping @MainActor () -> Bool
) async {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Once(continuation)
            withObservationTracking {
                _ = condition()
            } onChange: {
                once.resume()
            }
            if condition() { once.resume() }
            Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                once.resume()
            }
        }
        if ContinuousClock.now >= deadline && !condition() {
            Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
            return
        }
    }
}

/// Resumes a continuation once, however many times it is asked.
final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = continuation
    }

    func resume() {
        let pending = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            defer { continuation = nil }
            return continuation
        }
        pending?.resume()
    }
}
