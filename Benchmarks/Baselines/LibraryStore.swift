import StateStore

/// WindowStore through its public API, as a host uses it.
package final class LibraryStore: BenchmarkedStore {
    package let store: WindowStore
    private let workload: Workload
    private let saves: [(session: String, window: String, content: WindowContent)]
    private let restores: [(session: String, window: String, sizeClass: SizeClass)]

    package init(
        path: String, workload: Workload, saves: [SaveOperation] = [], restores: [RestoreOperation] = []
    ) throws {
        store = try WindowStore(path: path)
        self.workload = workload
        self.saves = saves.map {
            (workload.session($0.window), workload.window($0.window), workload.contents[$0.content])
        }
        self.restores = restores.map { (workload.session($0.window), workload.window($0.window), $0.sizeClass) }
    }

    package func save(_ index: Int) throws {
        let operation = saves[index]
        let content = operation.content
        let state = WindowState(
            session: operation.session, window: operation.window, sizeClass: content.sizeClass, path: content.path,
            item: content.item, itemPath: content.itemPath, policy: content.policy)
        try store.save(state)
    }

    package func restore(_ index: Int) throws -> Int {
        let operation = restores[index]
        guard
            let restoration = try store.restore(
                session: operation.session, window: operation.window, into: operation.sizeClass)
        else { throw BenchmarkError("window \(operation.session) \(operation.window) not found") }
        return restoration.saved.revision &+ restoration.layout.stack.count &+ (restoration.layout.sheet?.count ?? 0)
    }

    package func list() throws -> ListTotals {
        var totals = ListTotals()
        var revisions = 0
        try store.forEachWindow { summary in
            totals.rows += 1
            totals.depth += summary.depth
            revisions += summary.revision
            totals.items += summary.item == nil ? 0 : 1
            totals.idBytes += summary.session.utf8.count + summary.window.utf8.count
        }
        totals.revisions = revisions
        return totals
    }

    /// The listing through ``StateStore/WindowStore/forEachListedWindow(session:sizeClass:_:)``, each row's
    /// texts copied out of the lent row into one reused buffer, as raw's listing copies them out
    /// of SQLite's.
    package func listLent() throws -> ListTotals {
        var totals = ListTotals()
        var revisions = 0
        let row = RowCopy()
        try store.forEachListedWindow { window in
            row.removeAll()
            window.withSessionUTF8 { row.append($0) }
            window.withWindowUTF8 { row.append($0) }
            let ids = row.count
            window.sizeClass.withRawValueUTF8 { row.append($0) }
            let item: Void? = window.withItemJSON { row.append($0) }
            totals.rows += 1
            totals.depth += window.depth
            revisions += window.revision
            totals.items += item == nil ? 0 : 1
            totals.idBytes += ids
        }
        totals.revisions = revisions
        return totals
    }

    package func layoutJSON(_ index: Int) throws -> String {
        let operation = restores[index]
        guard
            let layout = try store.restore(
                session: operation.session, window: operation.window, into: operation.sizeClass)?.layout
        else { throw BenchmarkError("window \(operation.session) \(operation.window) not found") }
        func array(_ routes: [Route]) -> String {
            var writer = JSONWriter()
            routes.write(to: &writer)
            return writer.text
        }
        return LayoutText.make(
            presentation: layout.presentation.rawValue, stack: array(layout.stack), sheet: layout.sheet.map(array))
    }
}

/// A listing's copy of the row it stands on, grown as needed and reused from row to row: what
/// raw's listing keeps, copied into with `memcpy` as it is.
private final class RowCopy {
    private var bytes = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 1)
    private var capacity = 256
    private(set) var count = 0

    deinit { bytes.deallocate() }

    func removeAll() { count = 0 }

    func append(_ text: UnsafeBufferPointer<UInt8>) {
        guard let base = text.baseAddress else { return }
        if count + text.count > capacity {
            let grown = UnsafeMutableRawPointer.allocate(byteCount: 2 * (count + text.count), alignment: 1)
            grown.copyMemory(from: bytes, byteCount: count)
            bytes.deallocate()
            (bytes, capacity) = (grown, 2 * (count + text.count))
        }
        (bytes + count).copyMemory(from: base, byteCount: text.count)
        count += text.count
    }
}
