import StateStore
import StateStoreHost
import Testing

/// Every verb and property setter against the rule and its inverse (`layout(for:)`, `setStack`,
/// `setSheetStack`), through each size class, with and without an item, under both policies,
/// through the live model: what it shows afterwards is what the engine's pure functions give, and
/// both laws hold (writing back what is shown records nothing; after a write the property reads
/// what was written).
@MainActor
struct BindingTableTests {
    struct Start: CustomTestStringConvertible, Sendable {
        var sizeClass: SizeClass
        var policy: SizeChangePolicy
        var path: [Mail]
        var item: Mail?
        var itemPath: [Mail]

        var testDescription: String {
            "\(sizeClass) \(policy) path:\(path.count) item:\(item == nil ? "-" : "yes") itemPath:\(itemPath.count)"
        }

        var state: WindowState {
            WindowState(
                session: "app", window: "w", sizeClass: sizeClass, path: path.map(stored), item: item.map(stored),
                itemPath: itemPath.map(stored), policy: policy)
        }
    }

    nonisolated static let starts: [Start] = SizeClass.allCases.flatMap { sizeClass in
        SizeChangePolicy.allCases.flatMap { policy in
            [
                Start(sizeClass: sizeClass, policy: policy, path: [], item: nil, itemPath: []),
                Start(sizeClass: sizeClass, policy: policy, path: [.folder("inbox")], item: nil, itemPath: []),
                Start(sizeClass: sizeClass, policy: policy, path: [.folder("inbox")], item: .thread(1), itemPath: []),
                Start(
                    sizeClass: sizeClass, policy: policy, path: [.folder("inbox"), .thread(2)],
                    item: .compose(draft: 3),
                    itemPath: [.attachment("a.pdf")]),
            ]
        }
    }

    /// A model restored in `start`, laid out for its saved class, and the session it lives in.
    func model(_ start: Start, _ fixture: HostFixture) async throws -> (WindowSession, WindowModel<Mail>) {
        try fixture.store().save(start.state)
        // The tables run their 96 cases at once and observe no other writer: their feeds poll,
        // rather than take 96 of the user's 128 inotify instances from the tests that need one.
        var options = fixture.options()
        options.store.forcePolling = true
        let session = try await fixture.open(options: options)
        let model = session.window("w", as: Mail.self)
        #expect(model.sizeClass == start.sizeClass)
        #expect(model.revision == 1)
        model.presentationReady()  // as the view does once its stack has appeared
        return (session, model)
    }

    func typed(_ routes: [Route]) -> [Mail] { routes.map { try! Mail(route: $0) } }

    /// The host's rule on top of the engine's verbs: a policy belongs to its presentation, so a
    /// change of the presented item (a presentation or a dismissal) sets `given`, or the default.
    func ownPolicy(_ expected: inout WindowState, after before: WindowState, given: SizeChangePolicy? = nil) {
        if expected.item != before.item {
            expected.policy = (expected.item == nil ? nil : given) ?? .migrate
        }
    }

    /// Checks the model shows what the engine gives for `expected`, in the model's class.
    func expectShows(
        _ model: WindowModel<Mail>, _ expected: WindowState, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let layout = expected.layout(for: model.sizeClass)
        #expect(model.stack == typed(layout.stack), sourceLocation: sourceLocation)
        #expect(model.layout.presentation == layout.presentation, sourceLocation: sourceLocation)
        #expect(
            model.sheet?.route == layout.sheet.flatMap { $0.first }.map { try! Mail(route: $0) },
            sourceLocation: sourceLocation)
        #expect(model.sheetPath == typed(Array(layout.sheet?.dropFirst() ?? [])), sourceLocation: sourceLocation)
        #expect(model.path == typed(expected.path), sourceLocation: sourceLocation)
        #expect(model.item == expected.item.map { try! Mail(route: $0) }, sourceLocation: sourceLocation)
        #expect(model.itemPath == typed(expected.itemPath), sourceLocation: sourceLocation)
        #expect(model.policy == expected.policy, sourceLocation: sourceLocation)
    }

    @Test("writing back what is shown records nothing", arguments: starts)
    func writingBackChangesNothing(_ start: Start) async throws {
        let fixture = HostFixture()
        let (session, model) = try await model(start, fixture)
        model.stack = model.stack
        model.sheetPath = model.sheetPath
        model.sheet = model.sheet
        #expect(await session.flush())
        #expect(model.revision == 1, "nothing was written")
        expectShows(model, start.state)
    }

    @Test("the verbs do what the engine's verbs do", arguments: starts)
    func verbs(_ start: Start) async throws {
        let fixture = HostFixture()
        let (session, model) = try await model(start, fixture)
        var expected = start.state

        model.push(.message(9))
        expected.push(stored(.message(9)))
        expectShows(model, expected)

        let before = expected
        model.pop(1)
        try expected.pop(1)
        ownPolicy(&expected, after: before)
        expectShows(model, expected)

        model.present(.compose(draft: 5), policy: .dismiss)
        expected.present(stored(.compose(draft: 5)))
        expected.policy = .dismiss
        expectShows(model, expected)
        #expect(model.policy == .dismiss, "the policy given governs this presentation")

        model.push(.attachment("b.png"))
        expected.push(stored(.attachment("b.png")))
        model.navigate(to: [.folder("sent")], presenting: model.item, itemPath: model.itemPath)
        expected.path = [stored(.folder("sent"))]
        expectShows(model, expected)

        model.dismiss()
        expected.dismiss()
        expected.policy = .migrate
        expectShows(model, expected)
        #expect(model.policy == .migrate, "a dismissal leaves the default for the next presentation")

        let path = model.path
        model.pop(path.count + 1)
        #expect(model.path == path, "popping more than there is changes nothing")
        guard case .invalidEdit? = model.lastError else {
            Issue.record("an over-pop is named in lastError, not \(String(describing: model.lastError))")
            return
        }

        #expect(await session.flush())
        let saved = try #require(try fixture.store().window(session: "app", window: "w"))
        #expect(saved.path == expected.path)
        #expect(saved.item == expected.item)
        #expect(saved.itemPath == expected.itemPath)
        #expect(saved.policy == expected.policy)
    }

    @Test("after a stack write the stack reads what was written", arguments: starts)
    func stackWrites(_ start: Start) async throws {
        let fixture = HostFixture()
        let (session, model) = try await model(start, fixture)
        let shown = model.stack
        var writes: [[Mail]] = [shown + [.message(1)], [], [.folder("archive")]]
        for length in 0..<shown.count { writes.append(Array(shown.prefix(length))) }
        if !shown.isEmpty { writes.append(shown.dropLast() + [.message(2)]) }
        var expected = start.state
        for write in writes {
            model.stack = write
            let before = expected
            expected.setStack(write.map(stored), shownFor: model.sizeClass)
            ownPolicy(&expected, after: before)
            #expect(model.stack == write)
            expectShows(model, expected)
        }
        #expect(await session.flush())
        let saved = try #require(try fixture.store().window(session: "app", window: "w"))
        #expect(saved.layout(for: model.sizeClass).stack == expected.layout(for: model.sizeClass).stack)
    }

    @Test("after a sheet write the sheet reads what was written", arguments: starts)
    func sheetWrites(_ start: Start) async throws {
        let fixture = HostFixture()
        let (_, model) = try await model(start, fixture)
        var expected = start.state
        guard model.sizeClass != .regular else {
            // A regular window shows no sheet: a write through it changes nothing.
            model.sheetPath = [.message(1)]
            model.sheet = nil
            expectShows(model, expected)
            #expect(model.sheet == nil)
            return
        }
        guard model.sheet != nil else {
            model.sheetPath = [.message(1)]
            expectShows(model, expected)
            return
        }
        for write in [model.sheetPath + [.message(1)], [], [.attachment("c")]] {
            model.sheetPath = write
            let root = try #require(expected.item)
            let before = expected
            expected.setSheetStack([root] + write.map(stored), shownFor: model.sizeClass)
            ownPolicy(&expected, after: before)
            #expect(model.sheetPath == write)
            expectShows(model, expected)
        }
        model.sheet = nil  // the user swiped the sheet down
        let before = expected
        expected.setSheetStack([], shownFor: model.sizeClass)
        ownPolicy(&expected, after: before)
        expectShows(model, expected)
        #expect(model.item == nil)
    }
}
