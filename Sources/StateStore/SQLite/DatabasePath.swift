/// SQLite's name for a private database in memory, and the test every "is there a file?" question
/// asks of a path: a database in memory has no file, so nothing another process sees, no WAL, no
/// folder to watch, nothing kept when its connection closes.
package enum DatabasePath {
    /// `:memory:`: a private database in memory, gone when its connection is.
    package static let inMemory = ":memory:"

    /// Whether `path` names a file (kept, and shared with other processes), not a database in memory.
    package static func isFile(_ path: String) -> Bool {
        path != inMemory
    }
}
