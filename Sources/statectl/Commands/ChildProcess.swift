#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program found on `PATH` (`xcrun`) with its standard error joined to its standard
/// output, bounded in time and in what it may print: a program that hangs (a wedged
/// CoreSimulatorService hangs `simctl`) or prints without end is stopped, with every process it
/// started, instead of hanging statectl or filling its memory.
///
/// It runs in a process group of its own (`POSIX_SPAWN_SETPGROUP`), so that `kill(-group,
/// SIGKILL)` stops what it started too (`xcrun` runs `simctl`, which asks CoreSimulatorService).
/// `posix_spawnp` reports a program it cannot find as `ENOENT`, told apart from one that exits
/// 127 itself. `SIGPIPE`, which statectl ignores, is the default again in the child.
enum ChildProcess {
    /// How a run ended.
    enum Outcome: Equatable {
        /// It exited with `status` (or 128 + the signal that killed it), having printed `output`.
        case exited(status: Int32, output: [UInt8])
        /// No such program on `PATH`.
        case notFound
        /// It could not be started; the `errno` of the failure.
        case cannotStart(Int32)
        /// It did not finish within the time allowed, and was stopped; what it had printed.
        case timedOut(output: [UInt8])
        /// It printed more than the bytes allowed, and was stopped.
        case printedTooMuch
    }

    /// Runs `arguments` (the program first) with standard input from `/dev/null`, waiting at most
    /// `timeout` for it to end and reading at most `outputLimit` bytes of what it prints.
    static func run(_ arguments: [String], timeout: Duration, outputLimit: Int) -> Outcome {
        var output: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { return .cannotStart(errno) }
        // Close-on-exec, both: the child gets the writing end as its 1 and 2 only (dup2 clears
        // the flag on the copies), and no other child spawned meanwhile holds either.
        for descriptor in output { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let spawned = spawn(argv, output: output[1])
        close(output[1])
        defer { close(output[0]) }
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let failure): return failure.code == ENOENT ? .notFound : .cannotStart(failure.code)
        }

        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return stop(pid, .timedOut(output: bytes)) }
            var poller = pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(clamping: milliseconds(left)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }  // the deadline is looked at again
            let count = read(output[0], &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }  // end of output (or an error reading it)
            bytes += chunk[..<count]
            if bytes.count > outputLimit { return stop(pid, .printedTooMuch) }
        }
        // It closed its output; it may still be running (a process that hangs after printing).
        while true {
            if let raw = reap(pid, blocking: false) { return .exited(status: exitStatus(raw), output: bytes) }
            guard ContinuousClock.now < deadline else { return stop(pid, .timedOut(output: bytes)) }
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
        }
    }

    /// An `errno` of a failed start.
    private struct StartFailure: Error {
        let code: Int32
    }

    /// Starts `argv` in a process group of its own, `/dev/null` its standard input and `output`
    /// its standard output and error.
    private static func spawn(
        _ argv: [UnsafeMutablePointer<CChar>?], output: Int32
    ) -> Result<pid_t, StartFailure> {
        guard let program = argv[0], !argv.dropLast().contains(nil) else { return .failure(StartFailure(code: ENOMEM)) }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            // A process there may not start another (the SDKs mark process spawning unavailable
            // to Swift on some of them): a statectl built for them has no xcrun to ask.
            _ = (program, output)
            return .failure(StartFailure(code: ENOSYS))
        #else
            return spawn(program, argv, output: output)
        #endif
    }

    #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
        private static func spawn(
            _ program: UnsafeMutablePointer<CChar>, _ argv: [UnsafeMutablePointer<CChar>?], output: Int32
        ) -> Result<pid_t, StartFailure> {
            #if canImport(Darwin)
                var actions: posix_spawn_file_actions_t? = nil
                var attributes: posix_spawnattr_t? = nil
                let environment = _NSGetEnviron().pointee
            #else
                var actions = posix_spawn_file_actions_t()
                var attributes = posix_spawnattr_t()
                let environment = environ
            #endif
            posix_spawn_file_actions_init(&actions)
            posix_spawnattr_init(&attributes)
            defer {
                posix_spawn_file_actions_destroy(&actions)
                posix_spawnattr_destroy(&attributes)
            }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, output, 1)
            posix_spawn_file_actions_adddup2(&actions, output, 2)
            posix_spawnattr_setpgroup(&attributes, 0)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            sigaddset(&defaults, SIGPIPE)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            posix_spawnattr_setsigmask(&attributes, &unblocked)
            posix_spawnattr_setflags(
                &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
            var pid: pid_t = 0
            let code = posix_spawnp(&pid, program, &actions, &attributes, argv, environment)
            return code == 0 ? .success(pid) : .failure(StartFailure(code: code))
        }
    #endif

    /// Stops the child's process group, waits for the child, and gives `outcome`.
    private static func stop(_ pid: pid_t, _ outcome: Outcome) -> Outcome {
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)  // in case it left its group
        _ = reap(pid, blocking: true)
        return outcome
    }

    /// The raw wait status of `pid` once it has ended; `nil` while it runs (not `blocking`).
    private static func reap(_ pid: pid_t, blocking: Bool) -> Int32? {
        var raw: Int32 = 0
        while true {
            let result = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
            if result == pid { return raw }
            if result == 0 { return nil }
            if errno != EINTR { return 0 }  // not our child any more: nothing to wait for
        }
    }

    /// A wait status as a shell reports it: the exit status, or 128 + the signal.
    private static func exitStatus(_ raw: Int32) -> Int32 {
        raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
    }
}
