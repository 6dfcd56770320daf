import StateStore
import StateStoreSQLite
import Testing

struct ErrorTests {
    /// Each case reads as a sentence naming what failed; statectl sorts the cases into exit
    /// statuses itself (its tests run the binary).
    @Test func everyCaseHasAMessage() {
        let failure = SQLiteFailure(code: .busy, message: "locked")
        let cases: [(StateStoreError, String)] = [
            (.conflict(session: "s", window: "w", expected: 1, actual: 2), "window 's' 'w' is at revision 2, not 1"),
            (.invalidInput("bad"), "bad"),
            (.notOurs(path: "p"), "p is a SQLite database that does not belong to StateStore"),
            (.notFound(.session("s")), "session 's' not found (it has no windows)"),
            (.notFound(.window(session: "s", window: "w")), "window 's' 'w' not found"),
            (
                .notFound(.revision(session: "s", window: "w", revision: 9, kept: 3...5)),
                "revision 9 of window 's' 'w' not found (kept: 3–5)"
            ),
            (.notFound(.revision(session: "s", window: "w", revision: 9, kept: nil)), "(kept: none)"),
            (.notFound(.file(path: "p")), "no database at p"),
            (.notADatabase(path: "p"), "p is not a database (SQLite code 26)"),
            (
                .damaged(SQLiteFailure(code: .corrupt, message: "torn", sql: "SELECT 1")),
                "torn (SQLite code 11) in: SELECT 1"
            ),
            (.io(SQLiteFailure(code: .full, message: "full")), "full (SQLite code 13)"),
            (.replaced(path: "p"), "p was replaced or deleted while open"),
            (.busy(failure), "database is busy (locked by another connection past the busy timeout): locked"),
            (.newerSchema(path: "p", found: 9, supported: 1), "p has schema version 9, newer than this build's 1"),
            (.alreadyExists("there"), "there"),
        ]
        for (error, text) in cases {
            #expect(error.description.hasPrefix(text) || error.description.hasSuffix(text), "\(error)")
        }
    }

    @Test func resultCodesHaveTheirNumbersAndPrimaryCodes() {
        #expect(SQLiteResultCode.ioErr.rawValue == 10)
        #expect(SQLiteResultCode.corrupt.rawValue == 11)
        #expect(SQLiteResultCode.notADatabase.rawValue == 26)
        #expect(SQLiteResultCode.ioErrShortRead.rawValue == 522)
        #expect(SQLiteResultCode.ioErrShortRead.primary == .ioErr)
        #expect(SQLiteResultCode.readOnlyDatabaseMoved.rawValue == 1032)
        #expect(SQLiteResultCode.readOnlyDatabaseMoved.primary == .readOnly)
        #expect(SQLiteResultCode.busy.primary == .busy)
        #expect(SQLiteFailure(code: .ok, message: "found by the store").description == "found by the store")
    }

    /// The codes are written as numbers, so that the model needs no C module: each is the constant
    /// of SQLite's header.
    @Test func everyCodeIsSQLitesConstant() {
        let codes: [(SQLiteResultCode, Int32)] = [
            (.ok, SQLITE_OK), (.error, SQLITE_ERROR), (.perm, SQLITE_PERM), (.busy, SQLITE_BUSY),
            (.locked, SQLITE_LOCKED), (.noMem, SQLITE_NOMEM), (.readOnly, SQLITE_READONLY),
            (.interrupt, SQLITE_INTERRUPT), (.ioErr, SQLITE_IOERR), (.corrupt, SQLITE_CORRUPT), (.full, SQLITE_FULL),
            (.cantOpen, SQLITE_CANTOPEN), (.constraint, SQLITE_CONSTRAINT), (.misuse, SQLITE_MISUSE),
            (.notADatabase, SQLITE_NOTADB),
            // SQLITE_IOERR_SHORT_READ and SQLITE_READONLY_DBMOVED, as sqlite3.h defines them (Swift
            // imports no macro with parentheses).
            (.ioErrShortRead, SQLITE_IOERR | 2 << 8), (.readOnlyDatabaseMoved, SQLITE_READONLY | 4 << 8),
        ]
        for (code, constant) in codes {
            #expect(code.rawValue == constant, "\(code.rawValue) is not \(constant)")
        }
    }
}
