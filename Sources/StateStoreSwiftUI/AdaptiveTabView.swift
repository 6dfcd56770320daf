#if canImport(SwiftUI)
    import StateStore
    import StateStoreHost
    import SwiftUI

    /// A `TabView` over one window, its tabs named by the app's own key type: the selected tab is
    /// kept with the window, and each tab is a window of its own
    /// (``/StateStoreHost/WindowModel/tab(_:kind:)``) — persisted, adaptive (laid out for the class
    /// its scene reports), discarded with its scene, and of its own route type and kind when the
    /// app says so. A link routes into a tab through `window.tab(key)` and selects it with
    /// `window[selectedTab: BrowseTab.self] = key`.
    ///
    /// ```swift
    /// enum BrowseTab: String, CaseIterable, TabKey { case inbox, settings }
    ///
    /// AdaptiveTabView(window, tabs: BrowseTab.self) { key in
    ///     switch key {
    ///     case .inbox:
    ///         AdaptiveNavigationStack(window.tab(key)) { Inbox() } destination: { MailView(route: $0) }
    ///             .tabItem { Label("Inbox", systemImage: "tray") }
    ///     case .settings:
    ///         AdaptiveNavigationStack(window.tab(key, as: SettingsRoute.self, kind: "settings")) {
    ///             SettingsRoot()
    ///         } destination: { SettingsView(route: $0) }
    ///             .tabItem { Label("Settings", systemImage: "gear") }
    ///     }
    /// }
    /// ```
    public struct AdaptiveTabView<R: RouteRepresentable, Key: TabKey, Tab: View>: View {
        @Bindable private var window: WindowModel<R>
        private let tabs: [Key]
        private let content: (Key) -> Tab

        /// A tab for each key of `tabs`, in that order, each shown by `content`; the first is
        /// shown until one is selected.
        public init(_ window: WindowModel<R>, tabs: [Key], @ViewBuilder content: @escaping (_ key: Key) -> Tab) {
            self.window = window
            self.tabs = tabs
            self.content = content
        }

        /// The tab view.
        public var body: some View {
            if let first = tabs.first {
                TabView(selection: $window[selectedTab: Key.self, default: first]) {
                    ForEach(tabs, id: \.self) { key in
                        content(key).tag(key)
                    }
                }
            }
        }
    }

    extension AdaptiveTabView where Key: CaseIterable {
        /// A tab for each case of `tabs`, in their order, each shown by `content`; the first is
        /// shown until one is selected.
        public init(_ window: WindowModel<R>, tabs: Key.Type, @ViewBuilder content: @escaping (_ key: Key) -> Tab) {
            self.init(window, tabs: Array(Key.allCases), content: content)
        }
    }
#endif
