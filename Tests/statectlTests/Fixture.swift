import CSQLite
import Foundation
import StateStore

/// A private folder for one test: a database path in it, and a home, state home and temporary
/// folder of its own, so no run of `statectl` can touch the real ones. Removed by `cleanUp()`.
struct Fixture {
    let folder: String

    init() {
        folder = NSTemporaryDirectory() + "statectl-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: folder + "/tmp", withIntermediateDirectories: true)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The database most tests use (not created until something writes it).
    var database: String { folder + "/state.db" }

    func path(_ name: String) -> String { folder + "/" + name }

    /// `HOME`, `XDG_STATE_HOME` and `TMPDIR` inside the folder; `STATECTL_DB` unset.
    var environment: [String: String] {
        ["HOME": folder + "/home", "XDG_STATE_HOME": folder + "/state", "TMPDIR": folder + "/tmp"]
    }

    /// Runs `statectl --db <database> arguments...`.
    func run(_ arguments: [String], environment extra: [String: String] = [:], stdin: Data? = nil) throws -> Run {
        try statectl(["--db", database] + arguments, environment: environment.merging(extra) { $1 }, stdin: stdin)
    }

    /// The store, opened with the library, to build fixtures and read results.
    func store() throws -> StateStore {
        try StateStore(path: database)
    }

    /// Writes a window with the library.
    @discardableResult
    func save(
        _ session: String, _ window: String, _ body: (inout WindowState) throws(StateStoreError) -> Void
    ) throws -> WindowState {
        try store().update(session: session, window: window, body)
    }

    /// Every row of every table, the schema version and the application id: equal before and
    /// after a command exactly when the command changed nothing.
    func dump() throws -> [String] {
        try Fixture.dump(database)
    }

    static func dump(_ path: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { return ["(no file)"] }
        var lines = try query(path, "PRAGMA user_version").map { "user_version " + $0 }
        lines += try query(path, "PRAGMA application_id").map { "application_id " + $0 }
        for table in try query(path, "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") {
            lines += try query(path, "SELECT * FROM \"\(table)\"").sorted().map { table + ": " + $0 }
        }
        return lines
    }

    /// Each row of a query as its columns' text joined by `|`, read with SQLite directly.
    static func query(_ path: String, _ sql: String) throws -> [String] {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            sqlite3_close(handle)
            throw FixtureError(message: "cannot open \(path)")
        }
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw FixtureError(message: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        var rows: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            let columns = (0..<sqlite3_column_count(statement)).map { column in
                sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
            }
            rows.append(columns.joined(separator: "|"))
        }
        return rows
    }

    /// Runs SQL on a file with SQLite directly, as another program would.
    static func execute(_ path: String, _ sql: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK else { throw FixtureError(message: "cannot open \(path)") }
        defer { sqlite3_close(handle) }
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw FixtureError(message: text)
        }
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// Names in the folder (not recursive), sorted.
    func contents(of path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Parses one JSON document, as a program reading `--json` would.
func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

func jsonObject(_ text: String) throws -> [String: Any] {
    guard let object = try json(text) as? [String: Any] else { throw FixtureError(message: "not an object: \(text)") }
    return object
}

func jsonArray(_ text: String) throws -> [[String: Any]] {
    guard let array = try json(text) as? [[String: Any]] else {
        throw FixtureError(message: "not an array of objects: \(text)")
    }
    return array
}

/// A route's JSON object, `{"type": ..., "value": ...}`, as `TYPE:JSON` text for comparisons.
func routeText(_ value: Any?) -> String? {
    guard let object = value as? [String: Any], let type = object["type"] as? String else { return nil }
    guard let routeValue = object["value"], !(routeValue is NSNull) else { return type }
    let data = try? JSONSerialization.data(withJSONObject: routeValue, options: [.fragmentsAllowed, .sortedKeys])
    return type + ":" + String(decoding: data ?? Data(), as: UTF8.self)
}
