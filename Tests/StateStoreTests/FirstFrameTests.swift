import Foundation
import StateStore
import Testing

/// `restoredWindow(session:window:quickly:)`, a host's first frame: it waits for this process's
/// writer at most as long as it would for another process's lock, then says busy.
struct FirstFrameTests {
    /// Holds the store from another thread (inside a write) until `release` is signalled.
    private func holding(_ store: WindowStore, started: DispatchSemaphore, release: DispatchSemaphore) -> Thread {
        let thread = Thread {
            _ = try? store.update(session: "s", window: "held") { _ in
                started.signal()
                release.wait()
            }
        }
        thread.start()
        return thread
    }

    @Test func aWriterThatFinishesSoonIsWaitedFor() throws {
        let folder = TemporaryFolder()
        let store = try WindowStore(path: folder.file("state.db"))
        try store.save(WindowState(session: "s", window: "w", path: [route("A")]))
        try store.setSelectedTab("inbox", session: "s", window: "w")
        let (started, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        _ = holding(store, started: started, release: release)
        started.wait()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) { release.signal() }
        let restored = try store.restoredWindow(session: "s", window: "w", quickly: 2_000)
        #expect(restored.state?.path == [route("A")])
        #expect(restored.selectedTab == "inbox")
    }

    @Test func aWriterThatKeepsTheStoreIsBusy() throws {
        let folder = TemporaryFolder()
        let store = try WindowStore(path: folder.file("state.db"))
        let (started, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        _ = holding(store, started: started, release: release)
        started.wait()
        defer { release.signal() }
        #expect(throws: StateStoreError.self) { try store.restoredWindow(session: "s", window: "w", quickly: 20) }
        do {
            _ = try store.restoredWindow(session: "s", window: "w", quickly: 20)
        } catch .busy(let failure) {
            #expect(failure.message.contains("in use by another thread"))
        } catch {
            Issue.record("busy, not \(error)")
        }
    }

    @Test func aCallFromInsideTheStoresOwnClosureIsBusyNotADeadlock() throws {
        let folder = TemporaryFolder()
        let store = try WindowStore(path: folder.file("state.db"))
        var inner: Result<WindowStore.RestoredWindow, StateStoreError>?
        try store.update(session: "s", window: "w") { _ in
            inner = Result { () throws(StateStoreError) in
                try store.restoredWindow(session: "s", window: "w", quickly: 5)
            }
        }
        guard case .failure(.busy)? = inner else {
            Issue.record("busy, not \(String(describing: inner))")
            return
        }
    }
}
