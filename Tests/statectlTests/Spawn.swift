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

/// Where a spawned `statectl`'s standard input comes from.
enum SpawnedInput: Sendable {
    /// `/dev/null`.
    case empty
    /// A file or device, opened for reading.
    case path(String)
    /// An open descriptor of the test process (the slave of a pseudo-terminal, a pipe's reading
    /// end), inherited as descriptor 0.
    case descriptor(Int32)
}

/// Runs `statectl` with `posix_spawn`, the environment of `Fixture`, standard error to a file (or
/// to the descriptor `stderr`: then ``Run/stderr`` is empty) and
/// `SIGPIPE` at its default action (whatever the test process does with it), so a child that
/// does not handle a broken pipe dies of it as it would under a shell. A child killed by a
/// signal has status 128 + the signal, as a shell reports it. `whileRunning` is called with the
/// path of its standard error once it has started; the child is waited for after it returns.
func statectl(
    spawning arguments: [String], environment: [String: String], stdin: SpawnedInput = .empty,
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
    spawningBytes arguments: [[UInt8]], environment: [String: String], stdin: SpawnedInput = .empty,
    stdout: SpawnedOutput = .file, stderr: Int32? = nil,
    whileRunning: ((_ standardError: String) throws -> Void)? = nil
) throws -> Run {
    let folder = NSTemporaryDirectory() + "statectl-spawn-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    switch stdin {
    case .empty: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    case .path(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
    case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, 0)
    }
    var pipeWriter: Int32 = -1
    switch stdout {
    case .file:
        posix_spawn_file_actions_addopen(&actions, 1, folder + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    case .full:
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/full", O_WRONLY, 0)
    case .closed:
        posix_spawn_file_actions_addclose(&actions, 1)
    case .brokenPipe:
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw FixtureError(message: "pipe: \(errno)") }
        // Close-on-exec, so no other child spawned meanwhile holds either end; the reader goes now.
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        close(ends[0])
        pipeWriter = ends[1]
        posix_spawn_file_actions_adddup2(&actions, pipeWriter, 1)
    }
    defer { if pipeWriter >= 0 { close(pipeWriter) } }
    if let stderr {
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
    } else {
        posix_spawn_file_actions_addopen(&actions, 2, folder + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    var env = ProcessInfo.processInfo.environment
    env["STATECTL_DB"] = nil
    env["NO_COLOR"] = nil
    for (key, value) in environment { env[key] = value }
    let argv = cStringArray([Array(statectlPath.utf8)] + arguments)
    let envp = cStringArray(environmentStrings(env))
    defer {
        for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, statectlPath, &actions, &attributes, argv, envp)
    guard code == 0 else { throw FixtureError(message: "posix_spawn: \(code)") }
    var waited = false
    defer {
        if !waited {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }
    let errors = folder + "/stderr"
    try whileRunning?(errors)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    waited = true
    let signal = status & 0x7F
    return Run(
        status: signal != 0 ? 128 + signal : (status >> 8) & 0xFF,
        stdout: stdout == .file
            ? String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/stdout")), as: UTF8.self) : "",
        stderr: stderr == nil
            ? String(decoding: try Data(contentsOf: URL(fileURLWithPath: errors)), as: UTF8.self) : "")
}

extension Fixture {
    /// Runs `statectl --db <database> arguments...` through ``statectl(spawning:environment:stdin:stdout:whileRunning:)``.
    func spawn(_ arguments: [String], stdin: SpawnedInput = .empty, stdout: SpawnedOutput = .file) throws -> Run {
        try statectl(spawning: ["--db", database] + arguments, environment: environment, stdin: stdin, stdout: stdout)
    }
}
