#if canImport(SwiftUI)
    import StateStoreHost
    import SwiftUI

    // MARK: - app: the browse window's tabs, the settings, and the button that opens a browse window

    /// The browse window's tabs.
    enum BrowseTab: String, CaseIterable, TabKey {
        case inbox, search, settings
    }

    /// What the settings tab can show: routes of their own, not mail.
    enum SettingsRoute: Codable, Hashable, RouteRepresentable {
        case account
        case signature
    }

    struct SettingsRoot: View {
        var body: some View {
            List {
                NavigationLink(value: SettingsRoute.account) { Text("Account") }
                NavigationLink(value: SettingsRoute.signature) { Text("Signature") }
            }
        }
    }

    struct SettingsView: View {
        let route: SettingsRoute

        var body: some View {
            switch route {
            case .account: Text("you@example.com")
            case .signature: Text("Sent from the sample")
            }
        }
    }

    /// Opens a browse window: on an iPad or a Mac, a second window; an iPhone has one.
    struct OpenBrowseWindow: View {
        #if !canImport(WatchKit) && !os(tvOS)
            @Environment(\.openWindow) private var openWindow

            var body: some View {
                Button("Browse") { openWindow(id: "browse") }
            }
        #else
            var body: some View { EmptyView() }
        #endif
    }
#endif
