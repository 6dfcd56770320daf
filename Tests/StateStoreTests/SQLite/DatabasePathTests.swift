import StateStore
import Testing

/// SQLite's `:memory:`, the one path that names no file: every "is there a file?" question answers
/// no for it alone, and each store opened at it is a database of its own.
struct DatabasePathTests {
    @Test func onlyInMemoryNamesNoFile() {
        #expect(!DatabasePath.isFile(DatabasePath.inMemory))
        for path in ["state.db", "/var/db/state.db", "./:memory:", ":memory: ", " :memory:", "file::memory:"] {
            #expect(DatabasePath.isFile(path), "\(path)")
        }
    }

    @Test func twoStoresInMemoryShareNothing() throws {
        let first = try WindowStore(path: DatabasePath.inMemory)
        let second = try WindowStore.inMemory()
        try first.save(WindowState(session: "s", window: "w"))
        #expect(try first.window(session: "s", window: "w")?.revision == 1)
        #expect(try second.window(session: "s", window: "w") == nil)
        #expect(first.path == DatabasePath.inMemory && second.path == DatabasePath.inMemory)
    }
}
