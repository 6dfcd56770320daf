import Foundation
@_exported import TestSupport

/// What one run of the built `statectl` binary gave.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The built `statectl`: `$STATECTL_BIN`, else beside this test bundle in the build folder.
let statectlPath = builtBinary("statectl", environment: "STATECTL_BIN")

/// Runs `statectl` with `arguments`, as a user would: no inherited `STATECTL_DB`, `HOME` and
/// `XDG_STATE_HOME` as given (or removed with `unsetting`), optional standard input; standard
/// output to a file, or to `standardOutput` (its text is then not collected).
func statectl(
    _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [], stdin: Data? = nil,
    standardOutput: FileHandle? = nil
) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: statectlPath)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["STATECTL_DB"] = nil
    env["NO_COLOR"] = nil
    for (key, value) in environment { env[key] = value }
    for key in unsetting { env[key] = nil }
    process.environment = env
    // Output goes to files, not pipes, so a large output can never block the child.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statectl-run-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outURL = folder.appendingPathComponent("stdout")
    let errURL = folder.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    defer {
        try? out.close()
        try? err.close()
    }
    process.standardOutput = standardOutput ?? out
    process.standardError = err
    let inURL = folder.appendingPathComponent("stdin")
    try (stdin ?? Data()).write(to: inURL)
    let input = try FileHandle(forReadingFrom: inURL)
    defer { try? input.close() }
    process.standardInput = input
    try process.run()
    process.waitUntilExit()
    return Run(
        status: process.terminationStatus,
        stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}
