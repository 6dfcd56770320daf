import Foundation
@_exported import StateStoreTestSupport

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
    var env = ProcessInfo.processInfo.environment
    env["STATECTL_DB"] = nil
    env["NO_COLOR"] = nil
    for (key, value) in environment { env[key] = value }
    for key in unsetting { env[key] = nil }
    // Output goes to files, not pipes, so a large output can never block the child.
    let folder = TemporaryFolder(prefix: "statectl-run-")
    try (stdin ?? Data()).write(to: URL(fileURLWithPath: folder.file("stdin")))
    let status = try spawnAndWait(
        statectlPath, arguments, environment: env, stdin: .file(folder.file("stdin")),
        stdout: standardOutput.map { .descriptor($0.fileDescriptor) } ?? .file(folder.file("stdout")),
        stderr: .file(folder.file("stderr")))
    return Run(
        status: status,
        stdout: String(
            decoding: (try? Data(contentsOf: URL(fileURLWithPath: folder.file("stdout")))) ?? Data(), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder.file("stderr"))), as: UTF8.self))
}
