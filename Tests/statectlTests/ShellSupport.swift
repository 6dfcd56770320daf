import Foundation

/// Programs the completion and manual page tests run: the shells, `man` and `groff`, found on
/// `PATH` (or in /usr/bin and /bin), `nil` when not installed.
enum Tools {
    static let bash = find("bash")
    static let zsh = find("zsh")
    static let fish = find("fish")
    static let man = find("man")
    static let groff = find("groff")

    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin"] {
            let candidate = folder + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// Runs `program` with `arguments` and exactly `environment`: standard input empty, output to
/// files. One that has not ended after a minute (a shell waiting at a prompt) is killed and
/// reported, so it cannot hang the suite.
func runTool(
    _ program: String, _ arguments: [String], environment: [String: String], stdin: Data? = nil
) throws
    -> Run
{
    let folder = TemporaryFolder(prefix: "statectl-tool-")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.environment = environment
    let outURL = URL(fileURLWithPath: folder.file("stdout"))
    let errURL = URL(fileURLWithPath: folder.file("stderr"))
    let inURL = URL(fileURLWithPath: folder.file("stdin"))
    try Data().write(to: outURL)
    try Data().write(to: errURL)
    try (stdin ?? Data()).write(to: inURL)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    let input = try FileHandle(forReadingFrom: inURL)
    defer {
        try? out.close()
        try? err.close()
        try? input.close()
    }
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    try process.run()
    if finished.wait(timeout: .now() + 60) == .timedOut {
        process.terminate()
        finished.wait()
        throw FixtureError(message: "\(program) \(arguments) did not end within a minute")
    }
    return Run(
        status: process.terminationStatus,
        stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}

/// `text` as one word in a POSIX shell (bash, zsh): in single quotes.
func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
}

/// What help shows, read as a user reads it: the command names under `SUBCOMMANDS:`, and the
/// option names (`-h`, `--help`, `--db`, …) of every option row.
enum HelpText {
    static func commands() throws -> [String] {
        let text = try statectl(["help"]).stdout
        guard let start = text.range(of: "SUBCOMMANDS:\n") else { return [] }
        return text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.isEmpty }
            .compactMap {
                $0.hasPrefix("  ") && !$0.hasPrefix("   ") ? $0.split(separator: " ").first.map(String.init) : nil
            }
    }

    static func options(of command: String?) throws -> Set<String> {
        let text = try statectl(command.map { [$0, "--help"] } ?? ["--help"]).stdout
        var names: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("  -") {
            let synopsis = line.dropFirst(2).components(separatedBy: "  ")[0]
            for name in synopsis.split(separator: ",") {
                if let word = name.split(separator: " ").first { names.insert(String(word)) }
            }
        }
        return names
    }
}
