#if canImport(SwiftUI)
    import StateStoreHost
    import StateStoreSwiftUI
    import SwiftUI

    // MARK: - wiring: split-view window

    /// Folders, their threads, a thread's messages: three columns when the window is regular, one
    /// stack when it is compact; a compose is pushed or a sheet, as the window's class says.
    struct MailWindow: View {
        let window: WindowModel<MailRoute>

        var body: some View {
            AdaptiveSplitView(window, sidebar: String.self, content: Int.self) { folder in
                FolderList(selection: folder)
            } content: { folder, thread in
                ThreadList(folder: folder, selection: thread)
            } detail: { thread in
                ThreadView(thread: thread, window: window)
            } destination: { route in
                RouteView(route: route, window: window)
            }
            .toolbar { OpenBrowseWindow() }
        }
    }

    // MARK: - wiring: three-tab window

    /// An inbox, a search and the settings, each with a stack of its own, kept with the window. The
    /// settings tab keeps routes of its own type, and is of its own kind.
    struct BrowseWindow: View {
        let window: WindowModel<MailRoute>

        var body: some View {
            AdaptiveTabView(window, tabs: BrowseTab.self) { key in
                if key == .settings {
                    AdaptiveNavigationStack(window.tab(key, as: SettingsRoute.self, kind: "settings")) {
                        SettingsRoot()
                    } destination: { route in
                        SettingsView(route: route)
                    }
                    .tabItem { Label("Settings", systemImage: "gear") }
                } else {
                    AdaptiveNavigationStack(window.tab(key)) {
                        TabRoot(tab: key)
                    } destination: { route in
                        RouteView(route: route, window: window.tab(key))
                    }
                    .tabItem { Label(key.rawValue, systemImage: key == .inbox ? "tray" : "magnifyingglass") }
                }
            }
        }
    }
#endif
