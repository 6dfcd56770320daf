#if canImport(SwiftUI)
    import Foundation
    import StateStoreHost
    import SwiftUI

    /// The session's ``/StateStoreHost/WindowSession/storageIssue`` — storage trouble the user
    /// should hear of, never a programmer's mistake — as an alert in the focused window only, cleared
    /// when the user dismisses it. ``AdaptiveWindow`` applies it unless the session's
    /// ``/StateStoreHost/WindowSession/Options/presentsStorageIssues`` is off.
    ///
    /// Its title ("Saving"), button ("OK") and messages (``/StateStoreHost/StorageIssue/message``)
    /// are keys of the app's `StateStore` strings table (`StateStore.strings` or
    /// `StateStore.xcstrings` in the app's bundle), English when the app has none.
    struct StorageIssueAlert: ViewModifier {
        @Bindable var session: WindowSession
        let window: String

        func body(content: Content) -> some View {
            if session.options.presentsStorageIssues {
                content.alert(
                    Self.localized("Saving"), isPresented: $session[showsStorageIssueIn: window],
                    presenting: session.storageIssue
                ) { _ in
                    Button(Self.localized("OK")) {}
                } message: { issue in
                    Text(Self.localized(issue.message))
                }
            } else {
                content
            }
        }

        /// `text` from the app's `StateStore` table, itself without a translation.
        static func localized(_ text: String) -> String {
            Bundle.main.localizedString(forKey: text, value: text, table: "StateStore")
        }
    }
#endif
