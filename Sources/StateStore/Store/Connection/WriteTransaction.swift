extension StoreConnection {
    /// A write transaction of the WindowStore API: it trims the change log first, before it writes,
    /// so the log always holds every change of the latest write (an import or a deleted session of
    /// any size) and a feed behind the log's oldest row can tell it missed some. Once it has
    /// committed, it posts the store's Darwin notification (Apple platforms; nothing elsewhere).
    ///
    /// It ends by giving free pages back to the file system (``giveSpaceBack(all:)``): every one
    /// after a write that deleted windows, and otherwise once they are more than a quarter of
    /// the file and 256 KiB, so that rewriting a large window does not shrink and grow the file
    /// each time.
    ///
    /// A write that deleted windows then empties the WAL into the file and cuts it to nothing when
    /// no other connection needs it (waiting for none): the deleted windows' pages, old versions
    /// included, stay in neither file.
    func changingWindows<T>(_ body: () throws(StateStoreError) -> T) throws(StateStoreError) -> T {
        let result: T
        do {
            result = try writeTransaction { () throws(StateStoreError) -> T in
                try run(.trimChanges)
                try trimChangesToByteLimit()
                deletedWindows = false
                let result = try body()
                try giveSpaceBack(all: deletedWindows)
                return result
            }
        } catch {
            changeLogSizes = nil  // the trim rolled back with the rest: counted again next time
            throw error
        }
        if deletedWindows && DatabasePath.isFile(path) {
            _ = try? withBusyTimeout(0) { truncateWAL() }
        }
        commitNotice?.post()
        return result
    }

    /// Trims the log, from its oldest row, until the states of the rows left come to at most
    /// ``changeLogByteLimit`` bytes, in the write transaction under way, before the write.
    ///
    /// Nothing is read while the whole file is within the limit (the log is then too). Otherwise
    /// each row's bytes are read once per connection (``changeLogSizes``), when a write first
    /// finds it: newest first, stopping at the first that does not fit, so a connection's first
    /// count reads no more than the limit. Rows another writer took the states out of (a deleted
    /// window's) count as they were until they leave the log, which trims them a little early,
    /// never late.
    func trimChangesToByteLimit() throws(StateStoreError) {
        var pages = 0
        try query(.pageCount) { statement throws(StateStoreError) in pages = statement.int(0) }
        if pageSize == 0 { pageSize = try integer("PRAGMA page_size") ?? 4096 }
        guard pages.multipliedReportingOverflow(by: pageSize).partialValue > changeLogByteLimit else {
            changeLogSizes = nil
            return
        }
        var sizes = changeLogSizes ?? ChangeLog.Sizes()
        changeLogSizes = nil  // until it is right again
        if let oldest = try integer("SELECT min(seq) FROM changes") { sizes.forget(before: Int64(oldest)) }
        // The rows since the last count, newest first, down to the first that does not fit: the
        // rows before it need not be read, since they go with it.
        var new: [(sequence: Int64, bytes: Int)] = []
        var newBytes = 0
        var cut: Int64?
        let newest = try statement(.changeSizesAfter)
        do {
            defer { newest.reset() }
            try newest.bind(1, sizes.through)
            while try newest.step() {
                let row = (sequence: newest.int64(0), bytes: newest.int(1))
                guard newBytes + row.bytes <= changeLogByteLimit else {
                    cut = row.sequence
                    break
                }
                new.append(row)
                newBytes += row.bytes
            }
        }
        if let cut {
            sizes = ChangeLog.Sizes()  // everything counted before is older than the cut
            sizes.through = cut
            for row in new.reversed() { sizes.append(row.sequence, bytes: row.bytes) }
            try trimChanges(through: cut)
        } else {
            for row in new.reversed() { sizes.append(row.sequence, bytes: row.bytes) }
            if let cut = sizes.cut(toAtMost: changeLogByteLimit) { try trimChanges(through: cut) }
        }
        changeLogSizes = sizes
    }

    private func trimChanges(through sequence: Int64) throws(StateStoreError) {
        try run("DELETE FROM changes WHERE seq <= ?1") { statement throws(StateStoreError) in
            try statement.bind(1, sequence)
        }
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
}
