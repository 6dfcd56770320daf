/// The change log (`changes`, Migrations/0002 and 0003): triggers add a row for every write and
/// deletion of a window, by any writer; the library trims it, only ever between transactions, to
/// its last 1,000 rows and to ``WindowStore/Options/changeLogByteLimit`` bytes of state, and takes a
/// deleted window's states out of it.
package enum ChangeLog {
    /// Rows kept from earlier transactions when a write of the library starts. Every change of the
    /// latest write is kept too, however many there are.
    package static let keptRows = 1000
    /// Bytes of state kept from earlier transactions by default (16 MiB).
    package static let defaultByteLimit = 16 << 20
    /// Free pages a write leaves in the file before it gives them back (a delete gives back any):
    /// 256 KiB of 4 KiB pages.
    static let reclaimedPages = 64

    /// The bytes of state of the log's rows from ``from`` on, oldest first, as one connection
    /// counted them: each row is read once (its routes, item and tab, `length` of them as stored),
    /// when a write first finds it, and forgotten once the log no longer has it.
    struct Sizes {
        /// Sequence numbers and bytes, oldest first, from ``first`` on.
        private var rows: [(sequence: Int64, bytes: Int)] = []
        private var first = 0
        /// The sum of the rows' bytes.
        private(set) var total = 0
        /// The last sequence number counted: rows after it are new.
        var through: Int64 = 0

        /// Forgets the rows before `sequence` (trimmed by any writer).
        mutating func forget(before sequence: Int64) {
            while first < rows.count, rows[first].sequence < sequence {
                total -= rows[first].bytes
                first += 1
            }
            if first > 64 && first * 2 > rows.count {
                rows.removeFirst(first)
                first = 0
            }
        }

        /// Counts new rows, oldest first.
        mutating func append(_ sequence: Int64, bytes: Int) {
            rows.append((sequence, bytes))
            total += bytes
            through = max(through, sequence)
        }

        /// The sequence number to trim through (that row and every one before it) so that the rest
        /// hold at most `limit` bytes; `nil` when they do already. The rows are forgotten.
        mutating func cut(toAtMost limit: Int) -> Int64? {
            var cut: Int64?
            while total > limit, first < rows.count {
                cut = rows[first].sequence
                total -= rows[first].bytes
                first += 1
            }
            return cut
        }
    }
}

extension Database {
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
