import StateStore

// A TabView with a stack per tab: each tab is a window of its own in the store, `ID/TAB`,
// restored, persisted and adaptive like any other, laid out for the class its scene reports to the
// window that holds it, and discarded with it.

/// What a window holding tabs asks of each tab's model, whatever its route type.
@MainActor
protocol TabModel: AnyObject {
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
    /// `/`, then `key`), made and restored on first use, the same instance afterwards. It follows
    /// this window's environment: the scene feeds only the window that holds the tabs. Route a
    /// link into a tab through it.
    public func tab(_ key: String) -> WindowModel<R> {
        tab(key, as: R.self)
    }

    /// The model of the tab `key`, its routes of another type than this window's.
    public func tab<T: RouteRepresentable>(_ key: String, as type: T.Type) -> WindowModel<T> {
        if let existing = tabs.model(key) as? WindowModel<T> { return existing }
        let tabID = id + "/" + key
        let model: WindowModel<T>
        if let session = link.session {
            model = session.window(tabID, as: T.self, kind: kind)
        } else {
            model = WindowModel<T>(detached: tabID, session: link.sessionID, options: link.options, problem: nil)
        }
        model.tabs.holder = self
        if tabs.model(key) == nil {
            tabs.add(key, model)
            if let environment {
                model.environmentChanged(sizeClass: environment.sizeClass, isActive: environment.isActive)
            }
        }
        return model
    }

    /// The tab this window shows, by key (`nil`: none chosen yet, the first). Kept with the window
    /// as part of its state: a revision, in its history, settable from outside (`statectl set
    /// --tab`). A key the store refuses (empty, over 256 bytes, a control character) is not
    /// selected, and ``lastError`` says why.
    public var selectedTab: String? {
        get { core.state.selectedTab }
        set {
            userEdit { state in
                let same =
                    switch (newValue, state.selectedTab) {
                    case (nil, nil): true
                    case (let new?, let old?): new.isSameID(as: old)
                    default: false
                    }
                return same ? [] : [.selectTab(newValue)]
            }
        }
    }

    /// ``selectedTab``, or `first` when none was chosen: a `TabView`'s selection.
    public subscript(selectedTab first: String) -> String {
        get { selectedTab ?? first }
        set { selectedTab = newValue }
    }

    /// The window an outside writer addressing the focused window should reach: the tab shown,
    /// when the window holds tabs; else the window itself.
    var focusTarget: String {
        guard let shown = selectedTab ?? tabs.first else { return id }
        return id + "/" + shown
    }

    /// The id of the window holding this tab, for a tab.
    var holderID: String? { tabs.holder?.id }
}
