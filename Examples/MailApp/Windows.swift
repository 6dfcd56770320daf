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
            AdaptiveSplitView(window) { folder in
                FolderList(selection: folder)
            } content: { folder, thread in
                ThreadList(folder: folder, selection: thread)
            } detail: { thread in
                ThreadView(thread: thread, window: window)
            } destination: { route in
                RouteView(route: route, window: window)
            }
        }
    }

    // MARK: - wiring: two-tab window

    /// An inbox and a search, each with a stack of its own, kept with the window.
    struct BrowseWindow: View {
        let window: WindowModel<MailRoute>

        var body: some View {
            AdaptiveTabView(window, tabs: ["inbox", "search"]) { key, tab in
                AdaptiveNavigationStack(tab) {
                    TabRoot(key: key)
                } destination: { route in
                    RouteView(route: route, window: tab)
                }
                .tabItem { Label(key, systemImage: key == "inbox" ? "tray" : "magnifyingglass") }
            }
        }
    }
#endif
