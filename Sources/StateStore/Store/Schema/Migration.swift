/// One schema step from `Migrations/NNNN_name.sql`, embedded at build time.
package struct Migration: Hashable, Sendable {
    package let version: Int
    package let name: String
    package let sql: String

    /// Migration `version`, named `name` (`0001_name` without its number), of `sql`.
    package init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// FNV-1a 64 of the SQL, hex: recorded when applied, so `check` sees an edited migration.
    package var checksum: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sql.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// A migration as reported to callers: its number and name.
public struct MigrationInfo: Hashable, Sendable, CustomStringConvertible {
    /// Its number: 1 for the first, each one more than the one before.
    public let version: Int
    /// Its name, without the number: `change_log`.
    public let name: String

    package init(version: Int, name: String) {
        self.version = version
        self.name = name
    }

    /// The name of its file, without `.sql`: `0002_change_log`.
    public var description: String {
        let number = String(version)
        return String(repeating: "0", count: max(0, 4 - number.count)) + number + "_" + name
    }
}

/// Which migrations a database has and which this build would still apply.
public struct MigrationStatus: Hashable, Sendable {
    /// `PRAGMA user_version`: the last migration applied; 0 for a new or missing store.
    public let schemaVersion: Int
    /// The last migration this build carries.
    public let latestVersion: Int
    /// Applied migrations, as recorded in the database, oldest first.
    public let applied: [MigrationInfo]
    /// Migrations this build would apply, in order.
    public let pending: [MigrationInfo]
}

extension WindowStore {
    /// The migrations built into this library, in order (from `Migrations/*.sql`).
    package static var schemaMigrations: [(version: Int, name: String, sql: String)] {
        Migration.embedded.map { ($0.version, $0.name, $0.sql) }
    }

    /// The schema version this build writes.
    public static let schemaVersion = Migration.embedded.last?.version ?? 0
}
