#if canImport(SwiftUI)
    import StateStoreHost
    import SwiftUI

    // MARK: - app: the app's own views and sample mail

    struct FolderList: View {
        @Binding var selection: String?

        var body: some View {
            List(selection: $selection) {
                ForEach(SampleMail.folders, id: \.self) { folder in
                    Text(folder).tag(folder)
                }
            }
        }
    }

    struct ThreadList: View {
        let folder: String?
        @Binding var selection: Int?

        var body: some View {
            List(selection: $selection) {
                ForEach(SampleMail.threads(in: folder), id: \.self) { thread in
                    Text(SampleMail.subject(of: thread)).tag(thread)
                }
            }
        }
    }

    struct ThreadView: View {
        let thread: Int?
        let window: WindowModel<MailRoute>

        var body: some View {
            if let id = thread {
                List {
                    ForEach(SampleMail.messages(in: id), id: \.self) { message in
                        NavigationLink(value: MailRoute.message(message)) { Text(SampleMail.subject(of: message)) }
                    }
                    Button("Reply") { window.present(.compose(draft: id)) }
                }
            } else {
                Text("No thread selected")
            }
        }
    }

    struct TabRoot: View {
        let tab: BrowseTab

        var body: some View {
            List {
                ForEach(tab == .inbox ? SampleMail.threads(in: "Inbox") : [], id: \.self) { thread in
                    NavigationLink(value: MailRoute.thread(thread)) { Text(SampleMail.subject(of: thread)) }
                }
            }
        }
    }

    struct RouteView: View {
        let route: MailRoute
        let window: WindowModel<MailRoute>

        var body: some View {
            switch route {
            case .compose(let draft):
                List {
                    Text("Draft \(draft)")
                    NavigationLink(value: MailRoute.search("attachments")) { Text("Attach…") }
                    Button("Send") { window.dismiss() }
                }
            case .folder(let name): Text(name)
            case .thread(let id), .message(let id): Text(SampleMail.subject(of: id))
            case .search(let text): Text("Results for \(text)")
            }
        }
    }

#endif
