#if canImport(SwiftUI)
    import StateStore
    import StateStoreHost
    import SwiftUI

    /// A `NavigationSplitView` over one window: its column selections and the detail column's
    /// path are the window's stack, so they persist with the window, collapse into the one stack
    /// when compact (as SwiftUI collapses the columns), and a deep link into a column is one edit
    /// (``WindowModel/navigate(to:presenting:itemPath:policy:)``). The item is pushed onto the
    /// detail column when regular and presented as a sheet otherwise. Every decision is the model's.
    ///
    /// ```swift
    /// AdaptiveSplitView(window) { folder in
    ///     FolderList(selection: folder)
    /// } content: { folder, thread in
    ///     ThreadList(folder: folder, selection: thread)
    /// } detail: { thread in
    ///     ThreadView(thread: thread)
    /// } destination: { route in
    ///     RouteView(route: route)
    /// }
    /// ```
    ///
    /// The lists select with `List(selection:)` on the bindings given, their rows tagged with
    /// routes; the detail column pushes routes with `NavigationLink(value:)`.
    public struct AdaptiveSplitView<
        R: RouteRepresentable, Sidebar: View, Content: View, Detail: View, Destination: View
    >:
        View
    {
        @Bindable private var window: WindowModel<R>
        private let sidebar: (Binding<R?>) -> Sidebar
        private let content: ((R?, Binding<R?>) -> Content)?
        private let detail: (R?) -> Detail
        private let destination: (R) -> Destination

        /// Three columns: a sidebar and a content column, each selecting a route, and a detail
        /// column showing the content column's selection, its own stack above it.
        public init(
            _ window: WindowModel<R>, @ViewBuilder sidebar: @escaping (_ selection: Binding<R?>) -> Sidebar,
            @ViewBuilder content: @escaping (_ sidebarSelection: R?, _ selection: Binding<R?>) -> Content,
            @ViewBuilder detail: @escaping (_ contentSelection: R?) -> Detail,
            @ViewBuilder destination: @escaping (R) -> Destination
        ) {
            self.window = window
            self.sidebar = sidebar
            self.content = content
            self.detail = detail
            self.destination = destination
        }

        /// The number of columns before the detail column.
        private var selectingColumns: Int { content == nil ? 1 : 2 }

        /// The split view, and the sheet when the item is shown as one.
        public var body: some View {
            if let content {
                NavigationSplitView {
                    sidebar($window[selectionInColumn: 0])
                } content: {
                    content(window[selectionInColumn: 0], $window[selectionInColumn: 1])
                } detail: {
                    detailStack
                }
                .adaptivePresentation(window, destination: destination)
            } else {
                NavigationSplitView {
                    sidebar($window[selectionInColumn: 0])
                } detail: {
                    detailStack
                }
                .adaptivePresentation(window, destination: destination)
            }
        }

        private var detailStack: some View {
            NavigationStack(path: $window[pathAfterColumns: selectingColumns]) {
                detail(window[selectionInColumn: selectingColumns - 1])
                    .navigationDestination(for: R.self, destination: destination)
            }
        }
    }

    extension AdaptiveSplitView where Content == Never {
        /// Two columns: a sidebar selecting a route, and a detail column showing it, its own stack
        /// above it.
        public init(
            _ window: WindowModel<R>, @ViewBuilder sidebar: @escaping (_ selection: Binding<R?>) -> Sidebar,
            @ViewBuilder detail: @escaping (_ sidebarSelection: R?) -> Detail,
            @ViewBuilder destination: @escaping (R) -> Destination
        ) {
            self.window = window
            self.sidebar = sidebar
            self.content = nil
            self.detail = detail
            self.destination = destination
        }
    }
#endif
