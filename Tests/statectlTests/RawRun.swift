import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `statectl` with arguments given as raw bytes (which `Process` cannot pass when they are
/// not valid UTF-8), the environment of `Fixture` and output to files.
func statectl(bytes arguments: [[UInt8]], environment: [String: String]) throws -> Run {
    let folder = NSTemporaryDirectory() + "statectl-raw-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, folder + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, folder + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o644)

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
    let code = posix_spawn(&pid, statectlPath, &actions, nil, argv, envp)
    guard code == 0 else { throw FixtureError(message: "posix_spawn: \(code)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return Run(
        status: (status >> 8) & 0xFF,
        stdout: String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/stdout")), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/stderr")), as: UTF8.self))
}

/// Runs `statectl` with its standard output on a pseudo-terminal, as in an interactive shell,
/// and returns what it wrote there.
func statectlOnTerminal(_ arguments: [String], environment: [String: String]) throws -> String {
    let master = PseudoTerminal.open(O_RDWR | O_NOCTTY)
    guard master >= 0, PseudoTerminal.grant(master) == 0, PseudoTerminal.unlock(master) == 0,
        let name = PseudoTerminal.name(master)
    else {
        throw FixtureError(message: "no pseudo-terminal")
    }
    defer { close(master) }
    let terminal = FileHandle(forWritingAtPath: name)!
    let process = Process()
    process.executableURL = URL(fileURLWithPath: statectlPath)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["STATECTL_DB"] = nil
    env["NO_COLOR"] = nil
    env["TERM"] = "xterm"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    process.standardOutput = terminal
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try terminal.close()
    // Everything it wrote is in the terminal's buffer now; read it without blocking.
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(master, &buffer, buffer.count)
        if count <= 0 { break }
        output.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: output, as: UTF8.self)
}
