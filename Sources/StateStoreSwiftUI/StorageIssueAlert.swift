#if canImport(SwiftUI)
    import StateStoreHost
    import SwiftUI

    extension View {
        /// Shows the session's ``/StateStoreHost/WindowSession/storageIssue`` — storage trouble the
        /// user should hear of, never a programmer's mistake — as an alert, and clears it when the
        /// user dismisses it: the one binding an app needs (`$session.isShowingStorageIssue`).
        public func storageIssueAlert(_ session: WindowSession) -> some View {
            modifier(StorageIssueAlert(session: session))
        }
    }

    /// ``View/storageIssueAlert(_:)``, bound through `@Bindable`.
    struct StorageIssueAlert: ViewModifier {
        @Bindable var session: WindowSession

        func body(content: Content) -> some View {
            content.alert("Saving", isPresented: $session.isShowingStorageIssue, presenting: session.storageIssue) {
                _ in
                Button("OK") {}
            } message: { issue in
                Text(issue.message)
            }
        }
    }
#endif
