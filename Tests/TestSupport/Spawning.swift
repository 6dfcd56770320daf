import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// Children the tests run to completion are spawned here with `posix_spawn`, not with
// Foundation's `Process`: on Linux, this toolchain's `Process.run()` copies each
// `/proc/self/fd` entry's whole 256-byte name field, which reads past glibc's buffer now and
// then and crashes the test process (swift-corelibs-foundation pull request 5472, merged after
// this toolchain). A suite that starts thousands of children met it.

/// Where a spawned child's standard input comes from.
package enum ChildInput {
    /// `/dev/null`.
    case empty
    /// A file or device, opened for reading.
    case file(String)
    /// An open descriptor of the test process (the slave of a pseudo-terminal, a pipe's reading
    /// end), inherited as descriptor 0.
    case descriptor(Int32)
}

/// Where a spawned child's standard output or error goes.
package enum ChildOutput {
    /// A file, created or emptied.
    case file(String)
    /// An open descriptor of the test process, inherited.
    case descriptor(Int32)
    /// `/dev/null`.
    case discarded
    /// Not open at all.
    case closed
}

/// A child process started with `posix_spawn`, with the parts of `Process`'s interface the
/// tests use: `isRunning`, `waitUntilExit()` and `terminationStatus`.
package final class SpawnedChild: @unchecked Sendable {
    /// Its process id, for a test that watches what it does (`/proc/PID/stat`).
    package let pid: pid_t
    private let lock = NSLock()
    /// The raw status `waitpid` gave, once it has ended.
    private var status: Int32?

    /// Starts `executable` with `arguments` and exactly `environment`. In the child every
    /// signal is at its default action and none is blocked, and no descriptor of the test
    /// process is open but the three given, as `Process` arranges it.
    package convenience init(
        _ executable: String, _ arguments: [String], environment: [String: String], stdin: ChildInput = .empty,
        stdout: ChildOutput = .discarded, stderr: ChildOutput = .discarded
    ) throws {
        try self.init(
            executable, bytes: arguments.map { Array($0.utf8) }, environment: environment, stdin: stdin,
            stdout: stdout, stderr: stderr)
    }

    /// The same with arguments given as raw bytes, which need not be UTF-8 (`Process` cannot
    /// pass those).
    package init(
        _ executable: String, bytes arguments: [[UInt8]], environment: [String: String], stdin: ChildInput = .empty,
        stdout: ChildOutput = .discarded, stderr: ChildOutput = .discarded
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch stdin {
        case .empty: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .descriptor(let inherited): posix_spawn_file_actions_adddup2(&actions, inherited, 0)
        }
        for (descriptor, output) in [(Int32(1), stdout), (2, stderr)] {
            switch output {
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .descriptor(let inherited):
                posix_spawn_file_actions_adddup2(&actions, inherited, descriptor)
            case .discarded:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .closed:
                posix_spawn_file_actions_addclose(&actions, descriptor)
            }
        }
        // Nothing else of the test process's: a pipe another test reads to its end must not
        // stay open in this child. (glibc 2.34 and later; Swift does not import its declaration.)
        guard let closeFrom else { throw SpawnError(description: "no posix_spawn_file_actions_addclosefrom_np") }
        _ = closeFrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = cStringArray([Array(executable.utf8)] + arguments)
        let envp = cStringArray(environmentStrings(environment))
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard code == 0 else {
            throw SpawnError(description: "posix_spawn \(executable): \(String(cString: strerror(code)))")
        }
        self.pid = pid
    }

    deinit {
        // Never left behind as a zombie, nor running, when a test stops early.
        if status == nil {
            kill(pid, SIGKILL)
            waitUntilExit()
        }
    }

    /// Whether it has not ended yet.
    package var isRunning: Bool { reap(blocking: false) == nil }

    /// Waits for it to end.
    package func waitUntilExit() { _ = reap(blocking: true) }

    /// Sends it `signal`, unless it has ended.
    package func signal(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if status == nil { kill(pid, signal) }
    }

    /// What `Process.terminationStatus` gives: the exit status, or the number of the signal
    /// that killed it. Only once it has ended.
    package var terminationStatus: Int32 {
        terminationSignal ?? (ended >> 8) & 0xFF
    }

    /// The signal that killed it; `nil` when it exited. Only once it has ended.
    package var terminationSignal: Int32? {
        // WIFSIGNALED / WTERMSIG, which Swift does not import as functions.
        let signal = ended & 0x7F
        return signal == 0 ? nil : signal
    }

    private var ended: Int32 {
        guard let status = reap(blocking: false) else { preconditionFailure("the child is still running") }
        return status
    }

    private func reap(blocking: Bool) -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let status { return status }
        var raw: Int32 = 0
        while true {
            let result = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
            if result == pid { break }
            if result == 0 { return nil }
            if errno != EINTR { preconditionFailure("waitpid \(pid): \(errno)") }
        }
        status = raw
        return raw
    }
}

/// Runs a child to its end (``SpawnedChild``) and returns its `terminationStatus`.
package func spawnAndWait(
    _ executable: String, _ arguments: [String], environment: [String: String], stdin: ChildInput = .empty,
    stdout: ChildOutput, stderr: ChildOutput
) throws -> Int32 {
    let child = try SpawnedChild(
        executable, arguments, environment: environment, stdin: stdin, stdout: stdout, stderr: stderr)
    child.waitUntilExit()
    return child.terminationStatus
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np`, looked up by name.
private let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
        return nil
    }
    return unsafeBitCast(
        symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

/// A child that could not be started or waited for.
package struct SpawnError: Error, CustomStringConvertible {
    package var description: String
}
