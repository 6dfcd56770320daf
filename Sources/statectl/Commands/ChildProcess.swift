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
/// It runs in a process group of its own, so that `kill(-group, SIGKILL)` stops what it started
/// too (`xcrun` runs `simctl`, which asks CoreSimulatorService). `fork` and `execvp`, not
/// `posix_spawn`: `execvp` passes this process's environment as it is, which Swift cannot name
/// on Darwin without `_NSGetEnviron`, and statectl has one thread, so the child runs only the
/// few calls it needs between the two. A program not found is told apart from one that exits
/// 127 itself: the child reports a failed `execvp` through a pipe closed on a successful one.
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
        var status: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { return .cannotStart(errno) }
        guard pipe(&status) == 0 else {
            let code = errno
            close(output[0])
            close(output[1])
            return .cannotStart(code)
        }
        let null = open("/dev/null", O_RDONLY)
        for descriptor in [output[0], status[0], status[1], null] where descriptor >= 0 {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        // Everything the child needs, made before the fork: between fork and exec it allocates nothing.
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        guard let program = argv[0], !argv.dropLast().contains(nil) else {
            for descriptor in output + status + [null] where descriptor >= 0 { close(descriptor) }
            return .cannotStart(ENOMEM)
        }

        let pid = fork()
        if pid == 0 {
            setpgid(0, 0)
            signal(SIGPIPE, SIG_DFL)  // statectl ignores it; the program gets the default
            if null >= 0 { dup2(null, 0) }
            dup2(output[1], 1)
            dup2(output[1], 2)
            execvp(program, argv)
            var code = errno
            _ = write(status[1], &code, MemoryLayout<Int32>.size)
            _exit(127)
        }
        close(output[1])
        close(status[1])
        if null >= 0 { close(null) }
        defer {
            close(output[0])
            close(status[0])
        }
        guard pid > 0 else { return .cannotStart(errno) }
        setpgid(pid, pid)  // as the child does: whichever runs first, the group exists before a kill

        var code: Int32 = 0
        if read(status[0], &code, MemoryLayout<Int32>.size) == MemoryLayout<Int32>.size {
            _ = reap(pid, blocking: true)
            return code == ENOENT ? .notFound : .cannotStart(code)
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
