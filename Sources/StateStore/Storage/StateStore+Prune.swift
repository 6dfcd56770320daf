/// A session `prune` removed, or would remove.
public struct PrunedSession: Hashable, Sendable {
    public var session: String
    /// Its windows, sorted.
    public var windows: [String]
    /// The most recent write to any of its windows.
    public var lastWrite: Timestamp
}

extension StateStore {
    /// Deletes the sessions none of whose windows was written within `age` of now (the store's
    /// clock), with their history, in one transaction; with `dryRun`, only reports them. Sorted
    /// by session.
    @discardableResult
    public func prune(olderThan age: Duration, dryRun: Bool = false) throws(StateStoreError) -> [PrunedSession] {
        let (seconds, attoseconds) = age.components
        guard seconds >= 0, attoseconds >= 0 else { throw .invalidInput("prune age must not be negative") }
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        let withFraction = milliseconds.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        let ageMilliseconds = milliseconds.overflow || withFraction.overflow ? Int64.max : withFraction.partialValue
        let now = options.clock().millisecondsSince1970
        let cutoff = now.subtractingReportingOverflow(ageMilliseconds)
        let before = cutoff.overflow ? Int64.min : cutoff.partialValue
        return try withDatabase { database throws(StateStoreError) in
            let body = { () throws(StateStoreError) -> [PrunedSession] in
                var pruned: [PrunedSession] = []
                try database.query(
                    "SELECT session, max(updated_at) FROM windows GROUP BY session HAVING max(updated_at) < ? ORDER BY session",
                    bind: { statement throws(StateStoreError) in try statement.bind(1, before) },
                    row: { statement throws(StateStoreError) in
                        pruned.append(
                            PrunedSession(
                                session: statement.text(0), windows: [],
                                lastWrite: Timestamp(millisecondsSince1970: statement.int64(1))))
                    })
                for index in pruned.indices {
                    if dryRun {
                        try database.query(
                            "SELECT window FROM windows WHERE session = ? ORDER BY window",
                            bind: { statement throws(StateStoreError) in try statement.bind(1, pruned[index].session) },
                            row: { statement throws(StateStoreError) in pruned[index].windows.append(statement.text(0))
                            })
                    } else {
                        pruned[index].windows = try database.deleteWindows(session: pruned[index].session, window: nil)
                    }
                }
                return pruned
            }
            // A dry run writes nothing, so it reads: a host writing at the time never makes it busy.
            return try dryRun ? database.readTransaction(body) : database.changingWindows(body)
        }
    }
}
