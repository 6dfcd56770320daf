#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one run of a child process cost, measured from the parent.
struct ProcessRun {
    var status: Int32
    var nanoseconds: UInt64
    /// Peak resident set size, bytes (`ru_maxrss` of wait4).
    var peakRSS: Int
}

/// Runs `executable` with `arguments`, stdout to `stdout` (a file path, default /dev/null),
/// stderr to `stderr`, and waits for it: the whole process, start-up included.
func runProcess(
    _ executable: String, _ arguments: [String], stdout: String = "/dev/null", stderr: String = "/dev/null"
) throws -> ProcessRun {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([executable] + arguments).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let start = monotonicNanoseconds()
    let code = (argv + [nil]).withUnsafeBufferPointer { argv in
        posix_spawn(&pid, executable, &actions, nil, argv.baseAddress!, environ)
    }
    guard code == 0 else {
        throw StatebenchError("cannot run \(executable): \(String(cString: strerror(code)))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
        guard errno == EINTR else { throw StatebenchError("wait4: \(String(cString: strerror(errno)))") }
    }
    let elapsed = monotonicNanoseconds() - start
    // WIFEXITED / WEXITSTATUS, which Swift does not import.
    let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    #if canImport(Darwin)
        let peak = Int(usage.ru_maxrss)  // bytes
    #else
        let peak = Int(usage.ru_maxrss) * 1024  // KiB
    #endif
    return ProcessRun(status: exitStatus, nanoseconds: elapsed, peakRSS: peak)
}

/// The first executable called `name` on `$PATH`.
func findOnPath(_ name: String) -> String? {
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") where !folder.isEmpty {
        let candidate = folder + "/" + name
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

struct StatebenchError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
