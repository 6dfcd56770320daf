import Foundation
import Observation
import StateStore
import StateStoreHost
import Testing

/// Defects found by reading the host against how apps use it, each reproduced here first: a tab's
/// sheet that never showed, ids Swift takes for one, a deletion older than a state shown, a settle
/// too long for a clock, a path that is no file, a tab key the store refuses.
@MainActor
struct HostDefectTests {
    // MARK: A tab's sheet

    /// One change that moves a compact tab's stack and presents its item holds the sheet until the
    /// stack has appeared — and the window's views, which call ``WindowModel/presentationReady()``
    /// for the window, let its tabs' sheets show too.
    @Test func aTabsSheetShowsAfterADeepLink() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("browse", as: Mail.self)
        window.environmentChanged(sizeClass: .compact, isActive: true)
        let tab = window.tab("inbox")
        tab.navigate(to: [.folder("inbox")], presenting: .compose(draft: 1))
        #expect(tab.sheet == nil, "held until the stack has appeared")
        window.presentationReady()
        #expect(tab.sheet?.route == .compose(draft: 1))
    }

    @Test func aTabsSheetShowsAfterACompactRestore() async throws {
        let fixture = HostFixture()
        try fixture.store().save(
            WindowState(
                session: "app", window: "browse/inbox", sizeClass: .compact, path: [stored(.folder("inbox"))],
                item: stored(.compose(draft: 2))))
        let session = try await fixture.open()
        let window = session.window("browse", as: Mail.self)
        window.environmentChanged(sizeClass: .compact, isActive: true)
        let tab = window.tab("inbox")
        #expect(tab.path == [.folder("inbox")])
        window.presentationReady()
        #expect(tab.sheet?.route == .compose(draft: 2))
    }

    @Test func aTabsSheetShowsAfterAnOutsideWrite() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("browse", as: Mail.self)
        window.environmentChanged(sizeClass: .compact, isActive: true)
        let tab = window.tab("inbox")
        let set = try fixture.statectl([
            "set", "app", "browse/inbox", "--push", stored(.folder("sent")).description, "--present",
            stored(.compose(draft: 3)).description,
        ])
        #expect(set.status == 0, "\(set.stderr)")
        await waitUntil("the outside write") { tab.item == .compose(draft: 3) }
        window.presentationReady()
        #expect(tab.sheet?.route == .compose(draft: 3))
    }

    @Test func aPreviewShowsItsCompactSheetWithoutACall() {
        let model = WindowModel<Mail>(previewing: [.folder("inbox")], item: .compose(draft: 1), sizeClass: .compact)
        #expect(model.sheet?.route == .compose(draft: 1))
        #expect(model.stack == [.folder("inbox")])
    }

    // MARK: Ids are bytes

    @Test func windowsThatDifferOnlyInUnicodeFormStayTwoWindows() async throws {
        let fixture = HostFixture()
        let (composed, decomposed) = ("w\u{E9}", "we\u{301}")
        try fixture.store().save(WindowState(session: "app", window: composed, path: [stored(.folder("composed"))]))
        try fixture.store().save(
            WindowState(session: "app", window: decomposed, path: [stored(.folder("decomposed"))]))
        let session = try await fixture.open()
        let other = session.window(decomposed, as: Mail.self)  // the first asked for takes its own state
        let one = session.window(composed, as: Mail.self)
        #expect(one !== other)
        #expect(one.path == [.folder("composed")])
        #expect(other.path == [.folder("decomposed")], "not the composed window's state")
        other.push(.thread(1))
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: composed)?.path == [stored(.folder("composed"))])
        #expect(
            try fixture.store().window(session: "app", window: decomposed)?.path == [
                stored(.folder("decomposed")), stored(.thread(1)),
            ])
        #expect(session.focusedWindow.map { Array($0.utf8) } == Array(decomposed.utf8))
    }

    @Test func tabsThatDifferOnlyInUnicodeFormAreTwoSelections() async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("w", as: Mail.self)
        window[selectedTab: String.self, default: "x"] = "caf\u{E9}"
        window[selectedTab: String.self, default: "x"] = "cafe\u{301}"
        #expect(window.selectedTab.map { Array($0.utf8) } == Array("cafe\u{301}".utf8), "selected, not taken as equal")
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "w")?.revision == 2)
    }

    // MARK: Never a state older than one shown

    /// A window read while the feed still has older changes of it queued (here a deletion and a
    /// write made again at revision 1) shows what it read, and stays there.
    @Test func aModelMadeWhileTheFeedHasOlderChangesQueuedNeverShowsThem() async throws {
        let fixture = HostFixture()
        let store = try fixture.store()
        // Windows of more than the open reads ahead, so that "main" is read when its model is made.
        let large = try Route(type: "Large", json: "\"" + String(repeating: "x", count: 60_000) + "\"")
        for index in 0..<10 { try store.save(WindowState(session: "app", window: "a-\(index)", path: [large])) }
        try store.save(WindowState(session: "app", window: "main", path: [stored(.folder("old"))]))
        let session = try await fixture.open()
        // Another process deletes it and writes it again, while no window is active: queued.
        #expect(try fixture.statectl(["delete", "app", "main"]).status == 0)
        let again = try fixture.statectl(["set", "app", "main", "--push", stored(.folder("new")).description])
        #expect(again.status == 0, "\(again.stderr)")

        let model = session.window("main", as: Mail.self)
        await waitUntil("read") { !model.isRestoring }
        #expect(model.path == [.folder("new")])
        let shown = PathRecorder(model)
        let other = session.window("other", as: Mail.self)
        other.environmentChanged(sizeClass: .regular, isActive: true)  // the feed delivers what it has
        // A marker written after: once it shows, every change before it was delivered.
        #expect(try fixture.statectl(["set", "app", "other", "--policy", "dismiss"]).status == 0)
        await waitUntil("the marker") { other.policy == .dismiss }
        #expect(model.path == [.folder("new")])
        #expect(shown.paths.allSatisfy { $0 == [.folder("new")] }, "nothing older shown meanwhile: \(shown.paths)")
        #expect(model.revision == 1)
    }

    // MARK: Settings at the ends of their range

    @Test func aSettleOfTheLargestDurationDoesNotTrap() async throws {
        let fixture = HostFixture()
        var options = WindowSession.Options()  // the real clock, whose instants cannot reach it
        options.settle = .seconds(Int64.max)
        options.pruneAfter = .seconds(Int64.max)
        let session = try await WindowSession.open(path: fixture.database, session: "app", options: options)
        let model = session.window("main", as: Mail.self)
        model.environmentChanged(sizeClass: .regular, isActive: true)
        model.environmentChanged(sizeClass: .compact, isActive: true)  // waits for the settle
        model.push(.folder("inbox"))  // and the focus record
        #expect(await session.flush(timeout: .seconds(Int64.max)))
        model.environmentChanged(sizeClass: .compact, isActive: false)  // the prune, once
        await session.launchPrune?.value
        #expect(try fixture.store().window(session: "app", window: "main")?.path.count == 1)
    }

    // MARK: What the store refuses is said

    @Test func aMemoryPathRunsInMemoryAndSaysSo() async throws {
        let session = WindowSession(path: ":memory:", session: "app")
        guard case .inMemory = session.recovery else {
            Issue.record("':memory:' is no file: \(session.recovery)")
            return
        }
        #expect(session.storageIssue?.kind == .runningInMemory)
        #expect(await session.flush() == false, "nothing is durable")
        await #expect(throws: StateStoreError.self) {
            _ = try await WindowSession.open(path: ":memory:", session: "app")
        }
    }

    @Test(arguments: ["", "a\u{0}b", String(repeating: "x", count: 257)])
    func aTabTheStoreRefusesIsNotSelected(_ key: String) async throws {
        let fixture = HostFixture()
        let session = try await fixture.open()
        let window = session.window("w", as: Mail.self)
        window[selectedTab: String.self, default: "x"] = "inbox"
        window[selectedTab: String.self, default: "x"] = key
        #expect(window.selectedTab == "inbox", "the refused key is not selected")
        guard case .invalidEdit? = window.lastError else {
            Issue.record("the refusal is said: \(String(describing: window.lastError))")
            return
        }
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "w")?.selectedTab == "inbox")
    }
}

/// Every path a model shows from now on, as observation reports them.
@MainActor
final class PathRecorder {
    private(set) var paths: [[Mail]] = []
    private let model: WindowModel<Mail>

    init(_ model: WindowModel<Mail>) {
        self.model = model
        watch()
    }

    private func watch() {
        withObservationTracking {
            _ = model.path
        } onChange: { [weak self] in
            Task { @MainActor in
                guard let self else { return }
                self.paths.append(self.model.path)
                self.watch()
            }
        }
    }
}
