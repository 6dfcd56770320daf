import StateStore
import Testing

/// The inverse of the rule (`setStack`, `setSheetStack`: edits of the stack a class shows) as
/// tables: every state (path of 0–2 routes, with and without an item, with and without
/// `itemPath`) × every size class × writes of the shown stack, its prefixes, longer stacks and
/// changed ones, checked by the two laws.
struct StackEditTests {
    static let a = route("A", "1")
    static let b = route("B", "2")
    static let item = route("Item", #"{"id":7}"#)
    static let c = route("C", "3")
    static let x = route("X", #""x""#)

    static let states: [WindowState] = [[], [a], [a, b]].flatMap { path in
        [
            WindowState(session: "s", window: "w", path: path),
            WindowState(session: "s", window: "w", path: path, item: item),
            WindowState(session: "s", window: "w", path: path, item: item, itemPath: [c]),
        ]
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var state: WindowState
        var sizeClass: SizeClass
        var testDescription: String {
            "path \(state.path.map(\.type)) item \(state.item?.type ?? "-") itemPath \(state.itemPath.map(\.type)) in \(sizeClass)"
        }
    }

    static let cases = states.flatMap { state in SizeClass.allCases.map { Case(state: state, sizeClass: $0) } }

    /// What a view could write over `shown`: itself, each prefix, one more route, the last one
    /// replaced, the first one replaced, something else altogether, and nothing.
    static func writes(over shown: [Route]) -> [[Route]] {
        var writes = [shown, shown + [x], [x], [], [x, a, b]]
        for length in 0..<shown.count { writes.append(Array(shown.prefix(length))) }
        if !shown.isEmpty {
            writes.append(shown.dropLast() + [x])
            writes.append([x] + shown.dropFirst())
        }
        return writes
    }

    @Test(
        "setStack: writing the shown stack back changes nothing; afterwards the layout shows the write",
        arguments: cases)
    func windowStack(_ c: Case) throws {
        let shown = c.state.layout(for: c.sizeClass).stack
        var same = c.state
        same.setStack(shown, shownFor: c.sizeClass)
        #expect(same == c.state)
        #expect(c.state.stackEdit(to: shown, shownFor: c.sizeClass) == nil)

        for write in Self.writes(over: shown) {
            var state = c.state
            state.setStack(write, shownFor: c.sizeClass)
            #expect(state.layout(for: c.sizeClass).stack == write, "wrote \(write.map(\.type))")
            try state.validate()
            if c.sizeClass.mode == .compact {
                #expect(state.item == c.state.item, "a compact window's stack never touches the item")
                #expect(state.itemPath == c.state.itemPath)
            }
            // The recorded edit, applied to the state it was made on, does the same.
            if let edit = c.state.stackEdit(to: write, shownFor: c.sizeClass) {
                var replayed = c.state
                try replayed.apply(edit)
                #expect(replayed == state)
            }
        }
    }

    @Test(
        "setSheetStack: writing the shown sheet back changes nothing; afterwards the sheet shows the write",
        arguments: cases)
    func sheetStack(_ c: Case) throws {
        let shown = c.state.layout(for: c.sizeClass).sheet ?? []
        var same = c.state
        same.setSheetStack(shown, shownFor: c.sizeClass)
        #expect(same == c.state)

        for write in Self.writes(over: shown) {
            var state = c.state
            state.setSheetStack(write, shownFor: c.sizeClass)
            if c.sizeClass == .regular {
                #expect(state == c.state, "a regular window shows no sheet: a write through it changes nothing")
                #expect(c.state.sheetStackEdit(to: write, shownFor: c.sizeClass) == nil)
                continue
            }
            #expect((state.layout(for: c.sizeClass).sheet ?? []) == write, "wrote \(write.map(\.type))")
            #expect(state.path == c.state.path, "the sheet never touches the window's path")
            #expect(state.item == write.first)
            try state.validate()
            if let edit = c.state.sheetStackEdit(to: write, shownFor: c.sizeClass) {
                var replayed = c.state
                try replayed.apply(edit)
                #expect(replayed == state)
            }
        }
    }

    @Test func regularStackRemovingTheItemsElementDismissesIt() {
        var state = WindowState(session: "s", window: "w", path: [Self.a], item: Self.item, itemPath: [Self.c])
        state.setStack([Self.a, Self.x], shownFor: .regular)
        #expect(state.item == nil)
        #expect(state.itemPath == [])
        #expect(state.path == [Self.a, Self.x], "routes appended where the item stood are the window's own")

        var pushed = WindowState(session: "s", window: "w", path: [Self.a], item: Self.item)
        pushed.setStack([Self.a, Self.item, Self.x], shownFor: .regular)
        #expect(pushed.item == Self.item)
        #expect(pushed.itemPath == [Self.x], "appending past the item extends itemPath")
    }

    @Test func sheetStackPresentsAndDismisses() {
        var state = WindowState(session: "s", window: "w", path: [Self.a])
        state.setSheetStack([Self.x, Self.c], shownFor: .compact)
        #expect(state.item == Self.x)
        #expect(state.itemPath == [Self.c])
        state.setSheetStack([], shownFor: .unspecified)
        #expect(state.item == nil)
        #expect(state.itemPath == [])
        #expect(state.path == [Self.a])
    }

    // MARK: Edits replayed on a state another writer made

    @Test func anAppendAboveAnItemTheOtherWriterDismissedNoLongerApplies() throws {
        let mine = WindowState(session: "s", window: "w", path: [Self.a], item: Self.item)
        let sheetPush = try #require(mine.sheetStackEdit(to: [Self.item, Self.x], shownFor: .compact))
        let stackPush = try #require(mine.stackEdit(to: [Self.a, Self.item, Self.x], shownFor: .regular))
        #expect(sheetPush.keepsItem && stackPush.keepsItem)

        var theirs = mine
        theirs.dismiss()
        for edit in [sheetPush, stackPush] {
            var state = theirs
            #expect(throws: StateStoreError.self) { try state.apply(edit) }
            #expect(state == theirs, "a failed edit changes nothing")
        }

        // Still presented, with more pushed above it by the other writer: the append goes on top.
        var other = mine
        other.push(Self.c)
        try other.apply(sheetPush)
        #expect(other.itemPath == [Self.c, Self.x])
    }

    @Test func removingMoreThanThereIsNoLongerApplies() throws {
        let mine = WindowState(session: "s", window: "w", path: [Self.a, Self.b])
        let popTwo = try #require(mine.stackEdit(to: [], shownFor: .compact))
        #expect(popTwo == StackEdit(part: .path, removing: 2, appending: [], keepsItem: false))
        var theirs = mine
        try theirs.pop(1)
        let before = theirs
        #expect(throws: StateStoreError.self) { try theirs.apply(popTwo) }
        #expect(theirs == before)
    }

    @Test func aPathEditAppliesUnderAnyItem() throws {
        let mine = WindowState(session: "s", window: "w", path: [Self.a])
        let push = try #require(mine.stackEdit(to: [Self.a, Self.x], shownFor: .compact))
        var theirs = mine
        theirs.present(Self.item)
        try theirs.apply(push)
        #expect(theirs.path == [Self.a, Self.x])
        #expect(theirs.item == Self.item)
    }

    @Test func aChainEditReplaysAsBackThenPush() throws {
        // Regular, no item: the user pushed X. Another writer presented an item meanwhile: X goes
        // onto what is on top, the item's stack, as the push verb would put it.
        let mine = WindowState(session: "s", window: "w", sizeClass: .regular, path: [Self.a])
        let push = try #require(mine.stackEdit(to: [Self.a, Self.x], shownFor: .regular))
        var theirs = mine
        theirs.present(Self.item)
        try theirs.apply(push)
        var expected = mine
        expected.present(Self.item)
        expected.push(Self.x)
        #expect(theirs == expected)
    }
}
