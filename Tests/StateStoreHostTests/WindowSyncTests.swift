import StateStore
import StateStoreHost
import Testing

/// The window's sync as a table: edits, writes, conflicts, rebases, dropped edits and flushes
/// through `WindowSync` alone — no file, no session, no clock — the way the rule's tables test the
/// rule. Each case is a script of what happened and what the sync must hold at its end.
struct WindowSyncTests {
    /// Something that happens to a window's sync.
    enum Step: Sendable, CustomStringConvertible {
        /// The user's edits, recorded.
        case edit([WindowEdit])
        /// The model sends the write due (a test failure when none is).
        case send
        /// The write last sent commits as the next revision of what it expected.
        case commit
        /// The feed reports the write last sent committed, before the writer returns.
        case feedReportsOwnWrite
        /// The write last sent meets another writer's state.
        case conflict(WindowState?)
        /// The write last sent fails.
        case fail(StateStoreError)
        /// Another writer's state, logged at a sequence number.
        case outside(WindowState?, sequence: Int64)
        /// A read of the window, made when the log stood at a position.
        case restored(WindowState?, position: Int64)
        /// A flush, or a window becoming active, lifts what holds writes back.
        case retry

        var description: String {
            switch self {
            case .edit(let edits): "edit \(edits)"
            case .send: "send"
            case .commit: "commit"
            case .feedReportsOwnWrite: "the feed reports it"
            case .conflict(let state): "conflict with \(state.map { "revision \($0.revision)" } ?? "a deletion")"
            case .fail(let error): "fail: \(error)"
            case .outside(let state, let sequence):
                "outside \(state.map { "revision \($0.revision)" } ?? "deletion") at \(sequence)"
            case .restored(let state, let position):
                "restored \(state.map { "revision \($0.revision)" } ?? "nothing") at \(position)"
            case .retry: "retry"
            }
        }
    }

    /// What the sync must hold after a script.
    struct Expected: Sendable {
        /// The local state's path, item (route types) and item's stack.
        var path: [String]
        var item: String? = nil
        var itemPath: [String] = []
        /// The revision the sync is based on.
        var baseRevision: Int
        /// The next write due: the revision it expects, or `nil` for none.
        var nextWriteExpects: Int?
        /// Where the changes made by the script stand for a flush.
        var flush: FlushState
        /// How many edits were dropped, over the whole script.
        var dropped = 0
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let restoring: Bool
        let steps: [Step]
        let expected: Expected

        init(_ name: String, restoring: Bool = false, _ steps: [Step], _ expected: Expected) {
            self.name = name
            self.restoring = restoring
            self.steps = steps
            self.expected = expected
        }

        var testDescription: String { name }
    }

    static func route(_ type: String) -> Route { try! Route(type: type, json: "null") }
    static func push(_ type: String, onto state: WindowState = empty) -> WindowEdit {
        .push(route(type), onto: state)
    }
    static let empty = WindowState(session: "s", window: "w")
    static func stored(_ revision: Int, path: [String], item: String? = nil) -> WindowState {
        var state = WindowState(session: "s", window: "w", path: path.map(route), item: item.map(route))
        state.revision = revision
        return state
    }
    static var withItem: WindowState { stored(1, path: [], item: "I") }
    static let ioFailure = StateStoreError.io(SQLiteFailure(code: .ioErr, message: "disk I/O error"))
    static let busyFailure = StateStoreError.busy(SQLiteFailure(code: .busy, message: "database is locked"))

    static let cases: [Case] = [
        Case(
            "an edit is written and committed", [.edit([push("A")]), .send, .commit],
            Expected(path: ["A"], baseRevision: 1, nextWriteExpects: nil, flush: .committed)),
        Case(
            "edits made while a write is in flight go out together in the next",
            [.edit([push("A")]), .send, .edit([push("B")]), .edit([push("C")])],
            Expected(path: ["A", "B", "C"], baseRevision: 0, nextWriteExpects: nil, flush: .pending)),
        Case(
            "the next write expects the revision the first made",
            [.edit([push("A")]), .send, .edit([push("B")]), .commit],
            Expected(path: ["A", "B"], baseRevision: 1, nextWriteExpects: 1, flush: .pending)),
        Case(
            "a conflict takes the other writer's state and makes the edit again on it",
            [.edit([push("B")]), .send, .conflict(stored(2, path: ["X"]))],
            Expected(path: ["X", "B"], baseRevision: 2, nextWriteExpects: 2, flush: .pending)),
        Case(
            "a conflict with a deletion makes the edit again on an empty window",
            [.edit([push("B")]), .send, .conflict(nil)],
            Expected(path: ["B"], baseRevision: 0, nextWriteExpects: 0, flush: .pending)),
        Case(
            "a push above an item another writer dismissed is dropped",
            [
                .restored(withItem, position: 1), .edit([push("A", onto: withItem)]), .send,
                .conflict(stored(2, path: [])),
            ],
            Expected(path: [], baseRevision: 2, nextWriteExpects: nil, flush: .committed, dropped: 1)),
        Case(
            "a failed write waits for the next change, and fails the flush",
            [.edit([push("A")]), .send, .fail(ioFailure)],
            Expected(path: ["A"], baseRevision: 0, nextWriteExpects: nil, flush: .failed)),
        Case(
            "the next change lifts a failure's hold",
            [.edit([push("A")]), .send, .fail(ioFailure), .edit([push("B")])],
            Expected(path: ["A", "B"], baseRevision: 0, nextWriteExpects: 0, flush: .pending)),
        Case(
            "busy is held back, not failed, and a retry sends it",
            [.edit([push("A")]), .send, .fail(busyFailure), .retry],
            Expected(path: ["A"], baseRevision: 0, nextWriteExpects: 0, flush: .pending)),
        Case(
            "busy without a retry waits",
            [.edit([push("A")]), .send, .fail(busyFailure)],
            Expected(path: ["A"], baseRevision: 0, nextWriteExpects: nil, flush: .pending)),
        Case(
            "another writer's state is taken and the pending edit made again on it",
            [.restored(nil, position: 5), .edit([push("A")]), .outside(stored(1, path: ["X"]), sequence: 6)],
            Expected(path: ["X", "A"], baseRevision: 1, nextWriteExpects: 1, flush: .pending)),
        Case(
            "a change logged before the window was read is old news",
            [.restored(stored(3, path: ["New"]), position: 10), .outside(nil, sequence: 9)],
            Expected(path: ["New"], baseRevision: 3, nextWriteExpects: nil, flush: .committed)),
        Case(
            "a deletion logged after the read is taken",
            [.restored(stored(3, path: ["New"]), position: 10), .outside(nil, sequence: 11)],
            Expected(path: [], baseRevision: 0, nextWriteExpects: nil, flush: .committed)),
        Case(
            "a read older than a state taken since is not taken",
            [
                .restored(nil, position: 1), .outside(stored(4, path: ["Later"]), sequence: 8),
                .restored(stored(2, path: ["Earlier"]), position: 7),
            ],
            Expected(path: ["Later"], baseRevision: 4, nextWriteExpects: nil, flush: .committed)),
        Case(
            "nothing is written while the window is read; the edits are made again on what was read",
            restoring: true, [.edit([push("A")]), .restored(stored(2, path: ["S"]), position: 3)],
            Expected(path: ["S", "A"], baseRevision: 2, nextWriteExpects: 2, flush: .pending)),
        Case(
            "an edit made while the window is read is not sent", restoring: true, [.edit([push("A")])],
            Expected(path: ["A"], baseRevision: 0, nextWriteExpects: nil, flush: .pending)),
        Case(
            "another writer's state while the window is read is what the read would find", restoring: true,
            [.edit([push("A")]), .outside(stored(5, path: ["O"]), sequence: 2)],
            Expected(path: ["O", "A"], baseRevision: 5, nextWriteExpects: 5, flush: .pending)),
        Case(
            "the feed reporting the write first ends it; the writer's return is then ignored",
            [.edit([push("A")]), .send, .feedReportsOwnWrite, .commit],
            Expected(path: ["A"], baseRevision: 1, nextWriteExpects: nil, flush: .committed)),
        Case(
            "an equal policy is no edit of the flush", [.edit([.setPolicy(.migrate)]), .send, .commit],
            Expected(path: [], baseRevision: 1, nextWriteExpects: nil, flush: .committed)),
    ]

    @Test(arguments: cases)
    func script(_ test: Case) throws {
        var sync = WindowSync(empty: Self.empty, restoring: test.restoring)
        var sent: WriteRequest?
        var dropped = 0
        for step in test.steps {
            switch step {
            case .edit(let edits):
                try sync.record(edits)
            case .send:
                guard case .write(let request) = sync.nextWrite() else {
                    Issue.record("\(test.name): no write due at '\(step)'")
                    return
                }
                sent = request
            case .commit, .feedReportsOwnWrite, .conflict, .fail:
                let request = try #require(sent, "\(test.name): nothing sent before '\(step)'")
                var committed = request.target
                committed.revision = request.expectedRevision + 1
                switch step {
                case .commit:
                    dropped +=
                        sync.writeEnded(request.token, .committed(committed), empty: Self.empty)?.dropped.count ?? 0
                case .feedReportsOwnWrite:
                    let ended = sync.ownWriteCommitted(request.token, stored: committed)
                    #expect(ended)
                case .conflict(let current):
                    dropped +=
                        sync.writeEnded(request.token, .conflict(current: current), empty: Self.empty)?.dropped.count
                        ?? 0
                case .fail(let error):
                    dropped += sync.writeEnded(request.token, .failed(error), empty: Self.empty)?.dropped.count ?? 0
                default: break
                }
            case .outside(let state, let sequence):
                dropped += sync.adopt(outside: state, at: sequence, empty: Self.empty)?.dropped.count ?? 0
            case .restored(let state, let position):
                dropped += sync.restored(state, through: position, empty: Self.empty)?.dropped.count ?? 0
            case .retry:
                _ = sync.retryHeld()
            }
        }
        let expected = test.expected
        #expect(sync.local.path.map(\.type) == expected.path, "path")
        #expect(sync.local.item?.type == expected.item, "item")
        #expect(sync.local.itemPath.map(\.type) == expected.itemPath, "item's stack")
        #expect(sync.base.revision == expected.baseRevision, "base revision")
        #expect(sync.flushState(for: sync.generation) == expected.flush, "flush")
        #expect(dropped == expected.dropped, "dropped edits")
        switch sync.nextWrite() {
        case .write(let request):
            #expect(request.expectedRevision == expected.nextWriteExpects, "the next write's expected revision")
            #expect(request.target == sync.local, "a write carries the whole local state")
        case .none: #expect(expected.nextWriteExpects == nil, "a write is due")
        case .overLimits(let error): Issue.record("over limits: \(error)")
        }
    }

    /// Writing back what is there records an edit but changes nothing to write for a flush that
    /// asked before it; over the limits, nothing is sent and the flush fails.
    @Test func aStateOverTheLimitsIsNeverSentAndFailsTheFlush() throws {
        var sync = WindowSync(empty: Self.empty, restoring: false)
        let routes = (0..<600).map { Self.route("R\($0)") }
        try sync.record([.stack(StackEdit(part: .path, removing: 0, appending: routes, keepsItem: false))])
        guard case .overLimits = sync.nextWrite() else {
            Issue.record("a state of 600 routes is over the limits")
            return
        }
        #expect(sync.flushState(for: sync.generation) == .failed)
        try sync.record([.stack(StackEdit(part: .path, removing: 500, appending: [], keepsItem: false))])
        guard case .write(let request) = sync.nextWrite() else {
            Issue.record("a state that fits again is sent")
            return
        }
        #expect(request.target.path.count == 100)
    }

    /// A process about to end sends what is pending behind the write in flight at once, expecting
    /// the revision that write makes.
    @Test func theFinalWriteGoesBehindTheOneInFlight() throws {
        var sync = WindowSync(empty: Self.empty, restoring: false)
        try sync.record([Self.push("A")])
        guard case .write(let first) = sync.nextWrite() else {
            Issue.record("a write is due")
            return
        }
        let none = sync.finalWrite()
        #expect(none == nil, "nothing beyond the write in flight")
        try sync.record([Self.push("B")])
        let made = sync.finalWrite()
        let final = try #require(made)
        #expect(final.expectedRevision == first.expectedRevision + 1)
        #expect(final.target.path.map(\.type) == ["A", "B"])
        #expect(final.token != first.token)
    }

    /// An edit that does not apply changes nothing: not the state, not the generation.
    @Test func anEditThatDoesNotApplyIsRefusedWhole() throws {
        var sync = WindowSync(empty: Self.empty, restoring: false)
        let before = sync.generation
        #expect(throws: StateStoreError.self) {
            try sync.record([
                Self.push("A"), .stack(StackEdit(part: .path, removing: 5, appending: [], keepsItem: false)),
            ])
        }
        #expect(sync.local.path.isEmpty, "the first edit was not kept either")
        #expect(sync.generation == before)
        #expect(!sync.hasPendingEdits)
    }
}
