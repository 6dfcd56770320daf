import StateStore
import Testing

/// The rule as a table (a size-class change under the window's policy, then the layout for the
/// new class): every size class before × after × item absent/present × itemPath
/// empty/non-empty × policy.
struct RuleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var before: SizeClass
        var after: SizeClass
        var hasItem: Bool
        var hasItemPath: Bool
        var policy: SizeChangePolicy

        var testDescription: String {
            "\(before)→\(after) item:\(hasItem) itemPath:\(hasItemPath) \(policy)"
        }
    }

    static let cases: [Case] = SizeClass.allCases.flatMap { before in
        SizeClass.allCases.flatMap { after in
            [false, true].flatMap { hasItem in
                // itemPath is always empty without an item.
                (hasItem ? [false, true] : [false]).flatMap { hasItemPath in
                    SizeChangePolicy.allCases.map {
                        Case(before: before, after: after, hasItem: hasItem, hasItemPath: hasItemPath, policy: $0)
                    }
                }
            }
        }
    }

    static let path = [route("Mail.Folder", #""inbox""#), route("Mail.Thread", #"{"id":42}"#)]
    static let item = route("Mail.Compose", #"{"draft":7}"#)
    static let itemPath = [route("Mail.Attachment", #"{"name":"a.pdf"}"#)]

    @Test("size-class change then resolve", arguments: cases)
    func sizeChange(_ c: Case) {
        var state = WindowState(
            session: "s", window: "w", sizeClass: c.before, path: Self.path,
            item: c.hasItem ? Self.item : nil, itemPath: c.hasItemPath ? Self.itemPath : [], policy: c.policy)
        state.changeSizeClass(to: c.after)

        let modeChanged = (c.before == .regular) != (c.after == .regular)
        let kept = c.hasItem && !(c.policy == .dismiss && modeChanged)
        #expect(state.sizeClass == c.after)
        #expect(state.path == Self.path, "the window's own path is never touched")
        #expect(state.item == (kept ? Self.item : nil))
        #expect(state.itemPath == (kept && c.hasItemPath ? Self.itemPath : []))

        let layout = state.layout(for: c.after)
        #expect(layout.sizeClass == c.after)
        let above = kept && c.hasItemPath ? Self.itemPath : []
        switch (kept, c.after) {
        case (false, _):
            #expect(layout.presentation == .none)
            #expect(layout.stack == Self.path)
            #expect(layout.sheet == nil)
        case (true, .regular):
            #expect(layout.presentation == .push)
            #expect(layout.stack == Self.path + [Self.item] + above)
            #expect(layout.sheet == nil)
        case (true, _):
            #expect(layout.presentation == .sheet)
            #expect(layout.stack == Self.path)
            #expect(layout.sheet == [Self.item] + above)
        }

        // restored(into:) is the same change followed by the rule, and leaves the saved state alone.
        let saved = WindowState(
            session: "s", window: "w", sizeClass: c.before, path: Self.path,
            item: c.hasItem ? Self.item : nil, itemPath: c.hasItemPath ? Self.itemPath : [], policy: c.policy)
        let restoration = saved.restored(into: c.after)
        #expect(restoration.saved == saved)
        #expect(restoration.restored == state)
        #expect(restoration.layout == layout)
    }

    @Test func migratingBackAndForthLosesNothing() {
        var state = WindowState(
            session: "s", window: "w", sizeClass: .compact, path: Self.path, item: Self.item, itemPath: Self.itemPath)
        let original = state
        for next in [SizeClass.regular, .unspecified, .regular, .compact] {
            state.changeSizeClass(to: next)
        }
        #expect(state == original)
    }

    @Test func pushGoesOnTopOfWhatIsShown() {
        var state = WindowState(session: "s", window: "w")
        state.push(route("A"))
        #expect(state.path == [route("A")])
        state.present(route("Item"))
        state.push(route("B"))
        #expect(state.path == [route("A")])
        #expect(state.itemPath == [route("B")])
    }

    @Test func presentReplacesItemAndItsStack() {
        var state = WindowState(
            session: "s", window: "w", path: [route("A")], item: route("Old"), itemPath: [route("B")])
        state.present(route("New"))
        #expect(state.item == route("New"))
        #expect(state.itemPath.isEmpty)
        #expect(state.path == [route("A")])
        state.dismiss()
        #expect(state.item == nil)
        #expect(state.itemPath.isEmpty)
        #expect(state.path == [route("A")])
    }

    /// pop N walks back through itemPath, then the item, then path.
    @Test("pop walks itemPath, then the item, then path", arguments: 1...5)
    func pop(_ count: Int) throws {
        let path = [route("P1"), route("P2")]
        let itemPath = [route("I1"), route("I2")]
        var state = WindowState(session: "s", window: "w", path: path, item: route("Item"), itemPath: itemPath)
        // The steps back, top first: I2, I1, the item, P2, P1.
        try state.pop(count)
        let n = count
        #expect(state.itemPath == Array(itemPath.prefix(max(0, 2 - n))))
        #expect(state.item == (n <= 2 ? route("Item") : nil))
        #expect(state.path == Array(path.prefix(max(0, 2 - max(0, n - 3)))))
    }

    @Test func overPopChangesNothing() {
        let state = WindowState(
            session: "s", window: "w", path: [route("P")], item: route("Item"), itemPath: [route("I")])
        var popped = state
        #expect(throws: StateStoreError.self) { try popped.pop(4) }
        #expect(popped == state)
        #expect(throws: StateStoreError.self) { try popped.pop(0) }
        var empty = WindowState(session: "s", window: "w")
        #expect(throws: StateStoreError.self) { try empty.pop(1) }
    }

    @Test func popOneOnAnItemWithoutStackDismissesIt() throws {
        var state = WindowState(session: "s", window: "w", path: [route("P")], item: route("Item"))
        try state.pop(1)
        #expect(state.item == nil)
        #expect(state.path == [route("P")])
    }
}
