#if canImport(SwiftUI)
    import StateStore
    import StateStoreHost
    import SwiftUI

    /// A `TabView` with a stack per tab over one window: each tab is a window of its own
    /// (``WindowModel/tab(_:)``), persisted, adaptive (laid out for the class its scene reports)
    /// and discarded with its scene; the selected tab is kept with the window. A link routes into
    /// a tab through `window.tab(key)` and selects it with `window.selectedTab = key`.
    ///
    /// ```swift
    /// AdaptiveTabView(window, tabs: ["inbox", "search"]) { key, tab in
    ///     AdaptiveNavigationStack(tab) { TabRoot(key) } destination: { RouteView(route: $0) }
    ///         .tabItem { Label(key, systemImage: "tray") }
    /// }
    /// ```
    public struct AdaptiveTabView<R: RouteRepresentable, Tab: View>: View {
        @Bindable private var window: WindowModel<R>
        private let tabs: [String]
        private let content: (String, WindowModel<R>) -> Tab

        /// A tab for each key of `tabs`, in that order, each shown by `content` with its model; the
        /// first is shown until one is selected.
        public init(
            _ window: WindowModel<R>, tabs: [String],
            @ViewBuilder content: @escaping (_ key: String, _ tab: WindowModel<R>) -> Tab
        ) {
            self.window = window
            self.tabs = tabs
            self.content = content
        }

        /// The tab view.
        public var body: some View {
            TabView(selection: $window[selectedTab: tabs.first ?? ""]) {
                ForEach(tabs, id: \.self) { key in
                    content(key, window.tab(key)).tag(key)
                }
            }
        }
    }
#endif
