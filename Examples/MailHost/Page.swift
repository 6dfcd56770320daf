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

    /// The bottom of every stack: the folders.
    static let mailboxes = {
        var page = Page(title: "Mail")
        page.rows = SampleMail.folders.map { folder in
            let count =
                folder == "Drafts" ? SampleMail.drafts.count : SampleMail.threads(in: folder).count
            return Row(label: "\(folder) (\(count))", route: .folder(folder))
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
        case .folder("Drafts"):
            rows = SampleMail.drafts.map { Row(label: "\($0.subject)  to \($0.to)", route: .compose(draft: $0.id)) }
        case .folder(let name):
            rows = Page.threadRows(SampleMail.threads(in: name))
            if rows.isEmpty { lines = ["No mail in \(name)."] }
        case .thread(let id):
            guard let thread = SampleMail.thread(id) else {
                lines = ["No thread \(id) here."]
                return
            }
            rows = thread.messages.map { message in
                Row(
                    label: "\(SampleMail.name(message.from))  \(message.date)  \(message.body.first ?? "")",
                    route: .message(message.id))
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
            // What the sample app's compose offers, as rows: attaching searches the mail.
            rows = [Row(label: "Attach…", route: .search("attachments"))]
            guard let draft = SampleMail.draft(id) else {
                lines = ["To:", "Subject:", "", id == 0 ? "(a new message)" : "(draft \(id))"]
                return
            }
            lines = ["To:      \(draft.to)", "Subject: \(draft.subject)", ""] + draft.body
            lines += ["", "Attached: " + draft.attachments.joined(separator: ", ")]
        case .search(let text):
            rows = Page.threadRows(SampleMail.search(text))
            if rows.isEmpty { lines = ["Nothing holds '\(text)'."] }
        }
    }

    /// A row for each of the threads `ids`, which opens it.
    private static func threadRows(_ ids: [Int]) -> [Row] {
        ids.compactMap(SampleMail.thread).map { thread in
            let count = thread.messages.count
            return Row(
                label: "\(thread.subject)  (\(count) message\(count == 1 ? "" : "s"))", route: .thread(thread.id))
        }
    }

    private init(title: String) {
        self.title = title
    }

    /// The route's name in the breadcrumbs and in a sheet's frame.
    static func title(of route: MailRoute) -> String {
        switch route {
        case .folder(let name): name
        case .thread(let id): SampleMail.thread(id)?.subject ?? "Thread \(id)"
        case .message(let id): SampleMail.message(id).map { "From \(SampleMail.name($0.0.from))" } ?? "Message \(id)"
        case .compose(let id): id == 0 ? "New message" : SampleMail.draft(id)?.subject ?? "Draft \(id)"
        case .search(let text): "Search: \(text)"
        }
    }
}

extension MailRoute {
    /// Whether opening this route presents it as the window's item, rather than pushing it.
    var isPresented: Bool {
        switch self {
        case .message, .compose: true
        case .folder, .thread, .search: false
        }
    }
}
