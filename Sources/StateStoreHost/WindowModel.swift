import Observation
import StateStore

/// One live window: what its views bind to, restored from the store, written back as it changes,
/// and changed by other processes' writes (SPEC §6).
///
/// Views read ``stack``, ``sheet`` and ``sheetPath`` and bind them through `@Bindable`; a split
/// view binds its columns (``subscript(selectionInColumn:)``, ``subscript(pathAfterColumns:)``);
/// the scene feeds ``environmentChanged(sizeClass:isActive:)``. Every change shows at once; the
/// writes follow on the session's own queue. The model holds no SwiftUI types.
///
/// What views observe lives in one non-generic `@Observable` core; this typed face converts the
/// store's routes to and from `R`.
@MainActor
public final class WindowModel<R: RouteRepresentable>: Observable {
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

    /// What kind of window it is (`mail`, `settings`), as ``WindowSession/window(_:as:kind:)`` was
    /// told: recorded with its focus, so that an outside writer can address the latest of a kind.
    public let kind: String?

    /// A window that is not stored anywhere, showing `path` and `item` as a window of `sizeClass`:
    /// for previews and tests that drive a model without a session or a file. Its verbs, setters
    /// and environment work as a stored window's do; nothing is written.
    public convenience init(
        previewing path: [R] = [], item: R? = nil, itemPath: [R] = [], sizeClass: SizeClass = .regular,
        options: WindowSession.Options = WindowSession.Options()
    ) {
        self.init(detached: "preview", session: "preview", options: options, problem: nil)
        core.gate = SizeClassGate(committed: sizeClass, settle: options.settle, layoutFollows: options.layoutFollows)
        navigate(to: path, presenting: item, itemPath: itemPath)
        edits.removeAll()
        base = core.state
    }

    // MARK: Reads

    /// The stored revision the model is based on (0: nothing stored yet).
    public var revision: Int { core.revision }

    /// Whether the window is still being read from the store (or the session is still opening
    /// its file): the model shows an empty window meanwhile, keeps what the user does, and fills
    /// in when the read succeeds, the user's changes made again on top.
    public var isRestoring: Bool { core.isRestoring }

    /// The last thing that went wrong; the model keeps working in memory through it. Set it to
    /// `nil` once the app has shown it. Storage trouble the user should hear of is also the
    /// session's ``WindowSession/storageIssue``.
    public var lastError: WindowError? {
        get { core.lastError }
        set { core.lastError = newValue }
    }

    /// The window's own path, bottom first (up to a stored route the app cannot decode). Set, it
    /// replaces the path and leaves the item as it is.
    public var path: [R] {
        get { visible.state.path.compactMap(decoded) }
        set { userEdit { state throws in state.path = try routes(newValue, over: state.path) } }
    }

    /// The presented item, if any (also when it is laid out as a push).
    public var item: R? { visible.state.item.flatMap(decoded) }

    /// The routes stacked above the item.
    public var itemPath: [R] { visible.state.itemPath.compactMap(decoded) }

    /// What a size-class change does to the item presented now. Each presentation starts with the
    /// one ``present(_:policy:)`` gave it, or the session's ``WindowSession/Options/defaultPolicy``;
    /// set, it changes the current presentation's.
    public var policy: SizeChangePolicy {
        get { core.state.policy }
        set { userEdit { state in state.policy = newValue } }
    }

    /// The class the window lays out for now.
    public var sizeClass: SizeClass { core.gate.layoutClass }

    /// What the window shows now: the rule applied for ``sizeClass``.
    public var layout: Layout {
        let layout = visible.state.layout(for: core.gate.layoutClass)
        return Layout(
            presentation: layout.presentation, stack: layout.stack.compactMap(decoded),
            sheet: layout.sheet?.compactMap(decoded))
    }

    // MARK: For the views

    /// The window's NavigationStack path (in a `NavigationSplitView`, every column's selection and
    /// the detail column's path, in that order). Set, it is SPEC §3's edit of what is shown: a
    /// regular window's stack holds the pushed item.
    public var stack: [R] {
        get { layout.stack }
        set {
            let sizeClass = core.gate.layoutClass
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
            guard !core.sheetHeld, let route = shownSheet?.first, let value = decoded(route) else { return nil }
            sheetIDRead = core.presentationID
            return Presented(id: core.presentationID, route: value)
        }
        set {
            if let newValue {
                guard newValue.id != core.presentationID || shownSheet == nil else { return }
                present(newValue.route)
                return
            }
            guard !core.sheetHeld, shownSheet != nil, sheetIDRead == core.presentationID else { return }
            let sizeClass = core.gate.layoutClass
            userEdit { state in state.setSheetStack([], shownFor: sizeClass) }
        }
    }

    /// The routes above the sheet's root while the item is shown as a sheet.
    public var sheetPath: [R] {
        get { Array(layout.sheet?.dropFirst() ?? []) }
        set {
            let sizeClass = core.gate.layoutClass
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

    /// Presents `route`, replacing any presented item and its stack. `policy` governs this
    /// presentation only (the session's ``WindowSession/Options/defaultPolicy`` when `nil`); the
    /// next one starts from the default again, as the seed's modifier keeps its policy per use.
    public func present(_ route: R, policy: SizeChangePolicy? = nil) {
        userEdit(presenting: policy) { state throws in state.present(try encode(route)) }
    }

    /// Dismisses the presented item and its stack.
    public func dismiss() {
        userEdit { state in state.dismiss() }
    }

    /// A deep link in one edit and one revision: the window's path becomes `path`, and `item`
    /// (when given, with `itemPath` above it and `policy` for it) is presented, replacing whatever
    /// was; without an item, any presented one is dismissed.
    public func navigate(
        to path: [R], presenting item: R? = nil, itemPath: [R] = [], policy: SizeChangePolicy? = nil
    ) {
        userEdit(presenting: policy) { state throws in
            state.path = try routes(path, over: state.path)
            if let item {
                let route = try encode(item)
                if state.item != route { state.present(route) }
                state.itemPath = try routes(itemPath, over: state.itemPath)
            } else {
                state.dismiss()
            }
        }
    }

    // MARK: The environment

    /// The scene's environment, in one call: `horizontalSizeClass` (`nil` is `.unspecified`) and
    /// whether the scene phase is `.active`. Size-class changes count only once they settle (SPEC §6).
    /// The session observes other writers only while one of its windows is active.
    public func environmentChanged(sizeClass: SizeClass, isActive: Bool) {
        let wasActive = environment?.isActive
        environment = (sizeClass, isActive)
        let before = presentationSnapshot
        if let settled = core.gate.report(sizeClass, isActive: isActive, at: time.now()) { commit(settled) }
        scheduleSettle()
        refreshPresentation(since: before)
        forwardEnvironmentToTabs(sizeClass: sizeClass, isActive: isActive)
        if wasActive != isActive { host?.windowActivityChanged(self, isActive: isActive) }
    }

    /// The view's stack has appeared: a sheet presented by the same change may now show (SwiftUI
    /// presents at most one step per update).
    public func presentationReady() {
        core.sheetHeld = false
    }

    /// Marks the window as shown by a view; a second view showing it at once is reported in
    /// ``lastError``. Hand the result to ``detach(_:)`` when the view goes.
    public func attach() -> WindowAttachment {
        nextAttachment += 1
        if !attachments.isEmpty { core.lastError = .secondAttachment(window: id) }
        attachments.insert(nextAttachment)
        return WindowAttachment(number: nextAttachment)
    }

    /// The view given `attachment` no longer shows the window.
    public func detach(_ attachment: WindowAttachment) {
        attachments.remove(attachment.number)
    }

    // MARK: State

    /// What views observe.
    let core: WindowCore
    weak var host: WindowSession?
    let sessionID: String
    let time: TimeSource
    let options: WindowSession.Options
    /// The state as stored, as far as the model knows.
    var base: WindowState
    /// Local edits not yet committed, in order, each with its number.
    var edits: [(number: Int, edit: WindowEdit)] = []
    var lastEditNumber = 0
    var inFlight: (token: UInt64, lastEdit: Int, generation: Int)?
    var generation = 0
    var committedGeneration = 0
    /// The generation a failed write left unwritten (busy failures are retried instead).
    var failedGeneration: Int?
    var retryingBusy = false
    /// A write the system would not protect (the app may be suspended): kept until retried.
    var postponed = false
    var overLimits = false
    /// What each route decoded to: the cache itself keeps no `R`, so a verb's many lookups run
    /// code specialized for `Route`; the values are in ``decodedValues``.
    var decodings: [Route: RouteDecoding] = [:]
    var decodedValues: [R] = []
    /// The last ``visible`` and what it was made from: a verb reads it four times over one state.
    /// Decoding a route always gives the same answer, so the state and the gate decide it.
    var visibleMemoKey: (stateVersion: Int, hides: Bool)?
    var visibleMemo: (state: WindowState, hidden: Route?) = (WindowState(session: "", window: ""), nil)
    var presentedRoute: Route?
    /// The last ``presentationSnapshot`` and what it was made from.
    var snapshotMemo: (key: PresentationSnapshotKey, snapshot: PresentationSnapshot)?
    /// The undecodable route last named in ``lastError``, so it is named once.
    var reportedHidden: Route?
    /// The presentation id the view last read through ``sheet``: a `nil` written for an older one is late.
    var sheetIDRead: Int?
    /// The wake-up at the gate's deadline, and that deadline: a verb while a change is pending
    /// leaves the deadline as it is, so it keeps its task (a new one costs a thread's wake-up).
    var settleTimer: (deadline: Duration, task: Task<Void, Never>)?
    var environment: (sizeClass: SizeClass, isActive: Bool)?
    /// The keys of the tabs asked for (``tab(_:as:)``), and how each follows this window's environment.
    var tabs: Set<String> = []
    var tabFollowers: [String: (SizeClass, Bool) -> Void] = [:]
    /// The tabs in the order they were asked for: the first is shown until one is selected.
    var tabOrder: [String] = []
    /// Set on a tab's model: its window holds the scene, and focuses the tab shown.
    weak var holder: AnyObject?
    /// The tabs of a window that is not stored (a preview): kept here, as the session keeps others.
    var detachedTabs: [String: AnyObject] = [:]
    private var attachments: Set<Int> = []
    private var nextAttachment = 0

    init(id: String, kind: String?, in host: WindowSession) {
        self.id = id
        self.kind = kind
        self.host = host
        self.sessionID = host.session
        self.time = host.time
        self.options = host.options
        let empty = WindowState(session: host.session, window: id)
        core = WindowCore(
            state: empty,
            gate: SizeClassGate(
                committed: .unspecified, settle: host.options.settle, layoutFollows: host.options.layoutFollows))
        base = empty
    }

    /// A model that works in memory only, because of `problem` (or, with none, for previews).
    init(detached id: String, session: String, options: WindowSession.Options, problem: WindowError?) {
        self.id = id
        self.kind = nil
        self.host = nil
        self.sessionID = session
        self.time = TimeSource(options.clock)
        self.options = options
        let empty = WindowState(session: session, window: id)
        core = WindowCore(
            state: empty,
            gate: SizeClassGate(committed: .unspecified, settle: options.settle, layoutFollows: options.layoutFollows))
        base = empty
        core.lastError = problem
    }
}

/// One view's claim to show a window (``WindowModel/attach()``).
public struct WindowAttachment: Hashable, Sendable {
    let number: Int
}
