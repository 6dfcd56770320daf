import Foundation

// Faults the tests make real: a file that even root cannot write (`chattr +i`) and a file system
// that fills up (a small tmpfs). Each says why it cannot be had, so a test can skip with the reason.

/// Runs a tool from `$PATH` to its end; its exit status and what it wrote to standard error.
package func runTool(_ arguments: [String]) -> (status: Int32, errors: String) {
    let files = TemporaryFolder(prefix: "tool-run-")
    do {
        let status = try spawnAndWait(
            "/usr/bin/env", arguments, environment: ProcessInfo.processInfo.environment, stdout: .discarded,
            stderr: .file(files.file("stderr")))
        return (
            status,
            String(
                decoding: (try? Data(contentsOf: URL(fileURLWithPath: files.file("stderr")))) ?? Data(), as: UTF8.self)
        )
    } catch {
        return (-1, "cannot run \(arguments.first ?? "?"): \(error)")
    }
}

/// Makes a file or folder immutable with `chattr +i`, which stops even root. Returns a reason
/// when the file system (or the machine) cannot do it, so the caller can skip.
package func makeImmutable(_ path: String) -> String? {
    let outcome = runTool(["chattr", "+i", path])
    guard outcome.status == 0 else {
        return
            "chattr +i \(path) failed (\(outcome.status)): \(outcome.errors.trimmingCharacters(in: .whitespacesAndNewlines))"
    }
    // Prove it: as root, file modes would not stop a write; the attribute must.
    let probe = path + (isFolder(path) ? "/.probe" : "")
    let descriptor = open(probe, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    if descriptor >= 0 {
        close(descriptor)
        if isFolder(path) { unlink(probe) }
        makeMutable(path)
        return "chattr +i \(path) did not stop a write on this file system"
    }
    return nil
}

/// Undoes ``makeImmutable(_:)``.
package func makeMutable(_ path: String) {
    _ = runTool(["chattr", "-i", path])
}

/// Whether `path` names a folder.
package func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
}

/// A folder on a file system where `chattr +i` works: the temporary folder, else `/var/tmp`,
/// else the working directory's. Nil, with the reasons, when none works.
package func immutableCapableFolder() -> (folder: TemporaryFolder?, reason: String) {
    var reasons: [String] = []
    for parent in [NSTemporaryDirectory(), "/var/tmp", FileManager.default.currentDirectoryPath] {
        let folder = TemporaryFolder(in: parent)
        let probe = folder.file("probe")
        _ = FileManager.default.createFile(atPath: probe, contents: Data())
        if let reason = makeImmutable(probe) {
            reasons.append(reason)
            continue  // the folder goes with it
        }
        makeMutable(probe)
        try? FileManager.default.removeItem(atPath: probe)
        return (folder, "")
    }
    return (nil, reasons.joined(separator: "; "))
}

/// Mounts a tmpfs of `size` at `path`; nil when done, else why it could not be.
package func mountSmallFileSystem(at path: String, size: String) -> String? {
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let outcome = runTool(["mount", "-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path])
    guard outcome.status == 0 else {
        return "mount -t tmpfs failed: \(outcome.errors.trimmingCharacters(in: .whitespacesAndNewlines))"
    }
    return nil
}

/// Unmounts what ``mountSmallFileSystem(at:size:)`` mounted.
package func unmount(_ path: String) {
    _ = runTool(["umount", "-l", path])
}

/// Bind-mounts the file at `source` at `target` (an existing file): nil when done, else why it
/// could not be (not root, or a kernel that refuses mounts here).
package func bindMount(_ source: String, at target: String) -> String? {
    let outcome = runTool(["mount", "--bind", source, target])
    guard outcome.status == 0 else {
        return "mount --bind failed: \(outcome.errors.trimmingCharacters(in: .whitespacesAndNewlines))"
    }
    return nil
}
