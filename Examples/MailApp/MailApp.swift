#if canImport(SwiftUI)
    import Foundation
    import StateStoreHost
    import StateStoreSwiftUI
    import SwiftUI

    // MARK: - wiring: the app and its two kinds of window

    /// The sample app: mail windows (a split view) and browse windows (three tabs), as many of each
    /// as the user opens, every one restored into the size class it has now. Both groups' windows
    /// are of kind `mail`, which the share extension addresses; the browse window's Settings tab is
    /// of kind `settings`, so a shared link never lands there.
    @main
    struct MailApp: App {
        @State private var session = WindowSession(appGroup: MailRoute.appGroup)

        var body: some Scene {
            AdaptiveWindowGroup(id: "mail", session: session, routes: MailRoute.self) { window in
                MailWindow(window: window)
                    .onOpenURL { url in
                        guard let link = MailLink(url) else { return }
                        window.navigate(sidebar: link.folder, content: link.thread, presenting: link.compose)
                    }
            }
            AdaptiveWindowGroup(id: "browse", kind: "mail", session: session, routes: MailRoute.self) { window in
                BrowseWindow(window: window)
            }
        }
    }
#endif
