import StateStore

// A TabView with a stack per tab (SPEC §6.1, "Tabs"): each tab is a window of its own in the
// store, `ID/TAB`, restored, persisted and adaptive like any other, laid out for the class its
// scene reports to the window that holds it, and discarded with it.

extension WindowModel {
    /// The model of the tab `key` of this window: a window of its own (its id is this window's id,
    /// `/`, then `key`), made and restored on first use, the same instance afterwards. It follows
    /// this window's environment: the scene feeds only the window that holds the tabs. Route a
    /// link into a tab through it.
    public func tab(_ key: String) -> WindowModel<R> {
        tab(key, as: R.self)
    }

    /// The model of the tab `key`, its routes of another type than this window's.
    public func tab<T: RouteRepresentable>(_ key: String, as type: T.Type) -> WindowModel<T> {
        let tabID = id + "/" + key
        let model: WindowModel<T>
        if let host {
            model = host.window(tabID, as: T.self, kind: kind)
        } else {
            if let existing = detachedTabs[key] as? WindowModel<T> { return existing }
            model = WindowModel<T>(detached: tabID, session: sessionID, options: options, problem: nil)
            detachedTabs[key] = model
        }
        model.holder = self
        if tabs.insert(key).inserted {
            tabOrder.append(key)
            if let environment {
                model.environmentChanged(sizeClass: environment.sizeClass, isActive: environment.isActive)
            }
        }
        tabFollowers[key] = { [weak model] sizeClass, isActive in
            model?.environmentChanged(sizeClass: sizeClass, isActive: isActive)
        }
        return model
    }

    /// The tab this window shows, by key (`nil`: none chosen yet, the first). Kept with the window
    /// across launches. Bind it as a `TabView`'s selection with `$window[selectedTab: "inbox"]`.
    public var selectedTab: String? {
        get { core.selectedTab }
        set {
            guard newValue != core.selectedTab else { return }
            core.selectedTab = newValue
            host?.tabSelected(newValue, in: self)
        }
    }

    /// ``selectedTab``, or `first` when none was chosen: a `TabView`'s selection.
    public subscript(selectedTab first: String) -> String {
        get { selectedTab ?? first }
        set { selectedTab = newValue }
    }

    /// Tells the tabs what the scene told this window.
    func forwardEnvironmentToTabs(sizeClass: SizeClass, isActive: Bool) {
        for follow in tabFollowers.values { follow(sizeClass, isActive) }
    }
}

extension WindowModel {
    /// The window an outside writer addressing the focused window should reach: the tab shown,
    /// when the window holds tabs; else the window itself.
    var focusTarget: String {
        guard let shown = selectedTab ?? tabOrder.first else { return id }
        return id + "/" + shown
    }

    /// Whether this is the model of a tab: its window reports the scene's activity and focus.
    var isTab: Bool { holder != nil }

    var holderID: String? { (holder as? any HostedWindow)?.id }
}
