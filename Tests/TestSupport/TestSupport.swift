import Foundation
import StateStore
import StateStoreSQLite

// What the test targets share: temporary folders, fixtures written with SQLite directly (as
// another program would write them) and the binaries the build puts beside the test bundle.

/// A fresh folder for one test, removed with everything in it when the last reference to it
/// goes: at the end of the scope that made it (a test's body, or the suite instance a test runs
/// on), with no `defer` to forget.
package final class TemporaryFolder: Sendable {
    package let path: String

    package init(in parent: String = NSTemporaryDirectory(), prefix: String = "statestore-tests-") {
        path = (parent.hasSuffix("/") ? parent : parent + "/") + prefix + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    package func file(_ name: String) -> String { path + "/" + name }
}

/// A route from known-good literals.
package func route(_ type: String, _ json: String = "null") -> Route {
    try! Route(type: type, json: json)
}

/// Runs SQL on a file with SQLite directly, as another program would.
/// Whether `bytes` are well-formed UTF-8, as the standard library decides it: they come back
/// unchanged from `String(decoding:as:)`, which repairs anything else with U+FFFD. (Not
/// `String(validating:as:)`: Apple platforms have it only from iOS 18 and macOS 15, past the
/// package's floor, which the tests build for too.)
package func isWellFormedUTF8(_ bytes: some Collection<UInt8>) -> Bool {
    String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes)
}

package func rawSQL(_ path: String, _ sql: String) throws {
    var handle: OpaquePointer?
    guard sqlite3_open(path, &handle) == SQLITE_OK else {
        sqlite3_close(handle)
        throw RawSQLError(message: "open \(path)")
    }
    defer { sqlite3_close(handle) }
    // As a careful writer by hand waits: a feed opening the file the moment it appears (its
    // first connection sets up the WAL index) holds a lock for that moment.
    sqlite3_busy_timeout(handle, 10_000)
    var message: UnsafeMutablePointer<CChar>?
    if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
        let text = message.map { String(cString: $0) } ?? "?"
        sqlite3_free(message)
        throw RawSQLError(message: text)
    }
}

/// Every row of a query, its columns' text joined by `|` (`NULL` for a null), read with SQLite
/// directly (read-only).
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
        let columns = (0..<sqlite3_column_count(statement)).map { column in
            sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
        }
        rows.append(columns.joined(separator: "|"))
    }
    return rows
}

/// Everything a database holds, as text: its header values, its schema, and every row of every
/// table with every column quoted. Two files with the same dump hold the same data.
package func rawDump(_ path: String) throws -> [String] {
    func rows(_ sql: String) throws -> [String] { try rawQuery(path, sql) }
    var dump = try rows("PRAGMA user_version") + rows("PRAGMA application_id")
    let tables = try rows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
    dump += try rows("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name")
    for table in tables {
        let columns = try rows("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid")
        let quoted = columns.map { "quote(\"\($0)\")" }.joined(separator: ", ")
        dump += try rows(
            "SELECT '\(table)', \(quoted) FROM \"\(table)\" ORDER BY \(columns.indices.map { String($0 + 1) }.joined(separator: ", "))"
        )
    }
    return dump
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
    let store = try WindowStore(path: path)
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

/// Another connection, as another process would have, holding the write lock on a file until
/// `release()` (or its end): with `exclusive`, every lock, as a process recovering a WAL does.
/// Released from another thread in some tests; used by one thread at a time.
package final class WriteLock: @unchecked Sendable {
    private var handle: OpaquePointer?

    package init(_ path: String, exclusive: Bool = false) throws {
        guard sqlite3_open(path, &handle) == SQLITE_OK else {
            sqlite3_close(handle)
            throw RawSQLError(message: "open \(path)")
        }
        let sql = exclusive ? "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE" : "BEGIN IMMEDIATE"
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(handle))
            sqlite3_close(handle)
            throw RawSQLError(message: "lock \(path): \(message)")
        }
    }

    /// Runs `sql` inside the transaction that holds the lock, as that other process would.
    package func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw RawSQLError(message: text)
        }
    }

    /// Commits what ``execute(_:)`` ran, giving the lock up, and closes the connection.
    package func commit() throws {
        try execute("COMMIT")
        sqlite3_close(handle)
        handle = nil
    }

    /// Gives the lock up and closes the connection.
    package func release() {
        sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
        sqlite3_close(handle)
        handle = nil
    }

    deinit {
        if handle != nil { release() }
    }
}
