import Observation
import StateStore

/// One live window: what its views bind to, restored from the store, written back as it changes,
/// and changed by other processes' writes (SPEC §6).
///
/// Views read ``stack``, ``sheet`` and ``sheetPath`` and bind them through `@Bindable`; the scene
/// feeds ``environmentChanged(sizeClass:isActive:)``. Every change shows at once; the writes
/// follow on the session's own queue. The model holds no SwiftUI types.
@MainActor
@Observable
public final class WindowModel<R: RouteRepresentable> {
    /// What a window shows for the class it lays out for now, in the app's route type.
    public struct Layout {
        /// Whether the item is pushed, shown as a sheet, or absent.
        public var presentation: Presentation
        /// The window's navigation stack, bottom first.
        public var stack: [R]
        /// The sheet's stack, root first, when the item is shown as a sheet.
        public var sheet: [R]?
    }

    /// The window's id in its session.
    public let id: String

    /// The stored revision the model is based on (0: nothing stored yet).
    public private(set) var revision: Int {
        get {
            access(keyPath: keys.revision)
            return tracked.revision
        }
        set {
            guard shouldNotifyObservers(tracked.revision, newValue) else {
                tracked.revision = newValue
                return
            }
            withMutation(keyPath: keys.revision) { tracked.revision = newValue }
        }
    }
    /// Whether the window is still being read from the store: the model shows an empty window
    /// meanwhile, and fills in when the read succeeds.
    public private(set) var isRestoring: Bool {
        get {
            access(keyPath: keys.isRestoring)
            return tracked.isRestoring
        }
        set {
            guard shouldNotifyObservers(tracked.isRestoring, newValue) else {
                tracked.isRestoring = newValue
                return
            }
            withMutation(keyPath: keys.isRestoring) { tracked.isRestoring = newValue }
        }
    }
    /// The last thing that went wrong; the model keeps working in memory through it.
    public private(set) var lastError: WindowError? {
        get {
            access(keyPath: keys.lastError)
            return tracked.lastError
        }
        set {
            guard shouldNotifyObservers(tracked.lastError, newValue) else {
                tracked.lastError = newValue
                return
            }
            withMutation(keyPath: keys.lastError) { tracked.lastError = newValue }
        }
    }

    /// The window as the model holds it: the stored state with the local edits not yet written.
    private(set) var state: WindowState {
        get {
            access(keyPath: keys.state)
            return tracked.state
        }
        set {
            guard shouldNotifyObservers(tracked.state, newValue) else {
                tracked.state = newValue
                return
            }
            stateVersion &+= 1
            withMutation(keyPath: keys.state) { tracked.state = newValue }
        }
    }
    private var gate: SizeClassGate {
        get {
            access(keyPath: keys.gate)
            return tracked.gate
        }
        set {
            guard shouldNotifyObservers(tracked.gate, newValue) else {
                tracked.gate = newValue
                return
            }
            withMutation(keyPath: keys.gate) { tracked.gate = newValue }
        }
    }
    /// One number per presentation of an item (``Presented/id``).
    private var presentationID: Int {
        get {
            access(keyPath: keys.presentationID)
            return tracked.presentationID
        }
        set {
            guard shouldNotifyObservers(tracked.presentationID, newValue) else {
                tracked.presentationID = newValue
                return
            }
            withMutation(keyPath: keys.presentationID) { tracked.presentationID = newValue }
        }
    }
    /// A sheet presented by the same change that changed the window's stack waits for
    /// ``presentationReady()``.
    private var sheetHeld: Bool {
        get {
            access(keyPath: keys.sheetHeld)
            return tracked.sheetHeld
        }
        set {
            guard shouldNotifyObservers(tracked.sheetHeld, newValue) else {
                tracked.sheetHeld = newValue
                return
            }
            withMutation(keyPath: keys.sheetHeld) { tracked.sheetHeld = newValue }
        }
    }

    /// What the properties above hold. They are observed by hand, through key paths made once per
    /// model: a key path literal in a generic class is built anew at every use, and the
    /// `@Observable` macro's accessors built about a dozen for each verb (60 % of its time). As the
    /// macro's setters do, an equal value notifies no one.
    @ObservationIgnored private var tracked: Tracked
    @ObservationIgnored private let keys = TrackedKeys()

    private struct Tracked {
        var revision = 0
        var isRestoring = false
        var lastError: WindowError?
        var state: WindowState
        var gate: SizeClassGate
        var presentationID = 0
        var sheetHeld = false
    }

    @MainActor private struct TrackedKeys {
        let revision: KeyPath<WindowModel, Int> = \.revision
        let isRestoring: KeyPath<WindowModel, Bool> = \.isRestoring
        let lastError: KeyPath<WindowModel, WindowError?> = \.lastError
        let state: KeyPath<WindowModel, WindowState> = \.state
        let gate: KeyPath<WindowModel, SizeClassGate> = \.gate
        let presentationID: KeyPath<WindowModel, Int> = \.presentationID
        let sheetHeld: KeyPath<WindowModel, Bool> = \.sheetHeld
    }

    @ObservationIgnored private weak var host: WindowSession?
    @ObservationIgnored private let sessionID: String
    @ObservationIgnored private let time: TimeSource
    @ObservationIgnored private let options: WindowSession.Options
    /// The state as stored, as far as the model knows.
    @ObservationIgnored private var base: WindowState
    /// Local edits not yet committed, in order, each with its number.
    @ObservationIgnored private var edits: [(number: Int, edit: WindowEdit)] = []
    @ObservationIgnored private var lastEditNumber = 0
    @ObservationIgnored private var inFlight: (token: UInt64, lastEdit: Int, generation: Int)?
    @ObservationIgnored private(set) var generation = 0
    @ObservationIgnored private var committedGeneration = 0
    /// The generation a failed write left unwritten (busy failures are retried instead).
    @ObservationIgnored private var failedGeneration: Int?
    @ObservationIgnored private var retryingBusy = false
    @ObservationIgnored private var overLimits = false
    /// What each route decoded to: the cache itself keeps no `R`, so a verb's many lookups run
    /// code specialized for `Route`; the values are in ``decodedValues``.
    @ObservationIgnored private var decodings: [Route: RouteDecoding] = [:]
    @ObservationIgnored private var decodedValues: [R] = []
    /// Counts the changes of ``state``, so that a memo of it is checked without comparing states.
    @ObservationIgnored private var stateVersion = 0
    /// The last ``visible`` and what it was made from: a verb reads it four times over one state.
    /// Decoding a route always gives the same answer, so the state and the gate decide it.
    @ObservationIgnored private var visibleMemoKey: (stateVersion: Int, hides: Bool)?
    @ObservationIgnored private var visibleMemo: (state: WindowState, hidden: Route?) = (
        WindowState(session: "", window: ""), nil
    )
    @ObservationIgnored private var presentedRoute: Route?
    /// The undecodable route last named in ``lastError``, so it is named once.
    @ObservationIgnored private var reportedHidden: Route?
    /// The presentation id the view last read through ``sheet``: a `nil` written for an older one is late.
    @ObservationIgnored private var sheetIDRead: Int?
    /// The wake-up at the gate's deadline, and that deadline: a verb while a change is pending
    /// leaves the deadline as it is, so it keeps its task (a new one costs a thread's wake-up).
    @ObservationIgnored private var settleTimer: (deadline: Duration, task: Task<Void, Never>)?
    @ObservationIgnored private var environment: (sizeClass: SizeClass, isActive: Bool)?
    @ObservationIgnored private var attachments: Set<Int> = []
    @ObservationIgnored private var nextAttachment = 0

    init(id: String, in host: WindowSession) {
        self.id = id
        self.host = host
        self.sessionID = host.session
        self.time = host.time
        self.options = host.options
        let empty = WindowState(session: host.session, window: id)
        tracked = Tracked(
            state: empty,
            gate: SizeClassGate(
                committed: .unspecified, settle: host.options.settle, layoutFollows: host.options.layoutFollows))
        base = empty
    }

    /// A model that works in memory only, because of `problem`.
    init(detached id: String, session: String, options: WindowSession.Options, problem: WindowError) {
        self.id = id
        self.host = nil
        self.sessionID = session
        self.time = TimeSource(options.clock)
        self.options = options
        let empty = WindowState(session: session, window: id)
        tracked = Tracked(
            state: empty,
            gate: SizeClassGate(committed: .unspecified, settle: options.settle, layoutFollows: options.layoutFollows))
        base = empty
        lastError = problem
    }

    // MARK: Reads

    /// The window's own path, bottom first (up to a stored route the app cannot decode).
    public var path: [R] { visible.state.path.compactMap(decoded) }
    /// The presented item, if any (also when it is laid out as a push).
    public var item: R? { visible.state.item.flatMap(decoded) }
    /// The routes stacked above the item.
    public var itemPath: [R] { visible.state.itemPath.compactMap(decoded) }
    /// What a size-class change does to a presented item.
    public var policy: SizeChangePolicy { state.policy }
    /// The class the window lays out for now.
    public var sizeClass: SizeClass { gate.layoutClass }

    /// What the window shows now: the rule applied for ``sizeClass``.
    public var layout: Layout {
        let layout = visible.state.layout(for: gate.layoutClass)
        return Layout(
            presentation: layout.presentation, stack: layout.stack.compactMap(decoded),
            sheet: layout.sheet?.compactMap(decoded))
    }

    // MARK: For the views

    /// The window's NavigationStack path (in a `NavigationSplitView`, the detail column's). Set, it
    /// is SPEC §3's edit of what is shown: a regular window's stack holds the pushed item.
    public var stack: [R] {
        get { layout.stack }
        set {
            let sizeClass = gate.layoutClass
            userEdit { state throws in
                let shown = state.layout(for: sizeClass).stack
                state.setStack(try routes(newValue, over: shown), shownFor: sizeClass)
            }
        }
    }

    /// The sheet's root while the item is shown as a sheet. SwiftUI writes `nil` when the user
    /// dismisses it; a `nil` for a presentation that is no longer current dismisses nothing.
    public var sheet: Presented<R>? {
        get {
            guard !sheetHeld, let route = shownSheet?.first, let value = decoded(route) else { return nil }
            sheetIDRead = presentationID
            return Presented(id: presentationID, route: value)
        }
        set {
            if let newValue {
                guard newValue.id != presentationID || shownSheet == nil else { return }
                present(newValue.route)
                return
            }
            guard !sheetHeld, shownSheet != nil, sheetIDRead == presentationID else { return }
            let sizeClass = gate.layoutClass
            userEdit { state in state.setSheetStack([], shownFor: sizeClass) }
        }
    }

    /// The routes above the sheet's root while the item is shown as a sheet.
    public var sheetPath: [R] {
        get { Array(layout.sheet?.dropFirst() ?? []) }
        set {
            let sizeClass = gate.layoutClass
            userEdit { state throws in
                guard let shown = state.layout(for: sizeClass).sheet, let root = shown.first else { return }
                state.setSheetStack(
                    [root] + (try routes(newValue, over: Array(shown.dropFirst()))), shownFor: sizeClass)
            }
        }
    }

    // MARK: Verbs

    /// Pushes onto what is on top: the item's stack when an item is presented, else the path.
    public func push(_ route: R) {
        userEdit { state throws in state.push(try encode(route)) }
    }

    /// Goes back `count` steps: through the item's stack, then the item, then the path. Going back
    /// further than there is changes nothing (``lastError`` says so).
    public func pop(_ count: Int = 1) {
        userEdit { state throws in try state.pop(count) }
    }

    /// Presents `route`, replacing any presented item and its stack; `policy`, when given, becomes
    /// the window's policy.
    public func present(_ route: R, policy: SizeChangePolicy? = nil) {
        userEdit { state throws in
            state.present(try encode(route))
            if let policy { state.policy = policy }
        }
    }

    /// Sets what a size-class change does to a presented item (a toggle in the app's UI), recorded
    /// and written like the other verbs; a change of mode already settling follows the new policy.
    public func setPolicy(_ policy: SizeChangePolicy) {
        userEdit { state in state.policy = policy }
    }

    /// Dismisses the presented item and its stack.
    public func dismiss() {
        userEdit { state in state.dismiss() }
    }

    /// Replaces the window's own path; the item stays.
    public func setPath(_ path: [R]) {
        userEdit { state throws in state.path = try routes(path, over: state.path) }
    }

    // MARK: The environment

    /// The scene's environment, in one call: `horizontalSizeClass` (`nil` is `.unspecified`) and
    /// whether the scene phase is `.active`. Size-class changes count only once they settle (SPEC §6).
    public func environmentChanged(sizeClass: SizeClass, isActive: Bool) {
        environment = (sizeClass, isActive)
        let before = presentationSnapshot
        if let settled = gate.report(sizeClass, isActive: isActive, at: time.now()) { commit(settled) }
        scheduleSettle()
        refreshPresentation(since: before)
    }

    /// The view's stack has appeared: a sheet presented by the same change may now show (SwiftUI
    /// presents at most one step per update).
    public func presentationReady() {
        sheetHeld = false
    }

    /// Marks the window as shown by a view; a second view showing it at once is reported in
    /// ``lastError``. Hand the result to ``detach(_:)`` when the view goes.
    public func attach() -> WindowAttachment {
        nextAttachment += 1
        if !attachments.isEmpty { lastError = .secondAttachment(window: id) }
        attachments.insert(nextAttachment)
        return WindowAttachment(number: nextAttachment)
    }

    /// The view given `attachment` no longer shows the window.
    public func detach(_ attachment: WindowAttachment) {
        attachments.remove(attachment.number)
    }

    // MARK: What the user sees

    /// The state as the user sees it: a `dismiss` item hidden while a change of mode settles, and
    /// everything from the first route the app cannot decode on cut off (that route given).
    private var visible: (state: WindowState, hidden: Route?) {
        // Observed either way, so that a view reading this is tracked whether the memo serves it.
        access(keyPath: keys.state)
        let hides = gate.hidesDismissibleItem
        if let key = visibleMemoKey, key.stateVersion == stateVersion, key.hides == hides { return visibleMemo }
        let visible = tracked.state.visible(hidingDismissible: hides, knownDecodable: visibleMemo.state) {
            isDecodable($0)
        }
        visibleMemo = visible
        visibleMemoKey = (stateVersion, hides)
        return visible
    }

    /// The sheet's routes as shown now, if the item is shown as a sheet.
    private var shownSheet: [Route]? { visible.state.layout(for: gate.layoutClass).sheet }

    private func decoded(_ route: Route) -> R? {
        switch decodings[route] {
        case .value(let index)?: return decodedValues[index]
        case .failure?: return nil
        case nil: break
        }
        do {
            let value = try R(route: route)
            decodings[route] = .value(decodedValues.count)
            decodedValues.append(value)
            return value
        } catch {
            // Reported by refreshPresentation, after the change: a view reading this must not
            // change what it observes.
            decodings[route] = .failure("\(error)")
            return nil
        }
    }

    private func isDecodable(_ route: Route) -> Bool {
        switch decodings[route] {
        case .value?: true
        case .failure?: false
        case nil: decoded(route) != nil
        }
    }

    private func encode(_ value: R) throws -> Route {
        if let stored = storedRoute(for: value) { return stored }
        do {
            return try value.route()
        } catch {
            throw EncodingFailure(reason: "\(error)")
        }
    }

    /// A route of the window already holding `value`, so an element the app did not change keeps
    /// its stored text.
    private func storedRoute(for value: R) -> Route? {
        let state = state
        func holds(_ route: Route) -> Bool {
            if case .value(let index)? = decodings[route] { return decodedValues[index] == value }
            return false
        }
        // The path, the item, its stack, in that order, without building the chain of them.
        if let route = state.path.first(where: holds) { return route }
        if let item = state.item, holds(item) { return item }
        return state.itemPath.first(where: holds)
    }

    /// `values` as routes over the shown `routes`: the routes of the longest prefix whose decoded
    /// values are equal are kept as stored, the rest encoded.
    private func routes(_ values: [R], over routes: [Route]) throws -> [Route] {
        var common = 0
        while common < values.count, common < routes.count, decoded(routes[common]) == values[common] { common += 1 }
        return Array(routes.prefix(common)) + (try values[common...].map(encode))
    }

    private struct EncodingFailure: Error {
        let reason: String
    }

    // MARK: Local edits

    /// Makes a change the user asked for on what they see, and records it as the edits it is.
    private func userEdit(_ change: (inout WindowState) throws -> Void) {
        let before = presentationSnapshot
        let (shown, hidden) = visible
        var changed = shown
        do {
            try change(&changed)
        } catch let error as StateStoreError {
            lastError = .invalidEdit(error)
            return
        } catch let error as EncodingFailure {
            lastError = .unencodableRoute(reason: error.reason)
            return
        } catch {
            lastError = .unencodableRoute(reason: "\(error)")
            return
        }
        var made = shown.edits(to: changed)
        guard !made.isEmpty else { return }  // an equal write records nothing
        if let hidden { made.insert(.replaceUndecodable(hidden), at: 0) }
        if let item = changed.item, item != shown.item { gate.itemPresented(at: time.now()) }
        record(made)
        scheduleSettle()
        refreshPresentation(since: before)
    }

    /// Applies and keeps edits, and sends them to the writer.
    private func record(_ made: [WindowEdit]) {
        var next = state
        for edit in made {
            do {
                try edit.apply(to: &next)
            } catch {
                lastError = .invalidEdit(error)
                return
            }
        }
        state = next
        for edit in made {
            lastEditNumber += 1
            edits.append((lastEditNumber, edit))
        }
        generation += 1
        failedGeneration = nil
        writeIfIdle()
    }

    private func commit(_ settled: SizeClassGate.Settled) {
        var next = state
        let edit = WindowEdit.sizeClass(settled.sizeClass, changesMode: settled.changesMode)
        try? edit.apply(to: &next)
        guard next != state else { return }
        record([edit])
    }

    /// Makes the wake-up match the gate's deadline: kept when it is the same, replaced when it
    /// moved, cancelled when nothing is pending.
    private func scheduleSettle() {
        let deadline = gate.deadline
        if settleTimer?.deadline == deadline { return }
        cancelSettle()
        guard let deadline else { return }
        let time = time
        let task = Task { [weak self] in
            do { try await time.sleep(deadline) } catch { return }
            self?.settleTimerFired(deadline)
        }
        settleTimer = (deadline, task)
    }

    private func settleTimerFired(_ deadline: Duration) {
        if settleTimer?.deadline == deadline { settleTimer = nil }
        settleIfDue()
    }

    private func cancelSettle() {
        settleTimer?.task.cancel()
        settleTimer = nil
    }

    /// Commits a size-class change whose settle time has come.
    func settleIfDue() {
        let before = presentationSnapshot
        if let settled = gate.advance(to: time.now()) { commit(settled) }
        scheduleSettle()  // a timer that fired early is armed again
        refreshPresentation(since: before)
    }

    // MARK: Writing

    private func writeIfIdle() {
        guard let host, inFlight == nil, !isRestoring, let last = edits.last?.number else { return }
        do {
            try state.validate()
            overLimits = false
        } catch {
            overLimits = true
            lastError = .overLimits(error)
            host.modelProgressed()
            return
        }
        let token = host.makeToken()
        inFlight = (token, last, generation)
        let request = WriteRequest(
            token: token, window: id, expectedRevision: base.revision, target: state)
        let worker = host.worker
        worker.run({ worker.write(request) }) { [weak self] outcome in self?.writeEnded(token, outcome) }
    }

    private func writeEnded(_ token: UInt64, _ outcome: WriteOutcome) {
        guard let flight = inFlight, flight.token == token else { return }  // the feed reported it first
        inFlight = nil
        let before = presentationSnapshot
        switch outcome {
        case .committed(let stored):
            committed(stored, through: flight.lastEdit, generation: flight.generation)
        case .conflict(let current):
            rebase(on: current ?? emptyWindow)
            writeIfIdle()
        case .failed(let error):
            lastError = .store(error)
            if case .busy = error {
                retryingBusy = true
                if host?.isFlushing == true { writeIfIdle() }
            } else {
                failedGeneration = flight.generation
            }
        }
        refreshPresentation(since: before)
        host?.modelProgressed()
    }

    private func committed(_ stored: WindowState, through lastEdit: Int, generation written: Int) {
        edits.removeAll { $0.number <= lastEdit }
        if stored.revision > base.revision || base.revision == 0 { base = stored }
        state = edits.map(\.edit).replayed(on: base).state
        revision = base.revision
        committedGeneration = max(committedGeneration, written)
        retryingBusy = false
        if case .store = lastError { lastError = nil }
        if case .overLimits = lastError { lastError = nil }
        writeIfIdle()
    }

    /// Takes `newBase` as stored and makes the local edits again on top of it; those that no
    /// longer apply are dropped and named.
    private func rebase(on newBase: WindowState) {
        base = newBase
        revision = newBase.revision
        let replay = edits.map(\.edit).replayed(on: newBase)
        if !replay.dropped.isEmpty {
            lastError = .editsDropped(replay.dropped.map { edits[$0].edit.description })
            let dropped = Set(replay.dropped)
            edits = edits.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        }
        state = replay.state
    }

    private var emptyWindow: WindowState {
        WindowState(session: sessionID, window: id, sizeClass: gate.layoutClass)
    }

    // MARK: Presentation

    private struct PresentationSnapshot: Equatable {
        var stack: [Route]
        var sheetID: Int?
    }

    private var presentationSnapshot: PresentationSnapshot {
        let layout = visible.state.layout(for: gate.layoutClass)
        return PresentationSnapshot(stack: layout.stack, sheetID: layout.sheet == nil ? nil : presentationID)
    }

    /// After any change: a new presentation gets a new id, and a sheet presented by the same change
    /// that changed the window's stack waits for ``presentationReady()``.
    private func refreshPresentation(since before: PresentationSnapshot) {
        if state.item != presentedRoute {
            if state.item != nil { presentationID += 1 }
            presentedRoute = state.item
        }
        let after = presentationSnapshot
        if after.sheetID == nil {
            if sheetHeld { sheetHeld = false }
        } else if after.sheetID != before.sheetID && after.stack != before.stack {
            sheetHeld = true
        }
        let hidden = visible.hidden
        if hidden != reportedHidden {
            reportedHidden = hidden
            if let hidden, case .failure(let reason)? = decodings[hidden] {
                lastError = .undecodableRoute(hidden, reason: reason)
            }
        }
        if decodings.count > 4 * state.routeCount + 64 {
            let live = Set(state.path + (state.item.map { [$0] } ?? []) + state.itemPath)
            var kept: [R] = []
            decodings = decodings.filter { live.contains($0.key) }.mapValues { decoding in
                guard case .value(let index) = decoding else { return decoding }
                kept.append(decodedValues[index])
                return .value(kept.count - 1)
            }
            decodedValues = kept
        }
    }
}

/// One view's claim to show a window (``WindowModel/attach()``).
public struct WindowAttachment: Hashable, Sendable {
    let number: Int
}

// MARK: - The session's side

extension WindowModel: HostedWindow {
    var routeTypeName: String { String(reflecting: R.self) }

    /// The first frame: the window read with a short busy timeout; if the lock cannot be had, the
    /// model shows an empty window and fills in when a full read succeeds.
    func restore() {
        guard let host else { return }
        do throws(StateStoreError) {
            restored(try host.firstFrame.window(session: sessionID, window: id))
        } catch .busy {
            isRestoring = true
            let worker = host.worker
            let id = id
            worker.run({ worker.read(id) }) { [weak self] result in
                guard let self, self.isRestoring else { return }
                switch result {
                case .success(let stored): self.restored(stored)
                case .failure(let error):
                    self.lastError = .store(error)
                    self.restored(nil)
                }
            }
        } catch {
            lastError = .store(error)
        }
    }

    /// Restoring never writes and never applies the policy: the model lays out for the saved class
    /// until the environment reports one.
    private func restored(_ stored: WindowState?) {
        let before = presentationSnapshot
        isRestoring = false
        gate = SizeClassGate(
            committed: stored?.sizeClass ?? .unspecified, settle: options.settle, layoutFollows: options.layoutFollows)
        rebase(on: stored ?? emptyWindow)
        if let environment,
            let settled = gate.report(environment.sizeClass, isActive: environment.isActive, at: time.now())
        {
            commit(settled)
        }
        scheduleSettle()
        refreshPresentation(since: before)
        writeIfIdle()
    }

    func flushState(for generation: Int) -> FlushState {
        if committedGeneration >= generation || edits.isEmpty && inFlight == nil { return .committed }
        if overLimits { return .failed }
        if let failed = failedGeneration, failed >= generation, inFlight == nil { return .failed }
        return .pending
    }

    func prepareForFlush() {
        settleIfDue()
        if inFlight == nil && (failedGeneration != nil || retryingBusy) {
            failedGeneration = nil
            writeIfIdle()
        }
    }

    func ownWriteCommitted(token: UInt64, stored: WindowState) {
        guard let flight = inFlight, flight.token == token else { return }
        inFlight = nil
        let before = presentationSnapshot
        committed(stored, through: flight.lastEdit, generation: flight.generation)
        refreshPresentation(since: before)
        host?.modelProgressed()
    }

    /// Another writer's state (`nil`: the window was deleted) is taken, a pending settle is
    /// cancelled, and the local edits not yet written are made again on top of it.
    func adopt(outside outsideState: WindowState?) {
        if let outsideState, outsideState.revision <= base.revision, !isRestoring { return }  // already known
        if outsideState == nil && base.revision == 0 && edits.isEmpty { return }
        let before = presentationSnapshot
        if isRestoring {
            restored(outsideState)
            return
        }
        cancelSettle()
        gate.adoptOutsideState()
        rebase(on: outsideState ?? emptyWindow)
        refreshPresentation(since: before)
        writeIfIdle()
    }

    func reload() {
        guard let host else { return }
        let worker = host.worker
        let id = id
        worker.run({ worker.read(id) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let stored):
                if stored == nil || stored?.revision != self.base.revision { self.adopt(outside: stored) }
            case .failure(let error):
                self.lastError = .store(error)
            }
        }
    }

    func report(_ problem: WindowError) {
        lastError = problem
    }

    func detach() {
        host = nil
        cancelSettle()
        edits.removeAll()
        inFlight = nil
    }
}

/// What a route decoded to in a model: where its value is in the model's list, or why it is not one.
private enum RouteDecoding {
    case value(Int)
    case failure(String)
}

extension WindowState {
    /// The state as the user sees it (``WindowModel``'s `visible`): a `dismiss` item hidden when
    /// `hides`, and everything from the first route that is not decodable on cut off (that route
    /// given). A route equal to the one at its place in `known` (the last state shown, whose
    /// routes all decoded) is not looked up: after a verb, all but one are. Not generic, so that
    /// it runs specialized code.
    fileprivate func visible(
        hidingDismissible hides: Bool, knownDecodable known: WindowState, isDecodable: (Route) -> Bool
    ) -> (state: WindowState, hidden: Route?) {
        var shown = self
        if hides && shown.policy == .dismiss { shown.dismiss() }
        func decodable(_ route: Route, at index: Int, of shownRoutes: [Route]) -> Bool {
            index < shownRoutes.count && shownRoutes[index] == route || isDecodable(route)
        }
        // The path, the item, its stack: in that order, without building the chain of them.
        if let cut = shown.path.indices.first(where: { !decodable(shown.path[$0], at: $0, of: known.path) }) {
            let hidden = shown.path[cut]
            shown.path.removeLast(shown.path.count - cut)
            shown.dismiss()
            return (shown, hidden)
        }
        guard let item = shown.item else { return (shown, nil) }
        if item != known.item && !isDecodable(item) {
            shown.dismiss()
            return (shown, item)
        }
        guard
            let cut = shown.itemPath.indices.first(where: {
                !decodable(shown.itemPath[$0], at: $0, of: known.itemPath)
            })
        else { return (shown, nil) }
        let hidden = shown.itemPath[cut]
        shown.itemPath.removeLast(shown.itemPath.count - cut)
        return (shown, hidden)
    }
}
