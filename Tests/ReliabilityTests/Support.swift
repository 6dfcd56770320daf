import Foundation
import StateStore
import StateStoreSQLite
@_exported import StateStoreTestSupport
import Testing

/// A test setting read from the environment, so that `Scripts/reliability-long.sh` can run the
/// same tests longer than CI does.
func setting(_ name: String, default value: Int) -> Int {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) } ?? value
}

/// Copies a database and its write-ahead log (not its shared-memory index, which a crashed
/// process may have left in any state) to `folder`, as a second machine would receive them.
func copyDatabase(_ path: String, to destination: String) throws {
    for suffix in ["", "-wal"] where exists(path + suffix) {
        try? FileManager.default.removeItem(atPath: destination + suffix)
        try FileManager.default.copyItem(atPath: path + suffix, toPath: destination + suffix)
    }
}

// MARK: - Binaries

let stressHelperPath = builtBinary("statestore-stress", environment: "STATESTORE_STRESS_BIN")
let statectlPath = builtBinary("statectl", environment: "STATECTL_BIN")

// MARK: - Child processes

/// How a child process ended.
enum Termination: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    var description: String {
        switch self {
        case .exited(let code): "exit \(code)"
        case .signaled(let signal): "signal \(signal)"
        }
    }
}

struct ChildError: Error, CustomStringConvertible {
    let description: String
}

private let spawnLock = NSLock()

/// A child process started with `posix_spawn`, its arguments passed as raw bytes (so a test can
/// hand it invalid UTF-8), its stdout and stderr on pipes, its stdin from a file.
final class Child {
    let pid: pid_t
    private var stdout: Int32
    private var stderr: Int32
    private var pendingOut: [UInt8] = []
    private(set) var collectedOut: [UInt8] = []
    private(set) var collectedErr: [UInt8] = []
    private var termination: Termination?

    /// Starts `executable` with `arguments`. `environment` entries replace or (with nil) remove
    /// the test's own; `STATECTL_DB` is always removed.
    init(
        _ executable: String, _ arguments: [[UInt8]], environment: [String: String?] = [:],
        stdin stdinPath: String = "/dev/null"
    ) throws {
        // Pipes are made and handed over under one lock, so a child started at the same moment
        // by another test cannot inherit this one's write ends (and keep its pipe open).
        spawnLock.lock()
        defer { spawnLock.unlock() }
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw ChildError(description: "pipe: \(String(cString: strerror(errno)))")
        }
        for descriptor in outPipe + errPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let input = open(stdinPath, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ChildError(description: "cannot open \(stdinPath)") }
        defer { close(input) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)

        var env = ProcessInfo.processInfo.environment
        env["STATECTL_DB"] = nil
        for (key, value) in environment { env[key] = value }
        let argv = cStringArray([Array(executable.utf8)] + arguments)
        let envp = cStringArray(environmentStrings(env))
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard code == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw ChildError(description: "cannot start \(executable): \(String(cString: strerror(code)))")
        }
        self.pid = pid
        stdout = outPipe[0]
        stderr = errPipe[0]
    }

    convenience init(
        _ executable: String, _ arguments: [String], environment: [String: String?] = [:],
        stdin: String = "/dev/null"
    ) throws {
        try self.init(executable, arguments.map { Array($0.utf8) }, environment: environment, stdin: stdin)
    }

    deinit {
        if termination == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        if stdout >= 0 { close(stdout) }
        if stderr >= 0 { close(stderr) }
    }

    /// Waits up to `timeout` for output on either pipe and reads what came; returns false when
    /// both pipes are closed.
    @discardableResult
    private func pump(timeout: Duration) -> Bool {
        var fds = [stdout, stderr].filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard !fds.isEmpty else { return false }
        let milliseconds = Int32(
            clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&fds, nfds_t(fds.count), max(0, milliseconds))
        guard ready > 0 else { return true }
        var buffer = [UInt8](repeating: 0, count: 65536)
        for entry in fds where entry.revents != 0 {
            let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
            if count > 0 {
                if entry.fd == stdout {
                    pendingOut.append(contentsOf: buffer[..<count])
                    collectedOut.append(contentsOf: buffer[..<count])
                } else {
                    collectedErr.append(contentsOf: buffer[..<count])
                }
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                close(entry.fd)
                if entry.fd == stdout { stdout = -1 } else { stderr = -1 }
            }
        }
        return true
    }

    /// The next line of stdout, waiting up to `timeout`; nil at the deadline or at end of output.
    func readLine(timeout: Duration) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = pendingOut.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pendingOut[..<newline], as: UTF8.self)
                pendingOut.removeSubrange(...newline)
                return line
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero, stdout >= 0 else { return nil }
            pump(timeout: min(left, .milliseconds(100)))
        }
    }

    /// The lines of stdout still to come, up to end of output (the child has ended or closed it).
    func remainingLines(timeout: Duration = .seconds(60)) -> [String] {
        var lines: [String] = []
        while let line = readLine(timeout: timeout) { lines.append(line) }
        return lines
    }

    func send(_ signal: Int32) {
        if termination == nil { kill(pid, signal) }
    }

    /// Reads all output and waits for the child to end; kills it after `timeout` (a hang).
    @discardableResult
    func wait(timeout: Duration = .seconds(120)) throws -> Termination {
        if let termination { return termination }
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while true {
            pump(timeout: .milliseconds(20))
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                termination = .signaled(SIGKILL)
                throw ChildError(description: "child \(pid) did not end within \(timeout): killed")
            }
        }
        while pump(timeout: .milliseconds(200)) && (stdout >= 0 || stderr >= 0) {}
        let ended: Termination =
            (status & 0x7F) == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
        termination = ended
        return ended
    }

    var output: String { String(decoding: collectedOut, as: UTF8.self) }
    var errors: String { String(decoding: collectedErr, as: UTF8.self) }
}

/// What one finished run gave.
struct Outcome {
    var termination: Termination
    var stdout: [UInt8]
    var stderr: [UInt8]
    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }
    /// The exit status, or -1 for a process ended by a signal (a crash).
    var status: Int32 {
        if case .exited(let code) = termination { return code }
        return -1
    }
}

/// Runs a binary to its end with raw-byte arguments; stdin from `stdin` bytes when given.
func run(
    _ executable: String, _ arguments: [[UInt8]], environment: [String: String?] = [:], stdin: [UInt8]? = nil,
    timeout: Duration = .seconds(120)
) throws -> Outcome {
    // The input's folder lives until the child has ended.
    let scratch = stdin.map { _ in TemporaryFolder() }
    let inputPath = scratch?.file("stdin") ?? "/dev/null"
    if let stdin { try Data(stdin).write(to: URL(fileURLWithPath: inputPath)) }
    return try withExtendedLifetime(scratch) {
        let child = try Child(executable, arguments, environment: environment, stdin: inputPath)
        let termination = try child.wait(timeout: timeout)
        return Outcome(termination: termination, stdout: child.collectedOut, stderr: child.collectedErr)
    }
}

/// Runs the built `statectl` with `arguments`.
func statectl(
    _ arguments: [String], environment: [String: String?] = [:], stdin: [UInt8]? = nil
) throws -> Outcome {
    try run(statectlPath, arguments.map { Array($0.utf8) }, environment: environment, stdin: stdin)
}

extension StateStoreError {
    /// An I/O failure: a full disk, a read-only file or folder, a file that cannot be opened.
    var isIO: Bool { if case .io = self { true } else { false } }
    /// Bad data, refused before anything was written.
    var isInvalidInput: Bool { if case .invalidInput = self { true } else { false } }
    /// Damage, or an I/O failure while reading it: what a file cut short or overwritten gives,
    /// depending on where SQLite meets it.
    var isDamageOrIO: Bool {
        switch self {
        case .damaged, .io, .notADatabase: true
        default: false
        }
    }
}
