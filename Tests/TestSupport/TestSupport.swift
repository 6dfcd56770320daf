import CSQLite
import Foundation
import StateStore

// What the test targets share: temporary folders, fixtures written with SQLite directly (as
// another program would write them) and the binaries the build puts beside the test bundle.

/// A fresh folder, removed by `cleanUp()`.
package struct TemporaryFolder: Sendable {
    package let path: String

    package init(in parent: String = NSTemporaryDirectory(), prefix: String = "statestore-tests-") {
        path = (parent.hasSuffix("/") ? parent : parent + "/") + prefix + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    package func file(_ name: String) -> String { path + "/" + name }

    package func cleanUp() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A route from known-good literals.
package func route(_ type: String, _ json: String = "null") -> Route {
    try! Route(type: type, json: json)
}

/// Runs SQL on a file with SQLite directly, as another program would.
package func rawSQL(_ path: String, _ sql: String) throws {
    var handle: OpaquePointer?
    guard sqlite3_open(path, &handle) == SQLITE_OK else {
        sqlite3_close(handle)
        throw RawSQLError(message: "open \(path)")
    }
    defer { sqlite3_close(handle) }
    var message: UnsafeMutablePointer<CChar>?
    if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
        let text = message.map { String(cString: $0) } ?? "?"
        sqlite3_free(message)
        throw RawSQLError(message: text)
    }
}

/// The first column of every row of a query, as text, read with SQLite directly (read-only).
package func rawQuery(_ path: String, _ sql: String) throws -> [String] {
    var handle: OpaquePointer?
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
        sqlite3_close(handle)
        throw RawSQLError(message: "open \(path)")
    }
    defer { sqlite3_close(handle) }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
        throw RawSQLError(message: String(cString: sqlite3_errmsg(handle)))
    }
    defer { sqlite3_finalize(statement) }
    var rows: [String] = []
    while true {
        let code = sqlite3_step(statement)
        if code == SQLITE_DONE { break }
        guard code == SQLITE_ROW else { throw RawSQLError(message: String(cString: sqlite3_errmsg(handle))) }
        rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
    }
    return rows
}

package struct RawSQLError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }

    package init(message: String) {
        self.message = message
    }
}

/// The bytes of a file, or nil when it does not exist.
package func contents(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

package func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
}

/// A store of `count` windows whose paths are long enough to fill many pages, closed cleanly so
/// that everything is in the main file: for tests that damage bytes in its middle.
package func writeManyPagesStore(at path: String, windows count: Int = 300) throws {
    let store = try StateStore(path: path)
    let filler = try Route(type: "P", json: "\"" + String(repeating: "x", count: 300) + "\"")
    for n in 0..<count {
        try store.save(WindowState(session: "s\(n)", window: "w", path: [filler]))
    }
}

/// A binary built beside this test bundle (`statectl`, `statestore-stress`), or `$environment`.
package func builtBinary(_ name: String, environment: String) -> String {
    if let path = ProcessInfo.processInfo.environment[environment] { return path }
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    // Climb from inside a test bundle to the build folder that holds the products.
    while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent(name).path), folder.path != "/" {
        folder = folder.deletingLastPathComponent()
    }
    return folder.appendingPathComponent(name).path
}

/// A NULL-terminated array of C strings for `posix_spawn`'s argv or envp, from raw bytes (which
/// need not be UTF-8). Free each element with `free`.
package func cStringArray(_ strings: [[UInt8]]) -> [UnsafeMutablePointer<CChar>?] {
    strings.map { bytes in
        let pointer = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
        for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        pointer[bytes.count] = 0
        return pointer
    } + [nil]
}

/// `environment` as `NAME=value` byte strings, for ``cStringArray(_:)``.
package func environmentStrings(_ environment: [String: String]) -> [[UInt8]] {
    environment.map { Array("\($0.key)=\($0.value)".utf8) }
}
