import Foundation
import StateStore
import StateStoreBaselines
import Testing

/// statebench's contenders must do the same work, or its ratios mean nothing: these tests run
/// small workloads through each and compare what they stored and what they read.
struct AgreementTests {
    let folder = NSTemporaryDirectory() + "baselines-tests-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// A store with StateStore's schema and the workload's windows, built by the raw fixture.
    func populated(_ name: String, _ workload: Workload, revisions: Int = 1) throws -> String {
        let path = folder + "/" + name
        _ = try WindowStore(path: path)
        try RawStore.populate(path: path, workload: workload, revisions: revisions)
        return path
    }

    @Test func theFixtureWritesWhatStateStoreWrites() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let workload = Workload(windowCount: 9)
        let fixture = try populated("fixture.db", workload)
        let store = try WindowStore(path: folder + "/saved.db")
        for index in 0..<workload.windowCount {
            let content = workload.contents[workload.initialContent(index)]
            try store.save(
                WindowState(
                    session: workload.session(index), window: workload.window(index), sizeClass: content.sizeClass,
                    path: content.path, item: content.item, itemPath: content.itemPath, policy: content.policy))
        }
        let rows = try Agreement.rows(ofStoreAt: fixture)
        #expect(rows.count == 2 * workload.windowCount)
        #expect(rows == (try Agreement.rows(ofStoreAt: store.path)))
        // The change log's triggers, taken off while the fixture is written, are back as they were.
        let schema = try Agreement.schema(ofStoreAt: fixture)
        #expect(schema.contains { $0.hasPrefix("trigger|windows_log_insert|") })
        #expect(schema == (try Agreement.schema(ofStoreAt: store.path)))
    }

    @Test func rawSavesCheckingThePathStoreTheSameAndRefuseAMovedFile() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let workload = Workload(windowCount: 6)
        let saves = workload.saves(count: 30, seed: 3)
        let raw = try RawStore(path: try populated("raw.db", workload, revisions: 98), workload: workload, saves: saves)
        let checking = try RawStore(
            path: try populated("checking.db", workload, revisions: 98), workload: workload, saves: saves)
        for index in saves.indices.dropLast() {
            try raw.save(index)
            try checking.saveCheckingPath(index)
        }
        let rows = try Agreement.rows(ofStoreAt: folder + "/checking.db")
        #expect(rows.count > 2 * workload.windowCount)
        #expect(rows == (try Agreement.rows(ofStoreAt: folder + "/raw.db")))
        // Moved away, the file is no longer the one the path names: the check refuses the save.
        try FileManager.default.moveItem(atPath: folder + "/checking.db", toPath: folder + "/moved.db")
        let refusal = #expect(throws: BenchmarkError.self) { try checking.saveCheckingPath(saves.count - 1) }
        #expect(refusal?.description.contains("SQLite code 1032:") == true, "SQLITE_READONLY_DBMOVED")
        try raw.save(saves.count - 1)
    }

    @Test func rawSavesStoreWhatStateStoreSaves() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Windows close to the history limit, so that saves drop old revisions too.
        let workload = Workload(windowCount: 6)
        let saves = workload.saves(count: 40, seed: 7)
        let library = try LibraryStore(
            path: try populated("library.db", workload, revisions: 98), workload: workload, saves: saves)
        let raw = try RawStore(path: try populated("raw.db", workload, revisions: 98), workload: workload, saves: saves)
        for index in saves.indices {
            try library.save(index)
            try raw.save(index)
        }
        let revisions = (0..<workload.windowCount).map { window in 98 + saves.count { $0.window == window } }
        #expect(revisions.contains { $0 > 100 }, "some saves drop a revision past the limit")
        let rows = try Agreement.rows(ofStoreAt: folder + "/library.db")
        #expect(rows.count == workload.windowCount + revisions.reduce(0) { $0 + min($1, 100) })
        #expect(rows == (try Agreement.rows(ofStoreAt: folder + "/raw.db")))
    }

    @Test func everyContenderRestoresAndListsTheSame() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let workload = Workload(windowCount: 40)
        let restores = workload.restores(count: 120, seed: 3)
        let path = try populated("store.db", workload)
        try FileStore.populate(root: folder + "/files", workload: workload)
        let library = try LibraryStore(path: path, workload: workload, restores: restores)
        let raw = try RawStore(path: path, workload: workload, restores: restores)
        let files = FileStore(root: folder + "/files", workload: workload, restores: restores)
        try Agreement.checkLayouts(library, raw, count: restores.count)
        try Agreement.checkLayouts(library, files, count: restores.count)
        let presentations = Set(try restores.indices.map { try library.layoutJSON($0).prefix(25) })
        #expect(presentations.count == 3, "the operations cover none, push and sheet: \(presentations)")

        let totals = try library.list()
        #expect(totals.rows == workload.windowCount && totals.depth == 3 * workload.windowCount)
        #expect(totals == (try raw.list()))
        try Agreement.checkTotals(totals, try files.list())
    }

    @Test func disagreementIsCaught() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var other = ListTotals()
        other.rows = 1
        #expect(throws: BenchmarkError.self) { try Agreement.checkTotals(ListTotals(), other) }
    }

    @Test func rawLaunchRestoresWhatStateStoreRestores() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let workload = Workload(windowCount: 12)
        let path = try populated("launch.db", workload, revisions: 3)
        let launches = (0..<3).flatMap { session in
            SizeClass.allCases.map { (session: workload.session(session * Workload.windowsPerSession), sizeClass: $0) }
        }
        let raw = RawLaunch(path: path, launches: launches)
        for (index, launch) in launches.enumerated() {
            let restorations = try WindowStore(path: path).restore(session: launch.session, into: launch.sizeClass)
            let theirs = try raw.launch(index)
            #expect(restorations.count == Workload.windowsPerSession)
            #expect(theirs.windows == restorations.count)
            #expect(theirs.revisions == restorations.reduce(0) { $0 + $1.saved.revision })
        }
        // A file that is not a store is refused, as WindowStore refuses it.
        let foreign = folder + "/foreign.db"
        #expect(FileManager.default.createFile(atPath: foreign, contents: Data()))
        #expect(throws: BenchmarkError.self) {
            try RawLaunch(path: foreign, launches: launches).launch(0)
        }
    }
}
