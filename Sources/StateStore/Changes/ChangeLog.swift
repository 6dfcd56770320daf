/// The change log (`changes`, Migrations/0002 and 0003): triggers add a row for every write and
/// deletion of a window, by any writer; the library trims it, only ever between transactions.
package enum ChangeLog {
    /// Rows kept from earlier transactions when a write of the library starts. Every change of the
    /// latest write is kept too, however many there are.
    package static let keptRows = 1000
    /// Free pages a write leaves in the file before it gives them back (a delete gives back any):
    /// 256 KiB of 4 KiB pages.
    static let reclaimedPages = 64

}

extension Database {
    /// A write transaction of the WindowStore API: it trims the change log first, before it writes,
    /// so the log always holds every change of the latest write (an import or a deleted session of
    /// any size) and a feed behind the log's oldest row can tell it missed some. Once it has
    /// committed, it posts the store's Darwin notification (Apple platforms; nothing elsewhere).
    ///
    /// It ends by giving free pages back to the file system (``giveSpaceBack(all:)``): every one
    /// after a write that deleted windows, and otherwise once they are more than a quarter of
    /// the file and 256 KiB, so that rewriting a large window does not shrink and grow the file
    /// each time.
    func changingWindows<T>(_ body: () throws(StateStoreError) -> T) throws(StateStoreError) -> T {
        let result = try writeTransaction { () throws(StateStoreError) -> T in
            try run(.trimChanges)
            deletedWindows = false
            let result = try body()
            try giveSpaceBack(all: deletedWindows)
            return result
        }
        commitNotice?.post()
        return result
    }

    /// Gives free pages back, in the write transaction under way: moves pages from the end of the
    /// file into free ones and cuts the file short (`PRAGMA incremental_vacuum`; the WAL carries
    /// the change, the checkpoint shortens the file). All of them with `all`, otherwise only once
    /// they are more than a quarter of the file and at least ``reclaimedPages``. A file of
    /// `auto_vacuum` none (one no writer has turned yet, see ``useIncrementalVacuum()``) keeps
    /// them. Costs a fraction of a microsecond when there is nothing to give back.
    func giveSpaceBack(all: Bool) throws(StateStoreError) {
        var free = 0
        try query(.freePages) { statement throws(StateStoreError) in free = statement.int(0) }
        guard free > 0, all || free >= ChangeLog.reclaimedPages else { return }
        if !all {
            var pages = 0
            try query(.pageCount) { statement throws(StateStoreError) in pages = statement.int(0) }
            guard free * 4 > pages else { return }
        }
        try run(.incrementalVacuum)
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
