extension WindowStore {
    /// When the system may read the store's file, and its `-wal` and `-shm`: the data-protection
    /// class of iOS, iPadOS, watchOS and visionOS (and of a Mac's app containers where the Mac
    /// protects them), given to SQLite as an open flag of Apple's SQLite.
    ///
    /// The store writes when the app goes to the background and when an extension runs, which may
    /// be while the device is locked: under ``complete`` those writes fail once the device has
    /// locked. The default, ``completeUntilFirstUserAuthentication``, is what Core Data uses for
    /// the same need: the file is readable from the first unlock after a restart until the next
    /// restart.
    ///
    /// Apple's SQLite gives the class to the file it creates and to the `-wal` and `-shm` it makes
    /// beside it (without the flag, a new `-shm` gets no protection at all, whatever its folder's).
    /// A file that already exists keeps the class it was created with. Elsewhere (Linux) the option
    /// is accepted and has no effect: no flag is passed.
    public enum FileProtection: String, Sendable, CaseIterable {
        /// Readable only while the device is unlocked: writes while it is locked fail
        /// (`NSFileProtectionComplete`).
        case complete
        /// Once open, readable until closed even when the device locks; a new file can be created
        /// while locked (`NSFileProtectionCompleteUnlessOpen`).
        case completeUnlessOpen
        /// Readable from the first unlock after a restart (`NSFileProtectionCompleteUntilFirstUserAuthentication`):
        /// the default.
        case completeUntilFirstUserAuthentication
        /// Always readable (`NSFileProtectionNone`).
        case none

        /// The flag of Apple's `sqlite3_open_v2` for this class (`SQLITE_OPEN_FILEPROTECTION_*`).
        package var sqliteOpenFlag: Int32 {
            switch self {
            case .complete: FileProtectionFlag.complete
            case .completeUnlessOpen: FileProtectionFlag.completeUnlessOpen
            case .completeUntilFirstUserAuthentication: FileProtectionFlag.completeUntilFirstUserAuthentication
            case .none: FileProtectionFlag.none
            }
        }

        /// What this build passes to `sqlite3_open_v2` for it: ``sqliteOpenFlag`` on Apple
        /// platforms, where SQLite knows it; nothing elsewhere, where the bits are reserved.
        package var openFlags: Int32 { FileProtectionFlag.passed(sqliteOpenFlag) }
    }
}
