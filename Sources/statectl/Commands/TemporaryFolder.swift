#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private folder under `$TMPDIR` (else `/tmp`), removed with everything in it when `body`
/// returns or throws.
func withTemporaryFolder<T>(_ prefix: String, _ body: (String) throws -> T) throws -> T {
    var base = try EnvironmentVariable.temporaryFolder.path() ?? ""
    if base.isEmpty { base = "/tmp" }
    while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
    guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        let reason = String(cString: strerror(errno))
        throw CommandFailure(
            status: ExitStatus.ioError, message: "cannot create a temporary folder in \(base): \(reason)")
    }
    let folder = String(cString: created)
    defer { removeFolder(folder) }
    return try body(folder)
}

/// Removes `folder` and the files in it (it holds no subfolders).
private func removeFolder(_ folder: String) {
    if let directory = opendir(folder) {
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(directory)
        for name in names { unlink(folder + "/" + name) }
    }
    rmdir(folder)
}
