/// What the screen shows for the route on top of a stack: its title in the breadcrumbs, its text,
/// and the rows the user can open from it.
struct Page {
    /// One row of the list: what it says and the route it opens.
    struct Row {
        let label: String
        let route: MailRoute
    }

    var title: String
    var lines: [String] = []
    var rows: [Row] = []

    /// The bottom of every stack: the accounts.
    static let mailboxes = {
        var page = Page(title: "Mail")
        page.rows = SampleMail.accounts.map { account in
            Row(label: "\(account.name)  <\(account.address)>", route: .account(id: account.id))
        }
        return page
    }()

    /// The page of `route`, or the mailboxes for the empty stack.
    init(_ route: MailRoute?) {
        guard let route else {
            self = .mailboxes
            return
        }
        self.init(title: Page.title(of: route))
        switch route {
        case .account(let id):
            guard let account = SampleMail.account(id) else {
                lines = ["No account '\(id)' here."]
                return
            }
            rows = account.folders.map { folder in
                let count =
                    folder == "Drafts"
                    ? SampleMail.drafts.filter { $0.account == id }.count
                    : SampleMail.threads.filter { $0.account == id && $0.folder == folder }.count
                return Row(label: "\(folder) (\(count))", route: .folder(account: id, name: folder))
            }
        case let .folder(account, name) where name == "Drafts":
            rows = SampleMail.drafts.filter { $0.account == account }.map { draft in
                Row(label: "\(draft.subject)  to \(draft.to)", route: .compose(draft: draft.id))
            }
            if rows.isEmpty { lines = ["No drafts."] }
        case let .folder(account, name):
            rows = SampleMail.threads.filter { $0.account == account && $0.folder == name }.map { thread in
                let count = thread.messages.count
                return Row(
                    label: "\(thread.subject)  (\(count) message\(count == 1 ? "" : "s"))",
                    route: .thread(id: thread.id))
            }
            if rows.isEmpty { lines = ["No mail in \(name)."] }
        case .thread(let id):
            guard let thread = SampleMail.thread(id) else {
                lines = ["No thread \(id) here."]
                return
            }
            rows = thread.messages.map { message in
                Row(
                    label: "\(Page.name(message.from))  \(message.date)  \(message.body.first ?? "")",
                    route: .message(id: message.id))
            }
        case .message(let id):
            guard let (message, thread) = SampleMail.message(id) else {
                lines = ["No message \(id) here."]
                return
            }
            lines =
                [
                    "From:    \(message.from)", "To:      \(message.to)", "Date:    \(message.date)",
                    "Subject: \(thread.subject)", "",
                ] + message.body
        case .compose(let id):
            guard id != 0 else {
                lines = ["To:", "Subject:", "", "(a new message)"]
                return
            }
            guard let draft = SampleMail.draft(id) else {
                lines = ["No draft \(id) here."]
                return
            }
            lines = ["To:      \(draft.to)", "Subject: \(draft.subject)", ""] + draft.body + ["", "Attachments:"]
            rows = draft.attachments.map { Row(label: "\($0.name)  \($0.size)", route: .attachment(id: $0.id)) }
        case .attachment(let id):
            guard let attachment = SampleMail.attachment(id) else {
                lines = ["No attachment \(id) here."]
                return
            }
            lines = ["\(attachment.name)  \(attachment.kind), \(attachment.size)", ""] + attachment.preview
        }
    }

    private init(title: String) {
        self.title = title
    }

    /// The route's name in the breadcrumbs and in a sheet's frame.
    static func title(of route: MailRoute) -> String {
        switch route {
        case .account(let id): SampleMail.account(id)?.name ?? "Account '\(id)'"
        case .folder(_, let name): name
        case .thread(let id): SampleMail.thread(id)?.subject ?? "Thread \(id)"
        case .message(let id): SampleMail.message(id).map { "From \(name($0.0.from))" } ?? "Message \(id)"
        case .compose(let id): id == 0 ? "New message" : SampleMail.draft(id)?.subject ?? "Draft \(id)"
        case .attachment(let id): SampleMail.attachment(id)?.name ?? "Attachment \(id)"
        }
    }

    /// "Grace Hopper" of "Grace Hopper <grace@work.example>".
    private static func name(_ address: String) -> String {
        guard let bracket = address.firstIndex(of: "<") else { return address }
        return String(address[..<bracket]).trimmingSuffix(" ")
    }
}

extension String {
    fileprivate func trimmingSuffix(_ character: Character) -> String {
        var text = self
        while text.last == character { text.removeLast() }
        return text
    }
}
