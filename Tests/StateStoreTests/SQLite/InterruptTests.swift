import StateStore
import Testing

/// `interrupt()` (package API for hosts whose background time runs out): a write transaction it
/// reaches rolls back instead of committing, even between two statements, and the store goes on.
struct InterruptTests {
    @Test func anInterruptedWriteCommitsNothingAndTheNextOneDoes() throws {
        let folder = TemporaryFolder()
        let store = try WindowStore(path: folder.file("state.db"))
        try store.save(WindowState(session: "s", window: "w", path: [route("A")]))
        do {
            try store.update(session: "s", window: "w") { state in
                state.push(route("B"))
                store.interrupt()  // between the read and the write: no statement runs now
            }
            Issue.record("an interrupted write returned")
        } catch let error as StateStoreError {
            guard case .busy(let failure) = error else {
                Issue.record("an interrupted write is busy (try again), not \(error)")
                return
            }
            #expect(failure.code == .interrupt)
        }
        #expect(try store.window(session: "s", window: "w")?.path == [route("A")], "nothing written")
        #expect(try store.window(session: "s", window: "w")?.revision == 1)

        try store.update(session: "s", window: "w") { $0.push(route("B")) }
        #expect(try store.window(session: "s", window: "w")?.revision == 2, "the interrupt was used up")
    }

    @Test func anInterruptBeforeTheWorkIsForgottenWhenCleared() throws {
        let folder = TemporaryFolder()
        let store = try WindowStore(path: folder.file("state.db"))
        store.interrupt()
        store.clearInterrupt()
        try store.save(WindowState(session: "s", window: "w"))
        #expect(try store.window(session: "s", window: "w")?.revision == 1)
    }
}
