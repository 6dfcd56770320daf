import StateStore
import Testing

/// The edits of the verbs make what the verbs make: on every state (a path of 0–2 routes, with and
/// without an item and its stack, under each policy and size class), applying
/// `WindowEdit.changeSizeClass(to:of:)`, `push(_:onto:)`, `pop(_:from:)` and `setPath(_:over:)`
/// leaves the state the verb leaves, and a pop the verb refuses is refused with the same words.
/// `statectl set` makes its changes through these edits, as hosts do.
struct WindowEditTests {
    /// The routes of `StackEditTests`, whose states these are under every policy and size class.
    static let (a, b, item, c, x) = (
        StackEditTests.a, StackEditTests.b, StackEditTests.item, StackEditTests.c, StackEditTests.x
    )

    static let states: [WindowState] = [[], [a], [a, b]].flatMap { path in
        SizeChangePolicy.allCases.flatMap { policy in
            SizeClass.allCases.flatMap { sizeClass in
                [
                    WindowState(session: "s", window: "w", sizeClass: sizeClass, path: path, policy: policy),
                    WindowState(
                        session: "s", window: "w", sizeClass: sizeClass, path: path, item: item, policy: policy),
                    WindowState(
                        session: "s", window: "w", sizeClass: sizeClass, path: path, item: item, itemPath: [c],
                        policy: policy),
                ]
            }
        }
    }

    static func applied(_ edits: [WindowEdit], to state: WindowState) throws -> WindowState {
        var state = state
        for edit in edits { try state.apply(edit) }
        return state
    }

    @Test(arguments: states)
    func aSizeClassChangeDoesWhatChangeSizeClassDoes(_ state: WindowState) throws {
        for sizeClass in SizeClass.allCases {
            var expected = state
            expected.changeSizeClass(to: sizeClass)
            let edit = WindowEdit.changeSizeClass(to: sizeClass, of: state)
            #expect(try Self.applied([edit], to: state) == expected, "to \(sizeClass)")
        }
    }

    @Test(arguments: states)
    func aPushDoesWhatPushDoes(_ state: WindowState) throws {
        var expected = state
        expected.push(Self.x)
        #expect(try Self.applied([.push(Self.x, onto: state)], to: state) == expected)
    }

    @Test(arguments: states)
    func aPopDoesWhatPopDoesAndFailsAsItFails(_ state: WindowState) throws {
        for count in 0...(state.routeCount + 1) {
            var expected = state
            let verb = Result { () throws(StateStoreError) in try expected.pop(count) }
            let edits = Result { () throws(StateStoreError) in try WindowEdit.pop(count, from: state) }
            switch (verb, edits) {
            case (.success, .success(let edits)):
                #expect(try Self.applied(edits, to: state) == expected, "pop \(count)")
            case (.failure(let refused), .failure(let failed)):
                #expect(refused == failed, "pop \(count)")
            default:
                Issue.record("pop \(count): the verb gave \(verb), its edits \(edits)")
            }
        }
    }

    @Test(arguments: states)
    func aPathIsSetAndTheItemKept(_ state: WindowState) throws {
        for path in [[], [Self.a], [Self.x], [Self.a, Self.b, Self.x], state.path] {
            var expected = state
            expected.path = path
            let edits = WindowEdit.setPath(path, over: state).map { [$0] } ?? []
            #expect(try Self.applied(edits, to: state) == expected, "path \(path.map(\.type))")
            #expect(edits.isEmpty == (path == state.path))
        }
    }
}
