import Foundation
import StateStoreHost

// MARK: - app: the app's links

/// `mail://FOLDER/THREAD[/compose]`: a folder, a thread in it, and a compose over it.
struct MailLink {
    let folder: String
    let thread: Int
    let compose: MailRoute?

    init?(_ url: URL) {
        guard url.scheme == "mail", let folder = url.host else { return nil }
        let parts = url.pathComponents.filter { $0 != "/" }
        guard let thread = parts.first.flatMap(Int.init) else { return nil }
        self.folder = folder
        self.thread = thread
        compose = parts.dropFirst().first == "compose" ? .compose(draft: thread) : nil
    }
}
