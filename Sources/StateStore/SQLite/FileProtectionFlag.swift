import StateStoreSQLite

/// The open flags of Apple's SQLite for a data-protection class (`SQLITE_OPEN_FILEPROTECTION_*`,
/// which only Apple's `sqlite3.h` declares: the shim gives Apple's values where they are missing),
/// for the classes a store's options name.
enum FileProtectionFlag {
    static let complete = SQLITE_OPEN_FILEPROTECTION_COMPLETE
    static let completeUnlessOpen = SQLITE_OPEN_FILEPROTECTION_COMPLETEUNLESSOPEN
    static let completeUntilFirstUserAuthentication = SQLITE_OPEN_FILEPROTECTION_COMPLETEUNTILFIRSTUSERAUTHENTICATION
    static let none = SQLITE_OPEN_FILEPROTECTION_NONE

    /// What this build passes to `sqlite3_open_v2` for `flag`: the flag on Apple platforms, where
    /// SQLite knows it; nothing elsewhere, where the bits are reserved.
    static func passed(_ flag: Int32) -> Int32 {
        #if canImport(Darwin)
            flag
        #else
            0
        #endif
    }
}
