import Foundation
import StateStore

/// A private folder for one test: a database path in it, and a home, state home and temporary
/// folder of its own, so no run of `statectl` can touch the real ones. Removed with everything
/// in it at the end of the scope that made it.
final class Fixture: Sendable {
    private let temporary = TemporaryFolder(prefix: "statectl-tests-")

    init() {
        try? FileManager.default.createDirectory(atPath: folder + "/tmp", withIntermediateDirectories: true)
    }

    /// The folder, removed with the fixture.
    var folder: String { temporary.path }

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
    func store() throws -> WindowStore {
        try WindowStore(path: database)
    }

    /// Writes a window with the library.
    @discardableResult
    func save(_ session: String, _ window: String, _ body: (inout WindowState) throws -> Void) throws -> WindowState {
        try store().update(session: session, window: window, body)
    }

    /// Everything the database holds: equal before and after a command exactly when the command
    /// changed nothing.
    func dump() throws -> [String] {
        try Fixture.dump(database)
    }

    /// ``rawDump(_:)`` of `path`, or `(no file)` when there is none.
    static func dump(_ path: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { return ["(no file)"] }
        return try rawDump(path)
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// Names in the folder (not recursive), sorted.
    func contents(of path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}

/// What a test needed and did not get (a pipe, a line from `watch`, a JSON document).
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
