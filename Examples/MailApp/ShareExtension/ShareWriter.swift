import StateStore
import StateStoreHost

// MARK: - mail: what the share extension does with what the user shares

/// The share extension (a module of its own, compiling the app's `MailRoute` file): the link the
/// user shared becomes a compose in the mail window they were looking at — the latest window of
/// kind `mail` — or in none if no mail window was ever shown. The app shows it at once.
enum ShareWriter {
    static func compose(_ sharedText: String) throws {
        let draft = try MailRoute.compose(draft: sharedText.count).route()
        // One write, inside a background activity: iOS would otherwise suspend the extension while
        // it holds the shared file's lock.
        try WindowStore.perform(inAppGroup: MailRoute.appGroup) { store in
            guard let window = try store.focusedWindow(session: "main", kind: "mail") else { return }
            try store.update(session: "main", window: window) { state in state.present(draft) }
        }
    }
}
