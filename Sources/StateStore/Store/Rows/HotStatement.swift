/// The statements every restore, listing and save runs, each with a slot of its own in a
/// connection's cache (``Database/statement(slot:_:)``), found by index rather than by hashing
/// their text. The rest are cached by their text; the transactions' own statements are the
/// connection's.
enum HotStatement: Int, CaseIterable {
    /// One window by its key.
    case window
    /// A session's windows.
    case windowsOfSession
    /// The listing, whole or narrowed: `session, window, size_class, json_array_length(path),
    /// item, revision, updated_at`, the session bound to 1 and the size class to 2.
    case listing, listingOfSession, listingOfSizeClass, listingOfSessionAndSizeClass
    /// A window's revision.
    case revision
    /// The writes of a save, in ``WindowRow/columns`` order where they take a whole row.
    case upsertWindow, keepInHistory, dropOldHistory, clearHistory
    /// The change log's trim, at the start of every write, and the bytes of state of its rows
    /// after `?1`, newest first, for its byte budget.
    case trimChanges, changeSizesAfter
    /// Free pages, all pages, and giving the free ones back, at the end of every write.
    case freePages, pageCount, incrementalVacuum

    var sql: String {
        let listing =
            "SELECT session, window, size_class, json_array_length(path), item, revision, updated_at FROM windows"
        return switch self {
        case .window: "SELECT \(WindowRow.columns) FROM windows WHERE session = ? AND window = ?"
        case .windowsOfSession: "SELECT \(WindowRow.columns) FROM windows WHERE session = ? ORDER BY window"
        case .listing: listing + " ORDER BY session, window"
        case .listingOfSession: listing + " WHERE session = ?1 ORDER BY session, window"
        case .listingOfSizeClass: listing + " WHERE size_class = ?2 ORDER BY session, window"
        case .listingOfSessionAndSizeClass: listing + " WHERE session = ?1 AND size_class = ?2 ORDER BY session, window"
        case .revision: "SELECT revision FROM windows WHERE session = ? AND window = ?"
        case .upsertWindow:
            """
            INSERT INTO windows (\(WindowRow.columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            ON CONFLICT (session, window) DO UPDATE SET size_class = excluded.size_class, path = excluded.path,
            item = excluded.item, item_path = excluded.item_path, policy = excluded.policy,
            revision = excluded.revision, updated_at = excluded.updated_at,
            column_visibility = excluded.column_visibility,
            preferred_compact_column = excluded.preferred_compact_column, selected_tab = excluded.selected_tab
            """
        case .keepInHistory:
            """
            INSERT INTO window_history (\(WindowRow.columns))
            SELECT \(WindowRow.columns) FROM windows WHERE session = ?1 AND window = ?2
            """
        case .dropOldHistory: "DELETE FROM window_history WHERE session = ?1 AND window = ?2 AND revision <= ?3"
        case .clearHistory: "DELETE FROM window_history WHERE session = ?1 AND window = ?2"
        case .trimChanges: "DELETE FROM changes WHERE seq <= (SELECT max(seq) FROM changes) - \(ChangeLog.keptRows)"
        case .changeSizesAfter:
            """
            SELECT seq, coalesce(length(CAST(path AS BLOB)), 0) + coalesce(length(CAST(item AS BLOB)), 0)
                + coalesce(length(CAST(item_path AS BLOB)), 0) + coalesce(length(CAST(selected_tab AS BLOB)), 0)
            FROM changes WHERE seq > ?1 ORDER BY seq DESC
            """
        case .freePages: "PRAGMA freelist_count"
        case .pageCount: "PRAGMA page_count"
        case .incrementalVacuum: "PRAGMA incremental_vacuum"
        }
    }
}

extension Database {
    /// A hot statement, prepared on first use, found by its number.
    func statement(_ hot: HotStatement) throws(StateStoreError) -> Statement {
        try statement(slot: hot.rawValue) { hot.sql }
    }

    /// ``run(_:bind:)-(String,_)`` for a hot statement.
    func run(_ hot: HotStatement, bind: (Statement) throws(StateStoreError) -> Void = { _ in }) throws(StateStoreError)
    {
        try run(try statement(hot), bind: bind)
    }

    /// ``query(_:bind:row:)-(String,_,_)`` for a hot statement.
    func query(
        _ hot: HotStatement, bind: (Statement) throws(StateStoreError) -> Void = { _ in },
        row: (Statement) throws(StateStoreError) -> Void
    ) throws(StateStoreError) {
        try query(try statement(hot), bind: bind, row: row)
    }

    /// A hot read bound to a window's key (``query(_:session:window:row:)-(Statement,_,_,_)``).
    func query(
        _ hot: HotStatement, session: String, window: String, row: (Statement) throws(StateStoreError) -> Void
    ) throws(StateStoreError) {
        try query(try statement(hot), session: session, window: window, row: row)
    }

    /// A hot write bound to a window's key and a row's JSON
    /// (``run(_:session:window:bytes:bind:)-(Statement,_,_,_,_)``).
    func run(
        _ hot: HotStatement, session: String, window: String, bytes: [UInt8] = [],
        bind: (Statement, UnsafeBufferPointer<UInt8>) throws(StateStoreError) -> Void = { _, _ in }
    ) throws(StateStoreError) {
        try run(try statement(hot), session: session, window: window, bytes: bytes, bind: bind)
    }
}
