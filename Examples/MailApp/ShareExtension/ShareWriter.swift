import StateStore
import StateStoreHost

// MARK: - app: what the share extension does with what the user shares

/// The share extension (a module of its own, compiling the app's `MailRoute` file): the link the
/// user shared becomes a compose in the mail window they last looked at — the latest window or tab
/// of kind `mail`, never the Settings tab — or in none if no mail window was ever shown. The app
/// shows it at once.
enum ShareWriter {
    static func compose(_ sharedText: String) throws {
        let draft = try MailRoute.compose(draft: sharedText.count).route()
        // One write, inside a background activity: iOS would otherwise suspend the extension while
        // it holds the shared file's lock.
        try WindowStore.perform(inAppGroup: MailRoute.appGroup) { store in
            try store.updateFocusedWindow(session: WindowSession.defaultName, kind: "mail") { $0.present(draft) }
        }
    }
}
