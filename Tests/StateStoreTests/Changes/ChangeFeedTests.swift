import StateStore
import Testing

struct ChangeFeedTests {
    /// The changes of `events`, which must hold nothing else (no gap, no unreadable row).
    func changesOnly(_ events: [ChangeEvent]) throws -> [WindowChange] {
        try events.map { event in try #require(event.change, "only changes: \(event)") }
    }

    /// One feed shared by tasks on other threads: polls take turns, and each change is reported
    /// once, to one of them.
    @Test func aFeedPolledFromManyTasksReportsEachChangeOnce() async throws {
        let folder = TemporaryFolder()
        let store = try WindowStore(path: folder.file("feed.db"))
        let feed = try store.changeFeed()
        let count = 200
        let pollers = 4
        let seen = try await withThrowingTaskGroup(of: [Int64].self) { group in
            group.addTask {
                for n in 0..<count { try store.save(WindowState(session: "s", window: "w\(n)")) }
                return []
            }
            for _ in 0..<pollers {
                group.addTask {
                    var sequences: [Int64] = []
                    while feed.position < Int64(count) {
                        sequences += try feed.poll().compactMap { $0.change?.sequence }
                        await Task.yield()
                    }
                    return sequences
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(seen.sorted() == (1...Int64(count)).map { $0 })
    }

    @Test func seesWritesAndDeletionsOfAnotherConnectionInOrder() throws {
        let folder = TemporaryFolder()
        let path = folder.file("feed.db")
        let host = try WindowStore(path: path)
        try host.save(WindowState(session: "s", window: "before"))
        let feed = try host.changeFeed()
        #expect(try feed.poll().isEmpty, "starts after what is already there")

        let other = try WindowStore(path: path)  // as another process would
        try other.save(WindowState(session: "s", window: "w", sizeClass: .regular))
        try other.update(session: "s", window: "w") { $0.push(route("A")) }
        try other.save(WindowState(session: "t", window: "x"))
        let written = try changesOnly(feed.poll())
        // Read before the delete: once a window is deleted, its states leave the log
        // (`ChangeLogTests.aDeletedWindowsStatesLeaveTheLog`).
        #expect(try other.deleteSession("s") == ["before", "w"])
        let changes = try written + changesOnly(feed.poll())

        #expect(
            changes.map { "\($0.session)/\($0.window)@\($0.revision.map(String.init) ?? "deleted")" } == [
                "s/w@1", "s/w@2", "t/x@1", "s/before@deleted", "s/w@deleted",
            ])
        #expect(changes[1].state?.path == [route("A")])
        #expect(changes[3].state == nil)
        #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
        #expect(try feed.poll().isEmpty)
    }

    @Test func filtersBySessionAndSeesItsOwnStore() throws {
        let folder = TemporaryFolder()
        let store = try WindowStore(path: folder.file("feed.db"))
        let feed = try store.changeFeed(session: "mine")
        try store.save(WindowState(session: "other", window: "w"))
        try store.save(WindowState(session: "mine", window: "w"))
        let changes = try changesOnly(feed.wait(timeout: .seconds(5)))
        #expect(changes.map(\.session) == ["mine"])
        try store.save(WindowState(session: "other", window: "w"))
        #expect(try feed.wait(timeout: .milliseconds(120)).isEmpty, "other sessions' changes are not reported")
    }

    /// The stream's feed is made by the call, not later in its task: a write made right after the
    /// call is the first thing it carries.
    @Test(.timeLimit(.minutes(1))) func aWriteRightAfterMakingTheStreamIsInIt() async throws {
        let folder = TemporaryFolder()
        let store = try WindowStore(path: folder.file("stream.db"))
        let stream = try store.changes(session: "s")
        try store.save(WindowState(session: "s", window: "first"))
        let later = Task {
            // Were the write above missed, these would come first, and the test fail, not hang.
            for n in 0..<100 where !Task.isCancelled {
                try store.save(WindowState(session: "s", window: "later\(n)"))
                await Task.yield()
            }
        }
        defer { later.cancel() }
        var first: WindowChange?
        for try await event in stream {
            first = event.change
            break
        }
        #expect(first?.window == "first")
    }

    @Test func asyncStreamDeliversChanges() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("stream.db")
        let store = try WindowStore(path: path)
        let writer = try WindowStore(path: path)
        // Another session's writes between this one's are not in the stream.
        let writing = Task {
            for n in 0..<250 {
                try writer.save(WindowState(session: "t", window: "ignored"))
                try writer.save(WindowState(session: "s", window: "w\(n)"))
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        defer { writing.cancel() }
        var received: [WindowChange] = []
        for try await event in try store.changes(session: "s") {
            received.append(try #require(event.change, "\(event)"))
            if received.count == 3 { break }
        }
        #expect(received.allSatisfy { $0.session == "s" && $0.revision == 1 })
        #expect(zip(received, received.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
    }

    @Test func aFeedResumesFromAPosition() throws {
        let folder = TemporaryFolder()
        let store = try WindowStore(path: folder.file("resume.db"))
        try store.save(WindowState(session: "s", window: "a"))
        let first = try store.changeFeed(after: 0)
        #expect(try changesOnly(first.poll()).map(\.window) == ["a"], "0: from the first change")
        let reached = first.position
        try store.save(WindowState(session: "s", window: "b"))
        try store.save(WindowState(session: "s", window: "c"))
        let resumed = try store.changeFeed(after: reached)
        #expect(try changesOnly(resumed.poll()).map(\.window) == ["b", "c"])
        #expect(try changesOnly(first.poll()).map(\.window) == ["b", "c"])
    }

    @Test func inMemoryStoresHaveNoFeed() throws {
        #expect(throws: StateStoreError.self) { try WindowStore.inMemory().changeFeed() }
    }
}
