import Foundation

/// What one run of a child process cost, measured from the parent.
struct ProcessRun {
    var status: Int32
    var nanoseconds: UInt64
    /// Peak resident set size in bytes, when asked for and known (see ``highWaterMark(of:)``).
    var peakRSS: Int?
}

/// Runs `executable` with `arguments`, stdout to `stdout` (a file path, default /dev/null),
/// stderr to `stderr`, and waits for it: the whole process, start-up included. With `watchPeak`,
/// polls the child's peak resident set every millisecond (not for timing: polling takes CPU).
func runProcess(
    _ executable: String, _ arguments: [String], stdout: String = "/dev/null", stderr: String = "/dev/null",
    watchPeak: Bool = false
) throws -> ProcessRun {
    #if os(Linux)
        try spawn(executable, arguments, stdout: stdout, stderr: stderr, watchPeak: watchPeak)
    #else
        try runWithFoundation(executable, arguments, stdout: stdout, stderr: stderr)
    #endif
}

#if os(Linux)
    /// posix_spawn and wait4: the least a parent can add to a child's time.
    private func spawn(
        _ executable: String, _ arguments: [String], stdout: String, stderr: String, watchPeak: Bool
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
        var peak: Int?
        while true {
            let waited = wait4(pid, &status, watchPeak ? WNOHANG : 0, &usage)
            if waited == pid { break }
            guard waited == 0 || errno == EINTR else {
                throw StatebenchError("wait4: \(String(cString: strerror(errno)))")
            }
            if waited == 0 {
                if let mark = highWaterMark(of: pid) { peak = max(peak ?? 0, mark) }
                usleep(1000)
            }
        }
        let elapsed = monotonicNanoseconds() - start
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ProcessRun(status: exitStatus, nanoseconds: elapsed, peakRSS: peak)
    }
#endif

/// Foundation's Process, where posix_spawn's types differ (peak RSS unknown there).
private func runWithFoundation(
    _ executable: String, _ arguments: [String], stdout: String, stderr: String
) throws -> ProcessRun {
    func handle(_ path: String) throws -> FileHandle {
        if path == "/dev/null" { return FileHandle.nullDevice }
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try handle(stdout)
    process.standardError = try handle(stderr)
    let start = monotonicNanoseconds()
    try process.run()
    process.waitUntilExit()
    return ProcessRun(status: process.terminationStatus, nanoseconds: monotonicNanoseconds() - start, peakRSS: nil)
}

/// The kernel's high-water mark of the resident set of process `pid` (`VmHWM` in
/// /proc/PID/status), in bytes; `nil` when it cannot be read (the process is gone, or no /proc).
///
/// Not `ru_maxrss` from wait4: a child started with posix_spawn (vfork, then exec) inherits at exec
/// the high-water mark of the parent's memory, so it would report this benchmark's own size.
/// VmHWM belongs to the memory the child runs in after exec; polled until the child exits, the
/// last value read is its peak but for growth in its last millisecond.
func highWaterMark(of pid: pid_t) -> Int? {
    guard let file = fopen("/proc/\(pid)/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard text.hasPrefix("VmHWM:") else { continue }
        let kibibytes = text.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
        return kibibytes.map { $0 * 1024 }
    }
    return nil
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
