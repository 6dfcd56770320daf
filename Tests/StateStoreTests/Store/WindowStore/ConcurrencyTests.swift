import Foundation
import StateStore
import StateStoreSQLite
import Testing

struct ConcurrencyTests {
    /// Reads the counter a window carries as its item, adds one, writes it back.
    static func increment(_ store: WindowStore) throws {
        try store.update(session: "counter", window: "w") { state in
            let value = Int(state.item?.json ?? "0") ?? 0
            state.present(try Route(type: "Count", json: String(value + 1)))
        }
    }

    @Test func twoInstancesOnOneFileLoseNoWrite() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("shared.db")
        let stores = try [WindowStore(path: path), WindowStore(path: path)]
        let perTask = 150
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                let store = stores[index % 2]
                group.addTask {
                    for _ in 0..<perTask { try Self.increment(store) }
                }
            }
            try await group.waitForAll()
        }
        let final = try #require(try stores[0].window(session: "counter", window: "w"))
        #expect(final.item?.json == String(4 * perTask))
        #expect(final.revision == 4 * perTask)
    }

    @Test func expectedRevisionsWithRetryLoseNoWrite() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("optimistic.db")
        let stores = try [WindowStore(path: path), WindowStore(path: path)]
        let perTask = 60
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<2 {
                let store = stores[index]
                group.addTask {
                    var conflicts = 0
                    var done = 0
                    while done < perTask {
                        let current = try store.window(session: "counter", window: "w")
                        let value = Int(current?.item?.json ?? "0") ?? 0
                        var next = current ?? WindowState(session: "counter", window: "w")
                        next.present(try Route(type: "Count", json: String(value + 1)))
                        do {
                            try store.save(next, expectedRevision: current?.revision ?? 0)
                            done += 1
                        } catch StateStoreError.conflict {
                            conflicts += 1
                        }
                    }
                    return conflicts
                }
            }
            for try await _ in group {}
        }
        #expect(try stores[0].window(session: "counter", window: "w")?.item?.json == String(2 * perTask))
    }

    @Test func aLockHeldPastTheTimeoutIsBusyAndWritesNothing() throws {
        let folder = TemporaryFolder()
        let path = folder.file("busy.db")
        var options = WindowStore.Options()
        options.busyTimeoutMilliseconds = 200
        let store = try WindowStore(path: path, options: options)
        try store.save(WindowState(session: "s", window: "w"))

        // Another connection, as another process would, takes the write lock and keeps it.
        var other: OpaquePointer?
        #expect(sqlite3_open(path, &other) == SQLITE_OK)
        defer { sqlite3_close(other) }
        #expect(sqlite3_exec(other, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)

        let started = ContinuousClock.now
        #expect {
            try store.save(WindowState(session: "s", window: "w"))
        } throws: { if case .busy? = $0 as? StateStoreError { true } else { false } }
        #expect(ContinuousClock.now - started < .seconds(3), "fails promptly after the timeout")
        // Readers are not blocked by a writer in WAL mode.
        #expect(try store.window(session: "s", window: "w")?.revision == 1)

        #expect(sqlite3_exec(other, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
        #expect(try store.save(WindowState(session: "s", window: "w")).revision == 2)
    }

    @Test func openingAndReadingAnUpToDateStoreTakesNoWriteLock() throws {
        let folder = TemporaryFolder()
        let path = folder.file("readers.db")
        try WindowStore(path: path).save(WindowState(session: "s", window: "w"))

        var writer: OpaquePointer?
        #expect(sqlite3_open(path, &writer) == SQLITE_OK)
        defer { sqlite3_close(writer) }
        #expect(sqlite3_exec(writer, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
        defer { sqlite3_exec(writer, "ROLLBACK", nil, nil, nil) }

        var options = WindowStore.Options()
        options.busyTimeoutMilliseconds = 50
        let reader = try WindowStore(path: path, options: options)
        #expect(try reader.window(session: "s", window: "w")?.revision == 1)
        #expect(try reader.windowSummaries().count == 1)
    }
}
