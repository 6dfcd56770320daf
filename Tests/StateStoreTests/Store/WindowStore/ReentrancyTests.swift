import Foundation
import StateStore
import Testing

/// A store called from inside a closure it is running, on the same thread, would wait for
/// itself: it says so instead. Other threads wait their turn as always.
struct ReentrancyTests {
    @Test func aCallFromInsideUpdateIsRefusedAndNothingIsWritten() throws {
        let store = try WindowStore.inMemory()
        try store.save(WindowState(session: "s", window: "w"))
        #expect(throws: StateStoreError.reentrantCall("window(session:window:)")) {
            try store.update(session: "s", window: "w") { state in
                state.push(route("A"))
                _ = try store.window(session: "s", window: "other")
            }
        }
        #expect(try store.window(session: "s", window: "w")?.revision == 1, "nothing written")
        #expect(try store.update(session: "s", window: "w") { $0.push(route("B")) }.revision == 2, "the store goes on")
    }

    @Test func aCallFromInsideForEachWindowIsRefused() throws {
        let store = try WindowStore.inMemory()
        try store.save(WindowState(session: "s", window: "w"))
        #expect(throws: StateStoreError.reentrantCall("update(session:window:expectedRevision:_:)")) {
            try store.forEachWindow { summary in
                try store.update(session: summary.session, window: summary.window) { $0.push(route("A")) }
            }
        }
        #expect(try store.window(session: "s", window: "w")?.revision == 1)
    }

    @Test func aCallFromInsideExportIsRefused() throws {
        let store = try WindowStore.inMemory()
        try store.save(WindowState(session: "s", window: "w"))
        #expect(throws: StateStoreError.reentrantCall("windows(session:)")) {
            try store.export { _ in _ = try store.windows(session: "s") }
        }
        #expect {
            try store.export { _ in _ = try store.check() }
        } throws: { error in
            guard case .reentrantCall(let call) = error as? StateStoreError else { return false }
            return call == "check()" && String(describing: error).contains("after the closure returns")
        }
    }

    /// Another thread's call made while a body runs waits for the body, and then succeeds.
    @Test func anotherThreadWaitsItsTurn() throws {
        let store = try WindowStore.inMemory()
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        try store.update(session: "s", window: "w") { state in
            Thread {
                started.signal()
                outcome.result = Result { () throws(StateStoreError) in
                    try store.window(session: "s", window: "w")?.revision
                }
                finished.signal()
            }.start()
            started.wait()
            state.push(route("A"))
        }
        finished.wait()
        let revision = try #require(try outcome.result?.get())
        #expect(revision == 1, "the other thread read what the update wrote")
    }

    /// Set by one thread and read by another after a semaphore says it is done.
    final class Outcome: @unchecked Sendable {
        var result: Result<Int?, StateStoreError>?
    }
}
