/// One schema step from `Migrations/NNNN_name.sql`, embedded at build time.
struct Migration: Hashable, Sendable {
    let version: Int
    let name: String
    let sql: String

    /// FNV-1a 64 of the SQL, hex: recorded when applied, so `check` sees an edited migration.
    var checksum: String {
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
    public let version: Int
    public let name: String

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

extension StateStore {
    /// The migrations built into this library, in order (from `Migrations/*.sql`).
    public static var schemaMigrations: [(version: Int, name: String, sql: String)] {
        Migration.embedded.map { ($0.version, $0.name, $0.sql) }
    }

    /// The schema version this build writes.
    public static let schemaVersion = Migration.embedded.last?.version ?? 0
}
