/// The change log (`changes`, Migrations/0002 and 0003): triggers add a row for every write and
/// deletion of a window, by any writer; the library trims it, only ever between transactions.
package enum ChangeLog {
    /// Rows kept from earlier transactions when a write of the library starts. Every change of the
    /// latest write is kept too, however many there are.
    package static let keptRows = 1000

}

extension Database {
    /// A write transaction of the StateStore API: it trims the change log first, before it writes,
    /// so the log always holds every change of the latest write (an import or a deleted session of
    /// any size) and a feed behind the log's oldest row can tell it missed some. Once it has
    /// committed, it posts the store's Darwin notification (Apple platforms; nothing elsewhere).
    func changingWindows<T>(_ body: () throws(StateStoreError) -> T) throws(StateStoreError) -> T {
        let result = try writeTransaction { () throws(StateStoreError) -> T in
            try run(.trimChanges)
            return try body()
        }
        commitNotice?.post()
        return result
    }

    /// The last sequence number the log ever gave, even when its rows are gone: AUTOINCREMENT keeps
    /// it in `sqlite_sequence`, so a log emptied by hand still says how far it went.
    func changeLogHighWaterMark() throws(StateStoreError) -> Int64 {
        Int64(
            try integer(
                """
                SELECT max(coalesce((SELECT max(seq) FROM changes), 0),
                           coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'changes'), 0))
                """) ?? 0)
    }
}
