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

/// `environment` with, under `swift test --enable-code-coverage`, this run's `LLVM_PROFILE_FILE`:
/// a statectl started by a shell then writes its counters where coverage reads them, not a
/// `default.profraw` in its working folder.
func withCoverageProfile(_ environment: [String: String]) -> [String: String] {
    var environment = environment
    if let profile = ProcessInfo.processInfo.environment["LLVM_PROFILE_FILE"], environment["LLVM_PROFILE_FILE"] == nil {
        environment["LLVM_PROFILE_FILE"] = profile
    }
    return environment
}

/// Runs `program` with `arguments` and exactly `environment` (and, under `swift test
/// --enable-code-coverage`, `LLVM_PROFILE_FILE`, so that the statectl a shell runs counts towards
/// coverage): standard input empty, output to files. One that has not ended after a minute (a
/// shell waiting at a prompt) is killed and reported, so it cannot hang the suite.
func runTool(
    _ program: String, _ arguments: [String], environment: [String: String], stdin: Data? = nil
) throws
    -> Run
{
    let folder = TemporaryFolder(prefix: "statectl-tool-")
    let environment = withCoverageProfile(environment)
    try (stdin ?? Data()).write(to: URL(fileURLWithPath: folder.file("stdin")))
    let child = try SpawnedChild(
        program, arguments, environment: environment, stdin: .file(folder.file("stdin")),
        stdout: .file(folder.file("stdout")), stderr: .file(folder.file("stderr")))
    let deadline = Date().addingTimeInterval(60)
    while child.isRunning {
        if Date() > deadline {
            child.signal(SIGKILL)
            child.waitUntilExit()
            throw FixtureError(message: "\(program) \(arguments) did not end within a minute")
        }
        usleep(2_000)
    }
    func text(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder.file(name))), as: UTF8.self)
    }
    return Run(status: child.terminationStatus, stdout: try text("stdout"), stderr: try text("stderr"))
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
