import StateStore
import StateStoreSQLite
import Testing

// The data-protection option: each class maps to the open flag of Apple's SQLite, with the values
// of Apple's sqlite3.h (the shim supplies them where the header lacks them, as this machine's
// does); Linux accepts every class and passes no flag. Scripts/check-apple.sh compiles the branch
// that passes it.
@Suite struct FileProtectionTests {
    @Test func eachClassIsAppleSQLiteOpenFlag() {
        // The values of SQLITE_OPEN_FILEPROTECTION_* in Apple's sqlite3.h.
        let apple: [WindowStore.FileProtection: Int32] = [
            .complete: 0x0010_0000, .completeUnlessOpen: 0x0020_0000,
            .completeUntilFirstUserAuthentication: 0x0030_0000, .none: 0x0040_0000,
        ]
        #expect(WindowStore.FileProtection.allCases.count == apple.count)
        for protection in WindowStore.FileProtection.allCases {
            #expect(protection.sqliteOpenFlag == apple[protection], "\(protection)")
            #expect(protection.sqliteOpenFlag & ~SQLITE_OPEN_FILEPROTECTION_MASK == 0)
        }
        #expect(WindowStore.FileProtection.complete.sqliteOpenFlag == SQLITE_OPEN_FILEPROTECTION_COMPLETE)
        #expect(
            WindowStore.FileProtection.completeUntilFirstUserAuthentication.sqliteOpenFlag
                == SQLITE_OPEN_FILEPROTECTION_COMPLETEUNTILFIRSTUSERAUTHENTICATION)
        // None of them a flag StateStore passes for another reason.
        let others = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        #expect(SQLITE_OPEN_FILEPROTECTION_MASK & others == 0)
    }

    @Test func theDefaultIsCompleteUntilFirstUserAuthentication() {
        #expect(WindowStore.Options().fileProtection == .completeUntilFirstUserAuthentication)
        #expect(WindowStore.FileProtection(rawValue: "completeUntilFirstUserAuthentication") != nil)
    }

    @Test func linuxAcceptsEveryClassAndPassesNoFlag() throws {
        #if os(Linux)
            for protection in WindowStore.FileProtection.allCases {
                #expect(protection.openFlags == 0)
                let folder = TemporaryFolder()
                var options = WindowStore.Options()
                options.fileProtection = protection
                let store = try WindowStore(path: folder.file("state.db"), options: options)
                let saved = try store.save(WindowState(session: "s", window: "w"))
                #expect(try store.window(session: "s", window: "w") == saved)
                let feed = try store.changeFeed()
                #expect(try feed.poll().isEmpty)
                #expect(try store.backup(to: folder.file("copy.db")).windows == 1)
            }
        #else
            for protection in WindowStore.FileProtection.allCases {
                #expect(protection.openFlags == protection.sqliteOpenFlag)
            }
        #endif
    }
}
