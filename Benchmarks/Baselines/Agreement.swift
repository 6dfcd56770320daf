import StateStoreSQLite

/// Checks that the implementations did the same work: a benchmark whose contenders disagree
/// measures nothing.
package enum Agreement {
    /// Every row of `windows` and of `window_history` but the time stamps, in key order: two
    /// stores that ran the same saves hold the same rows.
    package static func rows(ofStoreAt path: String) throws -> [String] {
        try [
            "SELECT session, window, size_class, path, item, item_path, policy, revision FROM windows ORDER BY 1, 2",
            "SELECT session, window, revision, size_class, path, item, item_path, policy FROM window_history ORDER BY 1, 2, 3",
        ].flatMap { sql in try query(sql, ofStoreAt: path).map { $0.joined(separator: "|") } }
    }

    /// The schema, as `sqlite_schema` holds it: a fixture must leave it as WindowStore made it.
    package static func schema(ofStoreAt path: String) throws -> [String] {
        try query("SELECT type, name, sql FROM sqlite_schema ORDER BY name", ofStoreAt: path).map {
            $0.joined(separator: "|")
        }
    }

    /// The rows of a query, each column as text ("NULL" for NULL), read on a connection of its own.
    static func query(_ sql: String, ofStoreAt path: String) throws -> [[String]] {
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw BenchmarkError("cannot open \(path)")
        }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchmarkError("\(path): \(String(cString: sqlite3_errmsg(handle)))")
        }
        var rows: [[String]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(
                (0..<sqlite3_column_count(statement)).map { column in
                    sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
                })
        }
        return rows
    }

    /// The first restore operations of `first` and `second` give the same layouts.
    package static func checkLayouts(
        _ first: some BenchmarkedStore, _ second: some BenchmarkedStore, count: Int
    ) throws {
        for index in 0..<count {
            let (a, b) = (try first.layoutJSON(index), try second.layoutJSON(index))
            guard a == b else { throw BenchmarkError("restore \(index) differs:\n  \(a)\n  \(b)") }
        }
    }

    /// Two listings saw the same windows (revisions compared only where both keep them).
    package static func checkTotals(_ first: ListTotals, _ second: ListTotals) throws {
        var (a, b) = (first, second)
        if a.revisions == nil || b.revisions == nil { (a.revisions, b.revisions) = (nil, nil) }
        guard a == b else { throw BenchmarkError("listings differ: \(first) and \(second)") }
    }
}
