#if canImport(SwiftUI)
    import Foundation
    import StateStoreHost
    import StateStoreSwiftUI
    import SwiftUI

    // MARK: - wiring: the app and its two kinds of window

    /// The sample app: a mail window (a split view) and a browse window (two tabs), as many of
    /// each as the user opens, every one restored into the size class it has now.
    @main
    struct MailApp: App {
        @State private var session = WindowSession(session: "main", appGroup: MailRoute.appGroup)

        var body: some Scene {
            AdaptiveWindowGroup(id: "mail", session: session, routes: MailRoute.self) { window in
                MailWindow(window: window)
                    .storageIssueAlert(session)
                    .onOpenURL { url in
                        guard let link = MailLink(url) else { return }
                        window.navigate(to: link.path, presenting: link.item)
                    }
            }
            AdaptiveWindowGroup(id: "browse", session: session, routes: MailRoute.self) { window in
                BrowseWindow(window: window)
                    .storageIssueAlert(session)
            }
        }
    }
#endif
