import StateStoreHost

/// What a mailhost window's navigation stack holds, stored as `mailhost.MailRoute` routes: the
/// value is the case as `JSONEncoder` writes it, `{"message":{"id":11}}`, so that
/// `statectl set mailhost main --present 'mailhost.MailRoute:{"message":{"id":11}}'` presents one.
enum MailRoute: Codable, Hashable, RouteRepresentable {
    case account(id: String)
    case folder(account: String, name: String)
    case thread(id: Int)
    /// Presented as the window's item.
    case message(id: Int)
    /// Presented as the window's item; draft 0 is a new, empty message.
    case compose(draft: Int)
    /// Pushed above the compose that carries it.
    case attachment(id: Int)

    /// Whether opening this route presents it as the window's item, rather than pushing it.
    var isPresented: Bool {
        switch self {
        case .message, .compose: true
        case .account, .folder, .thread, .attachment: false
        }
    }
}
