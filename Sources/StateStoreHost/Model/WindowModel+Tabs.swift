import StateStore

// A TabView with a stack per tab: each tab is a window of its own in the store, `ID/TAB`,
// restored, persisted and adaptive like any other, laid out for the class its scene reports to the
// window that holds it, and discarded with it.

/// What a window holding tabs asks of each tab's model, whatever its route type.
@MainActor
protocol TabModel: AnyObject {
    var kind: String? { get }
    func environmentChanged(sizeClass: SizeClass, isActive: Bool)
    func presentationReady()
}

extension WindowModel: TabModel {}

/// The tabs a window holds, in the order they were asked for, or the window that holds this tab.
@MainActor
struct TabSet {
    /// The tabs, by key: the first is shown until one is selected.
    private(set) var tabs: [(key: String, model: any TabModel)] = []
    /// Set on a tab's model: the window holding it, which reports the scene's activity and focus.
    weak var holder: (any HostedWindow)?

    /// The tab `key`'s model, if it was asked for.
    func model(_ key: String) -> (any TabModel)? {
        tabs.first { $0.key.isSameID(as: key) }?.model
    }

    mutating func add(_ key: String, _ model: any TabModel) {
        tabs.append((key, model))
    }

    /// The first tab's key.
    var first: String? { tabs.first?.key }

    /// Tells every tab what the scene told the window.
    func forward(sizeClass: SizeClass, isActive: Bool) {
        for tab in tabs { tab.model.environmentChanged(sizeClass: sizeClass, isActive: isActive) }
    }

    func forEach(_ body: (any TabModel) -> Void) {
        for tab in tabs { body(tab.model) }
    }
}

extension WindowModel {
    /// The model of the tab `key` of this window: a window of its own (its id is this window's id,
    /// `/`, then the key's text), made and restored on first use, the same instance afterwards. It
    /// follows this window's environment: the scene feeds only the window that holds the tabs.
    /// Route a link into a tab through it.
    ///
    /// `kind` is the tab's own kind (`settings`), recorded with its focus: an outside writer that
    /// addresses the focused window of a kind (`statectl set --focused --kind mail`) reaches the
    /// latest tab of that kind, never a tab of another kind. Without one, the tab is of this
    /// window's kind. The kind a tab's first use gives it is kept.
    public func tab<Key: TabKey>(_ key: Key, kind: String? = nil) -> WindowModel<R> {
        tab(key, as: R.self, kind: kind)
    }

    /// The model of the tab `key`, its routes of another type than this window's (a Settings tab
    /// in a mail window): see ``tab(_:kind:)``.
    public func tab<Key: TabKey, T: RouteRepresentable>(
        _ key: Key, as type: T.Type, kind: String? = nil
    ) -> WindowModel<T> {
        let key = key.tabKey
        if let existing = tabs.model(key) {
            if let model = existing as? WindowModel<T> { return model }
        }
        let tabID = id + "/" + key
        let model: WindowModel<T>
        if let session = link.session {
            model = session.window(tabID, as: T.self, kind: kind ?? self.kind)
        } else if !RouteTypeName.isStable(T.routeType) {
            model = WindowModel<T>(
                detached: tabID, session: link.sessionID, options: link.options,
                problem: .unstableRouteType(T.routeType))
        } else {
            model = WindowModel<T>(detached: tabID, session: link.sessionID, options: link.options, problem: nil)
        }
        model.tabs.holder = self
        if model.routeFilter == nil, let filter = routeFilter as? (T) -> Bool { model.keepsRoute = filter }
        if tabs.model(key) == nil {
            tabs.add(key, model)
            if let environment = shown.environment {
                model.environmentChanged(sizeClass: environment.sizeClass, isActive: environment.isActive)
            }
        }
        return model
    }

    /// The key of the tab this window shows, as stored (`nil`: none chosen yet). Part of the
    /// window's state: a revision, in its history, settable from outside (`statectl set --tab`).
    /// Views select a tab through ``subscript(selectedTab:)``.
    public var selectedTab: String? { core.state.selectedTab }

    /// The tab this window shows, as the app's key type: the stored one, or the first case when
    /// none is chosen or the stored key is not one of `Key`'s (a tab the app no longer has). Set,
    /// it selects the tab: a revision, unless it is the one shown. Bind a `TabView` or a `Picker`
    /// to it: `$window[selectedTab: BrowseTab.self]`.
    public subscript<Key: TabKey & CaseIterable>(selectedTab type: Key.Type) -> Key {
        get { self[selectedTab: type, default: Key.allCases.first!] }
        set { self[selectedTab: type, default: newValue] = newValue }
    }

    /// The tab this window shows, as the app's key type, `fallback` when none is chosen or the
    /// stored key is not one of `Key`'s. Set, it selects the tab. For key types that are not
    /// `CaseIterable` (`String`): `$window[selectedTab: String.self, default: "inbox"]`.
    public subscript<Key: TabKey>(selectedTab type: Key.Type, default fallback: Key) -> Key {
        get { selectedTab.flatMap { Key(tabKey: $0) } ?? fallback }
        set {
            let key = newValue.tabKey
            userEdit { state in
                if let old = state.selectedTab, old.isSameID(as: key) { return [] }
                return [.selectTab(key)]
            }
        }
    }

    /// The selected tab, `fallback` when none: as a key path the adapter's
    /// `$window[selectedTab: BrowseTab.self]` binds through (a key path's subscript takes
    /// `Hashable` arguments, which a type is not).
    package subscript<Key: TabKey>(tabSelection fallback: Key) -> Key {
        get { self[selectedTab: Key.self, default: fallback] }
        set { self[selectedTab: Key.self, default: fallback] = newValue }
    }

    /// The window an outside writer addressing the focused window should reach, with its kind: the
    /// tab shown, when the window holds tabs; else the window itself.
    var focusTarget: (window: String, kind: String?) {
        guard let shown = selectedTab ?? tabs.first else { return (id, kind) }
        return (id + "/" + shown, tabs.model(shown)?.kind ?? kind)
    }

    /// The id of the window holding this tab, for a tab.
    var holderID: String? { tabs.holder?.id }
}
