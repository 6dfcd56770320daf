import StateStore
import Testing

/// The library as an app sees it: this target depends on `StateStore` alone and imports nothing
/// else (no Foundation, no test helpers), so it sees only the public API and compiles as a host's
/// code would, closures without annotations included. The README's host examples are here.
struct HostStyleTests {
    /// A database of this test's own under `.build/host-style-tests` (an app would use its state
    /// folder). Without Foundation nothing here can delete files, so each test keeps one fixed
    /// file, reused run after run; the store makes the folder.
    static func databasePath(_ name: String, file: String = #filePath) -> String {
        let root = file.split(separator: "/Tests/HostStyleTests/", omittingEmptySubsequences: false).first ?? ""
        return root + "/.build/host-style-tests/" + name + ".db"
    }

    struct NoNetwork: Error, Equatable {}

    // MARK: The README's host example

    @Test func savingAndRestoringAWindowAsTheReadmeShows() throws {
        let store = try WindowStore.inMemory()

        // While the app runs: record what the window shows.
        try store.update(session: "main", window: "inbox") { state in
            state.sizeClass = .regular
            state.push(try Route(type: "MailApp.Folder", json: #""inbox""#))
            state.present(try Route(type: "MailApp.Thread", json: #"{"id":42}"#))
        }

        // On launch, perhaps in a narrow split view now: the thread comes back as a sheet.
        let restoration = try #require(try store.restore(session: "main", window: "inbox", into: .compact))
        let layout = restoration.layout
        #expect(layout.presentation == .sheet)
        #expect(layout.stack == [try Route(type: "MailApp.Folder", json: #""inbox""#)])
        #expect(layout.sheet?.first == (try Route(type: "MailApp.Thread", json: #"{"id":42}"#)))
    }

    // MARK: Errors

    @Test func aHostsOwnErrorFromUpdateReachesItUnchangedAndNothingIsWritten() throws {
        let store = try WindowStore.inMemory()
        func threadJSON() throws -> String { throw NoNetwork() }
        #expect(throws: NoNetwork()) {
            try store.update(session: "main", window: "inbox") { state in
                state.push(try Route(type: "MailApp.Folder", json: #""inbox""#))
                state.present(try Route(type: "MailApp.Thread", json: try threadJSON()))
            }
        }
        #expect(try store.window(session: "main", window: "inbox") == nil, "nothing written")
        do {
            try store.update(session: "main", window: "inbox") { state in
                state.present(try Route(type: "MailApp.Thread", json: try threadJSON()))
            }
            Issue.record("the update threw nothing")
        } catch let error as StateStoreError {
            Issue.record("the host's error came out as the store's: \(error)")
        } catch {
            #expect(error is NoNetwork)
        }
    }

    @Test func theErrorCasesAHostActsOn() throws {
        let store = try WindowStore.inMemory()
        let saved = try store.save(WindowState(session: "main", window: "inbox"))

        #expect(throws: StateStoreError.conflict(session: "main", window: "inbox", expected: 7, actual: 1)) {
            try store.save(WindowState(session: "main", window: "inbox"), expectedRevision: 7)
        }
        #expect(throws: StateStoreError.notFound(.window(session: "main", window: "other"))) {
            try store.revert(session: "main", window: "other", to: 1)
        }
        #expect(
            throws: StateStoreError.notFound(.revision(session: "main", window: "inbox", revision: 5, kept: 1...1))
        ) {
            try store.revert(session: "main", window: "inbox", to: 5)
        }
        #expect(throws: StateStoreError.notFound(.session("nope"))) { try store.export(sessions: ["nope"]) { _ in } }
        var existing = WindowStore.Options()
        existing.createIfMissing = false
        let nowhere = Self.databasePath("never-created")
        #expect(throws: StateStoreError.notFound(.file(path: nowhere))) {
            try WindowStore(path: nowhere, options: existing)
        }
        #expect {
            try store.update(session: "main", window: "inbox") { try $0.pop(1) }
        } throws: { error in
            guard case .invalidInput(let message) = error as? StateStoreError else { return false }
            return message.hasPrefix("cannot pop 1")
        }
        #expect(throws: StateStoreError.reentrantCall("window(session:window:)")) {
            try store.update(session: "main", window: "inbox") { _ in
                _ = try store.window(session: "main", window: "inbox")
            }
        }
        #expect(try store.window(session: "main", window: "inbox") == saved, "nothing of all that was written")
        // SQLite's codes have names; a host matches the primary one.
        #expect(SQLiteResultCode.ioErrShortRead.primary == .ioErr)
    }

    // MARK: The rule

    @Test func layoutAndRestoredIntoAreMethodsOfTheState() throws {
        let folder = try Route(type: "MailApp.Folder", json: #""inbox""#)
        let thread = try Route(type: "MailApp.Thread", json: #"{"id":42}"#)
        let state = WindowState(
            session: "main", window: "inbox", sizeClass: .regular, path: [folder], item: thread, policy: .dismiss)
        #expect(state.layout(for: .regular).stack == [folder, thread])
        #expect(state.layout(for: .compact).sheet == [thread])
        let restored = state.restored(into: .compact)
        #expect(restored.saved == state)
        #expect(restored.restored.item == nil, "dismiss: the item goes with the change of mode")
        #expect(restored.layout == restored.restored.layout(for: .compact))
        #expect(restored.layout.presentation == .none && restored.layout.stack == [folder])
    }

    @Test func setStackIsTheWriteSwiftUIMakes() throws {
        let folder = try Route(type: "MailApp.Folder", json: #""inbox""#)
        let thread = try Route(type: "MailApp.Thread", json: #"{"id":42}"#)
        let attachment = try Route(type: "MailApp.Attachment", json: #""a.pdf""#)
        var state = WindowState(session: "main", window: "inbox", sizeClass: .regular, path: [folder], item: thread)
        // A NavigationStack hands back the whole new path: one more pushed above the item.
        state.setStack([folder, thread, attachment], shownFor: .regular)
        #expect(state.itemPath == [attachment])
        #expect(state.layout(for: .regular).stack == [folder, thread, attachment])
        // The sheet's stack in a compact window: back to its root.
        state.setSheetStack([thread], shownFor: .compact)
        #expect(state.item == thread && state.itemPath.isEmpty)
    }

    // MARK: Changes

    /// A feed made and written to at once: the stream's feed exists when `changes` returns.
    @Test(.timeLimit(.minutes(1))) func aWriteRightAfterChangesIsSeen() async throws {
        let store = try WindowStore(path: Self.databasePath("changes"))
        let session = "run-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let changes = try store.changes(session: session)
        try store.save(WindowState(session: session, window: "inbox", sizeClass: .compact))
        var seen: WindowChange?
        for try await event in changes {
            seen = event.change
            break
        }
        #expect(seen?.window == "inbox")
        #expect(seen?.state?.restored(into: .regular).layout.presentation == Presentation.none)
        try store.deleteSession(session)
    }
}
