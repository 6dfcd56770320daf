import StateStore
import StateStoreRawSQLite
import StateStoreSQLite

/// The raw baseline (`Benchmarks/RawSQLite`): the same statements against the SQLite C API, with
/// every text it binds laid out in memory before the clock starts.
package final class RawStore: BenchmarkedStore {
    let handle: OpaquePointer
    private let arena = TextArena()
    private let historyLimit: Int64
    private var saves: [raw_columns] = []
    private var restores: [(session: raw_text, window: raw_text, sizeClass: raw_text)] = []
    private var restoration = raw_restoration()

    /// Opens a store whose schema WindowStore created, with StateStore's default settings.
    package init(
        path: String, workload: Workload, saves: [SaveOperation] = [], restores: [RestoreOperation] = [],
        historyLimit: Int = WindowStore.Options().historyLimit
    ) throws {
        var handle: OpaquePointer?
        let options = WindowStore.Options()
        let code = raw_open(
            path, options.durability == .full ? 1 : 0, Int32(options.busyTimeoutMilliseconds), &handle)
        guard let handle else { throw BenchmarkError("raw: cannot open \(path): SQLite code \(code)") }
        self.handle = handle
        self.historyLimit = Int64(historyLimit)
        guard code == SQLITE_OK else {
            defer { raw_close(handle) }
            throw BenchmarkError("raw: cannot open \(path): \(String(cString: raw_errmsg(handle)))")
        }
        let contents = workload.contents.map { arena.columns(for: $0) }
        self.saves = saves.map { operation in
            var columns = contents[operation.content]
            columns.session = arena.text(workload.session(operation.window))
            columns.window = arena.text(workload.window(operation.window))
            return columns
        }
        self.restores = restores.map {
            (
                arena.text(workload.session($0.window)), arena.text(workload.window($0.window)),
                arena.text($0.sizeClass.rawValue)
            )
        }
    }

    deinit {
        raw_restoration_free(&restoration)
        raw_close(handle)
    }

    package func save(_ index: Int) throws {
        var revision: Int64 = 0
        try check(withUnsafePointer(to: &saves[index]) { raw_save(handle, $0, historyLimit, &revision) })
    }

    /// ``save(_:)`` that first asks SQLite, with the write lock held, whether the path still names
    /// the file opened, as WindowStore does before each write: what that check costs, apart.
    package func saveCheckingPath(_ index: Int) throws {
        var revision: Int64 = 0
        try check(withUnsafePointer(to: &saves[index]) { raw_save_checking_path(handle, $0, historyLimit, &revision) })
    }

    package func restore(_ index: Int) throws -> Int {
        let operation = restores[index]
        var found: Int32 = 0
        try check(raw_restore(handle, operation.session, operation.window, operation.sizeClass, &restoration, &found))
        guard found == 1 else { throw BenchmarkError("raw: restore \(index): window not found") }
        return Int(restoration.revision) &+ Int(restoration.stack.count) &+ Int(restoration.sheet.count)
    }

    package func list() throws -> ListTotals {
        var totals = raw_list_totals()
        try check(raw_list(handle, &totals))
        var result = ListTotals()
        result.rows = Int(totals.rows)
        result.depth = Int(totals.depth)
        result.revisions = Int(totals.revisions)
        result.items = Int(totals.items)
        result.idBytes = Int(totals.id_bytes)
        return result
    }

    package func layoutJSON(_ index: Int) throws -> String {
        _ = try restore(index)
        let presentation = ["none", "push", "sheet"][Int(restoration.presentation.rawValue)]
        return LayoutText.make(
            presentation: presentation, stack: String(restoration.stack)!,
            sheet: String(restoration.sheet))
    }

    /// Writes `workload`'s windows into a store whose schema WindowStore created, in one
    /// transaction: each window at revision `revisions`, with revisions 1…`revisions` kept in its
    /// history, stamped from `updatedAt` on (one millisecond per window).
    package static func populate(
        path: String, workload: Workload, revisions: Int = 1,
        updatedAt: Int64 = 1_795_000_000_000
    ) throws {
        // The change log's triggers would log every fixture row: they are taken off for the bulk
        // insert and put back as they were, in the same transaction.
        let triggers = try Agreement.query(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'windows'", ofStoreAt: path)
        let store = try RawStore(path: path, workload: workload)
        let contents = workload.contents.map { store.arena.columns(for: $0) }
        try store.check(raw_exec(store.handle, "BEGIN IMMEDIATE"))
        do {
            for trigger in triggers { try store.check(raw_exec(store.handle, "DROP TRIGGER \"\(trigger[0])\"")) }
            var session = [UInt8]()
            var window = [UInt8]()
            for index in 0..<workload.windowCount {
                session.removeAll(keepingCapacity: true)
                session.append(contentsOf: workload.session(index).utf8)
                window.removeAll(keepingCapacity: true)
                window.append(contentsOf: workload.window(index).utf8)
                var columns = contents[workload.initialContent(index)]
                try session.withUnsafeBufferPointer { session in
                    try window.withUnsafeBufferPointer { window in
                        columns.session = raw_text(session)
                        columns.window = raw_text(window)
                        for revision in 1...max(1, revisions) {
                            try store.check(
                                raw_insert(store.handle, &columns, Int64(revision), updatedAt + Int64(index)))
                        }
                    }
                }
            }
            for trigger in triggers { try store.check(raw_exec(store.handle, trigger[1])) }
            try store.check(raw_exec(store.handle, "COMMIT"))
        } catch {
            _ = raw_exec(store.handle, "ROLLBACK")
            throw error
        }
        try store.check(raw_exec(store.handle, "PRAGMA wal_checkpoint(TRUNCATE)"))
    }

    /// SQLite's version.
    package static var sqliteVersion: String { String(cString: raw_sqlite_version()) }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else {
            throw BenchmarkError("raw: SQLite code \(code): \(String(cString: raw_errmsg(handle)))")
        }
    }
}

extension raw_text {
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.init(
            bytes: UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self), count: Int32(bytes.count))
    }
}

extension String {
    fileprivate init?(_ text: raw_text) {
        guard let bytes = text.bytes else { return nil }
        self = bytes.withMemoryRebound(to: UInt8.self, capacity: Int(text.count)) {
            String(decoding: UnsafeBufferPointer(start: $0, count: Int(text.count)), as: UTF8.self)
        }
    }
}

/// Texts the raw baseline binds, kept at stable addresses for the store's life.
final class TextArena {
    private var chunks: [UnsafeMutableRawBufferPointer] = []
    private var used = 0

    deinit {
        for chunk in chunks { chunk.deallocate() }
    }

    func text(_ string: String) -> raw_text {
        var utf8 = Array(string.utf8)
        if utf8.isEmpty { utf8 = [0] }  // an address for an empty text, never NULL
        if chunks.isEmpty || used + utf8.count > chunks[chunks.count - 1].count {
            chunks.append(.allocate(byteCount: max(65_536, utf8.count), alignment: 1))
            used = 0
        }
        let start = chunks[chunks.count - 1].baseAddress! + used
        start.copyMemory(from: utf8, byteCount: utf8.count)
        used += utf8.count
        return raw_text(bytes: start.assumingMemoryBound(to: CChar.self), count: Int32(string.utf8.count))
    }

    func columns(for content: WindowContent) -> raw_columns {
        let texts = content.columnTexts
        var columns = raw_columns()
        columns.size_class = text(texts.sizeClass)
        columns.path = text(texts.path)
        columns.item = texts.item.map(text) ?? raw_text(bytes: nil, count: 0)
        columns.item_path = text(texts.itemPath)
        columns.policy = text(texts.policy)
        return columns
    }
}
