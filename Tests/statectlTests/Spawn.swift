import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where a spawned `statectl`'s standard output goes, for the runs that `Process` cannot set up.
enum SpawnedOutput: String, Sendable, CaseIterable, CustomStringConvertible {
    /// A file, read back as ``Run/stdout``.
    case file
    /// `/dev/full`: every write fails with `ENOSPC`.
    case full
    /// Descriptor 1 closed.
    case closed
    /// A pipe whose reading end is closed before the child starts: `EPIPE`, or `SIGPIPE`.
    case brokenPipe

    /// The ways a write to standard output fails.
    static let failing: [SpawnedOutput] = [.full, .closed, .brokenPipe]

    var description: String { rawValue }
}

/// Runs `statectl` as a ``SpawnedChild``, with the environment of `Fixture`, standard error to a
/// file (or to the descriptor `stderr`: then ``Run/stderr`` is empty) and every signal at its
/// default action — `SIGPIPE` too, whatever the test process does with it, so a child that does
/// not handle a broken pipe dies of it as it would under a shell. A child killed by a
/// signal has status 128 + the signal, as a shell reports it. `whileRunning` is called with the
/// path of its standard error once it has started; the child is waited for after it returns.
func statectl(
    spawning arguments: [String], environment: [String: String], stdin: ChildInput = .empty,
    stdout: SpawnedOutput = .file, stderr: Int32? = nil,
    whileRunning: ((_ standardError: String) throws -> Void)? = nil
) throws -> Run {
    try statectl(
        spawningBytes: arguments.map { Array($0.utf8) }, environment: environment, stdin: stdin, stdout: stdout,
        stderr: stderr, whileRunning: whileRunning)
}

/// ``statectl(spawning:environment:stdin:stdout:stderr:whileRunning:)`` with arguments given as raw
/// bytes, which need not be UTF-8 (`Process` cannot pass those).
func statectl(
    spawningBytes arguments: [[UInt8]], environment: [String: String], stdin: ChildInput = .empty,
    stdout: SpawnedOutput = .file, stderr: Int32? = nil,
    whileRunning: ((_ standardError: String) throws -> Void)? = nil
) throws -> Run {
    let folder = TemporaryFolder(prefix: "statectl-spawn-")
    var pipeWriter: Int32 = -1
    let output: ChildOutput
    switch stdout {
    case .file: output = .file(folder.file("stdout"))
    case .full: output = .file("/dev/full")
    case .closed: output = .closed
    case .brokenPipe:
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw FixtureError(message: "pipe: \(errno)") }
        // Close-on-exec, so no other child spawned meanwhile holds either end; the reader goes now.
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        close(ends[0])
        pipeWriter = ends[1]
        output = .descriptor(pipeWriter)
    }
    defer { if pipeWriter >= 0 { close(pipeWriter) } }
    var env = ProcessInfo.processInfo.environment
    env["STATECTL_DB"] = nil
    env["NO_COLOR"] = nil
    for (key, value) in environment { env[key] = value }
    let errors = folder.file("stderr")
    // Killed and waited for by its deinit if `whileRunning` throws.
    let child = try SpawnedChild(
        statectlPath, bytes: arguments, environment: env, stdin: stdin, stdout: output,
        stderr: stderr.map { .descriptor($0) } ?? .file(errors))
    try whileRunning?(errors)
    child.waitUntilExit()
    return Run(
        status: child.terminationSignal.map { 128 + $0 } ?? child.terminationStatus,
        stdout: stdout == .file
            ? String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder.file("stdout"))), as: UTF8.self) : "",
        stderr: stderr == nil
            ? String(decoding: try Data(contentsOf: URL(fileURLWithPath: errors)), as: UTF8.self) : "")
}

extension Fixture {
    /// Runs `statectl --db <database> arguments...` through ``statectl(spawning:environment:stdin:stdout:whileRunning:)``.
    func spawn(_ arguments: [String], stdin: ChildInput = .empty, stdout: SpawnedOutput = .file) throws -> Run {
        try statectl(spawning: ["--db", database] + arguments, environment: environment, stdin: stdin, stdout: stdout)
    }
}
