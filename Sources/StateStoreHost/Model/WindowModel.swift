import Observation
import StateStore

/// One live window: what its views bind to, restored from the store, written back as it changes,
/// and changed by other processes' writes.
///
/// Views read ``stack``, ``sheet`` and ``sheetPath`` and bind them through `@Bindable`; a split
/// view binds its columns' selections, each of the app's own type (``subscript(sidebar:)``,
/// ``subscript(content:)``), and a tab view the tab it shows (``subscript(selectedTab:)``); the
/// scene feeds ``environmentChanged(sizeClass:isActive:)``. Every change shows at once; the
/// writes follow on the session's own queue. The model holds no SwiftUI types.
///
/// What views observe lives in one non-generic `@Observable` core; this typed face converts the
/// store's routes to and from `R`, and a plain value (`WindowSync`) keeps how the window stands
/// against the store.
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
    /// and environment work as a stored window's do; nothing is written. Its sheet shows at once.
    public convenience init(
        previewing path: [R] = [], item: R? = nil, itemPath: [R] = [], sizeClass: SizeClass = .regular,
        options: WindowSession.Options = WindowSession.Options()
    ) {
        self.init(
            detached: "preview", session: "preview", options: options,
            problem: RouteTypeName.isStable(R.routeType) ? nil : .unstableRouteType(R.routeType))
        guard core.lastError == nil else { return }
        core.gate = SizeClassGate(committed: sizeClass, settle: options.settle, layoutFollows: options.layoutFollows)
        do {
            let routes = try path.map(encode)
            let item = try item.map(encode)
            let itemPath = try itemPath.map(encode)
            var state = sync.local
            state.sizeClass = sizeClass
            for edit in WindowEdit.navigate(over: state, to: routes, presenting: item, itemPath: itemPath) {
                try state.apply(edit)
            }
            if item != nil { state.policy = options.defaultPolicy }
            sync = WindowSync(empty: state, restoring: false)
            core.state = state
            refreshPresentation(since: presentationSnapshot)
            core.sheetHeld = false  // nothing was shown before: the sheet shows with its stack
        } catch {
            core.lastError = .unencodableRoute(reason: "\(error)")
        }
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

    /// The window's own path, bottom first (up to a stored route the app cannot decode), after a
    /// split view's column selections. Views bind ``stack``; code changes the window with the verbs
    /// (``push(_:)``, ``pop(_:)``, ``present(_:policy:)``, ``dismiss()``,
    /// ``navigate(to:presenting:itemPath:policy:)``).
    public var path: [R] {
        let path = visible.state.path
        return path.dropFirst(ColumnSelection.count(in: path)).compactMap(decoded)
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
        set { userEdit { state in state.policy == newValue ? [] : [.setPolicy(newValue)] } }
    }

    /// The class the window lays out for now.
    public var sizeClass: SizeClass { core.gate.layoutClass }

    /// What the window shows now: the rule applied for ``sizeClass``.
    public var layout: Layout {
        let state = visible.state
        let layout = state.layout(for: core.gate.layoutClass)
        return Layout(
            presentation: layout.presentation,
            stack: layout.stack.dropFirst(ColumnSelection.count(in: state.path)).compactMap(decoded),
            sheet: layout.sheet?.compactMap(decoded))
    }

    // MARK: For the views

    /// The window's `NavigationStack` path (in a `NavigationSplitView`, the detail column's, after
    /// the columns' selections). Set, it is the edit of what is shown: a regular window's stack
    /// holds the pushed item. Bind it: `NavigationStack(path: $window.stack)`.
    public var stack: [R] {
        get { layout.stack }
        set {
            let sizeClass = core.gate.layoutClass
            userEdit { state throws in
                let shown = state.layout(for: sizeClass).stack
                let columns = ColumnSelection.count(in: state.path)
                let stack = Array(shown.prefix(columns)) + (try routes(newValue, over: Array(shown.dropFirst(columns))))
                return state.stackEdit(to: stack, shownFor: sizeClass).map { [.stack($0)] } ?? []
            }
        }
    }

    /// The sheet's root while the item is shown as a sheet. SwiftUI writes `nil` when the user
    /// dismisses it; a `nil` for a presentation that is no longer current dismisses nothing.
    public var sheet: Presented<R>? {
        get {
            guard !core.sheetHeld, let route = shownSheet?.first, let value = decoded(route) else { return nil }
            presentation.sheetIDRead = core.presentationID
            return Presented(id: core.presentationID, route: value)
        }
        set {
            if let newValue {
                guard newValue.id != core.presentationID || shownSheet == nil else { return }
                present(newValue.route)
                return
            }
            guard !core.sheetHeld, shownSheet != nil, presentation.sheetIDRead == core.presentationID else { return }
            let sizeClass = core.gate.layoutClass
            userEdit { state in state.sheetStackEdit(to: [], shownFor: sizeClass).map { [.stack($0)] } ?? [] }
        }
    }

    /// The routes above the sheet's root while the item is shown as a sheet.
    public var sheetPath: [R] {
        get { Array(layout.sheet?.dropFirst() ?? []) }
        set {
            let sizeClass = core.gate.layoutClass
            userEdit { state throws in
                guard let shown = state.layout(for: sizeClass).sheet, let root = shown.first else { return [] }
                let stack = [root] + (try routes(newValue, over: Array(shown.dropFirst())))
                return state.sheetStackEdit(to: stack, shownFor: sizeClass).map { [.stack($0)] } ?? []
            }
        }
    }

    // MARK: Verbs

    /// Pushes onto what is on top: the item's stack when an item is presented, else the path.
    public func push(_ route: R) {
        userEdit { state throws in [WindowEdit.push(try encode(route), onto: state)] }
    }

    /// Goes back `count` steps: through the item's stack, then the item, then the path (never a
    /// split view's column selections). Going back further than there is changes nothing
    /// (``lastError`` says so).
    public func pop(_ count: Int = 1) {
        userEdit { state throws in
            let columns = ColumnSelection.count(in: state.path)
            if columns > 0 && count > state.routeCount - columns {
                throw StateStoreError.invalidInput(
                    "cannot pop \(count) routes: the window has \(state.routeCount - columns) after its columns' selections"
                )
            }
            return try WindowEdit.pop(count, from: state)
        }
    }

    /// Presents `route`, replacing any presented item and its stack. `policy` governs this
    /// presentation only (the session's ``WindowSession/Options/defaultPolicy`` when `nil`); the
    /// next one starts from the default again, as a per-use modifier would keep it.
    public func present(_ route: R, policy: SizeChangePolicy? = nil) {
        userEdit(presenting: policy) { _ throws in [.present(try encode(route))] }
    }

    /// Dismisses the presented item and its stack.
    public func dismiss() {
        userEdit { state in state.item == nil ? [] : [.dismiss] }
    }

    /// A deep link in one edit and one revision: the window's path becomes `path` (after a split
    /// view's column selections, which stay: ``navigate(sidebar:to:presenting:itemPath:policy:)``
    /// selects them too), and `item` (when given, with `itemPath` above it and `policy` for it) is
    /// presented, replacing whatever was; without an item, any presented one is dismissed.
    public func navigate(
        to path: [R], presenting item: R? = nil, itemPath: [R] = [], policy: SizeChangePolicy? = nil
    ) {
        userEdit(presenting: policy) { state throws in
            let presented = try item.map(encode)
            let above =
                presented == nil ? [] : try routes(itemPath, over: state.item == presented ? state.itemPath : [])
            let columns = Array(state.path.prefix(ColumnSelection.count(in: state.path)))
            let detail = Array(state.path.dropFirst(columns.count))
            return WindowEdit.navigate(
                over: state, to: columns + (try routes(path, over: detail)), presenting: presented, itemPath: above)
        }
    }

    // MARK: The environment

    /// The scene's environment, in one call: `horizontalSizeClass` (`nil` is `.unspecified`) and
    /// whether the scene phase is `.active`. Size-class changes count only once they settle. The
    /// session observes other writers only while one of its windows is active.
    public func environmentChanged(sizeClass: SizeClass, isActive: Bool) {
        let wasActive = shown.environment?.isActive
        shown.environment = (sizeClass, isActive)
        let before = presentationSnapshot
        if let settled = core.gate.report(sizeClass, isActive: isActive, at: link.time.now()) { commit(settled) }
        scheduleSettle()
        refreshPresentation(since: before)
        tabs.forward(sizeClass: sizeClass, isActive: isActive)
        if wasActive != isActive { link.session?.windowActivityChanged(self, isActive: isActive) }
    }

    /// The view's stack has appeared: a sheet that the same change presented may now show (SwiftUI
    /// presents at most one step per update). The adaptive views call it for every model whose
    /// sheet they bind; a window's call covers its tabs.
    public func presentationReady() {
        if core.sheetHeld { core.sheetHeld = false }
        tabs.forEach { $0.presentationReady() }
    }

    /// A view began showing the window: `StateStoreSwiftUI`'s `AdaptiveWindow` says so from its
    /// `onAppear`, as a view of the app's own that shows a window does. A second view showing it
    /// at once is reported in ``lastError``.
    public func viewAppeared() {
        shown.views += 1
        if shown.views > 1 { report(.secondAttachment(window: id)) }
    }

    /// A view that showed the window is gone (its `onDisappear`).
    public func viewDisappeared() {
        shown.views = max(0, shown.views - 1)
    }

    // MARK: State

    /// What views observe.
    let core: WindowCore
    /// The session, and what a model needs of it when it has none.
    var link: SessionLink
    /// How the window stands against the store.
    var sync: WindowSync
    /// What the window's routes decoded to, and what the user sees of them.
    var routes = RouteMemo()
    /// The decoded values, at the positions ``routes`` keeps.
    var decodedValues: [R] = []
    /// Presentation ids and the sheet's last read.
    var presentation = PresentationTracker()
    /// The wake-up at the size-class gate's deadline.
    var settleTimer: (deadline: Duration, task: Task<Void, Never>)?
    /// What the scene last said, and how many views show the window.
    var shown = Shown()
    /// The tabs this window holds, or the window holding this tab.
    var tabs = TabSet()
    /// Which stored routes the app's data still resolves.
    var routeFilter: ((R) -> Bool)?

    init(id: String, kind: String?, in session: WindowSession, restored: WindowStore.RestoredWindow?) {
        self.id = id
        self.kind = kind
        link = SessionLink(session: session)
        let empty = WindowState(session: session.session, window: id)
        core = WindowCore(
            state: empty,
            gate: SizeClassGate(
                committed: .unspecified, settle: session.options.settle, layoutFollows: session.options.layoutFollows))
        sync = WindowSync(empty: empty, restoring: true, firstToken: session.nextTokenBase())
        core.isRestoring = true
        if let restored { self.restored(restored) }
    }

    /// A model that works in memory only, because of `problem` (or, with none, for previews).
    init(detached id: String, session: String, options: WindowSession.Options, problem: WindowError?) {
        self.id = id
        self.kind = nil
        link = SessionLink(sessionID: session, options: options)
        let empty = WindowState(session: session, window: id)
        core = WindowCore(
            state: empty,
            gate: SizeClassGate(committed: .unspecified, settle: options.settle, layoutFollows: options.layoutFollows))
        sync = WindowSync(empty: empty, restoring: false)
        core.lastError = problem
    }
}

/// Where a window is shown: what its scene last said, and how many views show it now.
struct Shown {
    /// The scene's size class and activity, once it has said.
    var environment: (sizeClass: SizeClass, isActive: Bool)?
    /// How many views show the window now: a second at once is a mistake the model reports.
    var views = 0
}
