import CSQLite
import Foundation
import StateStore

/// A fresh folder under the system temporary folder, removed by `cleanUp()`.
struct TemporaryFolder {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "statestore-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

func route(_ type: String, _ json: String = "null") -> Route {
    try! Route(type: type, json: json)
}

/// Runs SQL on a file with SQLite directly, as another program would: to build fixtures.
func rawSQL(_ path: String, _ sql: String) throws {
    var handle: OpaquePointer?
    guard sqlite3_open(path, &handle) == SQLITE_OK else { throw RawSQLError(message: "open \(path)") }
    defer { sqlite3_close(handle) }
    var message: UnsafeMutablePointer<CChar>?
    if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
        let text = message.map { String(cString: $0) } ?? "?"
        sqlite3_free(message)
        throw RawSQLError(message: text)
    }
}

/// The first column of every row of a query, as text, read with SQLite directly.
func rawQuery(_ path: String, _ sql: String) throws -> [String] {
    var handle: OpaquePointer?
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
        throw RawSQLError(message: "open \(path)")
    }
    defer { sqlite3_close(handle) }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
        throw RawSQLError(message: String(cString: sqlite3_errmsg(handle)))
    }
    defer { sqlite3_finalize(statement) }
    var rows: [String] = []
    while sqlite3_step(statement) == SQLITE_ROW {
        rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
    }
    return rows
}

struct RawSQLError: Error {
    let message: String
}

/// The bytes of a file, or nil when it does not exist.
func contents(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}
