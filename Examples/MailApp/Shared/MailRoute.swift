import StateStoreHost

// MARK: - app: what a mail window can show, compiled into the app, its share extension and mailhost

/// A place in the mail app: `MailApp.MailRoute` in the app, `MailShare.MailRoute` in the share
/// extension, `mailhost.MailRoute` in the terminal host, and each reads what the others wrote.
enum MailRoute: Codable, Hashable, RouteRepresentable {
    case folder(String)
    case thread(Int)
    case message(Int)
    case compose(draft: Int)
    case search(String)
}

// MARK: - wiring: where the app and its share extension keep their windows

extension MailRoute {
    /// The App Group the app and its share extension keep their windows in: named once, here.
    static let appGroup = "group.com.example.mail"
}
