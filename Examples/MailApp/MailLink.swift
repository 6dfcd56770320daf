import Foundation
import StateStoreHost

// MARK: - mail: the app's links

/// `mail://FOLDER/THREAD[/compose]`: a folder, a thread in it, and a compose over it.
struct MailLink {
    let path: [MailRoute]
    let item: MailRoute?

    init?(_ url: URL) {
        guard url.scheme == "mail", let folder = url.host else { return nil }
        let parts = url.pathComponents.filter { $0 != "/" }
        let thread = parts.first.flatMap(Int.init)
        path = [.folder(folder)] + (thread.map { [.thread($0)] } ?? [])
        item = parts.dropFirst().first == "compose" ? .compose(draft: thread ?? 0) : nil
    }
}
