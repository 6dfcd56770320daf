import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `statectl` with arguments given as raw bytes (which `Process` cannot pass when they are
/// not valid UTF-8), the environment of `Fixture` and output to files.
func statectl(bytes arguments: [[UInt8]], environment: [String: String]) throws -> Run {
    try statectl(spawningBytes: arguments, environment: environment)
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
    var env = ProcessInfo.processInfo.environment
    env["STATECTL_DB"] = nil
    env["NO_COLOR"] = nil
    env["TERM"] = "xterm"
    for (key, value) in environment { env[key] = value }
    _ = try spawnAndWait(
        statectlPath, arguments, environment: env, stdout: .descriptor(terminal.fileDescriptor), stderr: .discarded)
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
