#if canImport(SwiftUI)
    import StateStore
    import StateStoreHost
    import SwiftUI

    /// A `NavigationSplitView` over one window: each column selects a value of the app's own type
    /// (a `Category`, a `Recipe.ID`), the detail column shows a stack of the window's routes, and the
    /// column visibility and the column a collapsed split view shows are kept too — all with the
    /// window, restored into whichever form its size class gives, settable from outside. The item
    /// is pushed onto the detail column when regular and presented as a sheet otherwise. Every
    /// decision is the model's.
    ///
    /// ```swift
    /// AdaptiveSplitView(window, sidebar: Category.self) { category in
    ///     CategoryList(selection: category)
    /// } detail: { category in
    ///     RecipeGrid(category: category)
    /// } destination: { recipe in
    ///     RecipeDetail(recipe: recipe)
    /// }
    /// ```
    ///
    /// The columns' selections are bound with `List(selection:)`, their rows tagged with the
    /// selection's type; the detail column pushes the window's routes with
    /// `NavigationLink(value:)`. Without `columnVisibility:` or `preferredCompactColumn:`, the
    /// window's own (``/StateStoreHost/WindowModel/columnVisibility``,
    /// ``/StateStoreHost/WindowModel/preferredCompactColumn``) are bound; with one, the app's.
    public struct AdaptiveSplitView<
        R: RouteRepresentable, Sidebar: View, Content: View, Detail: View, Destination: View
    >:
        View
    {
        @Bindable private var window: WindowModel<R>
        private let columnVisibility: Binding<NavigationSplitViewVisibility>?
        private let preferredCompactColumn: Binding<NavigationSplitViewColumn>?
        private let sidebar: (WindowModel<R>) -> Sidebar
        private let content: ((WindowModel<R>) -> Content)?
        private let detail: (WindowModel<R>) -> Detail
        private let destination: (R) -> Destination

        /// Three columns: the sidebar selects a `SidebarSelection`, the content column a
        /// `ContentSelection`, and the detail column shows the content column's selection, a stack
        /// of the window's routes above it.
        public init<SidebarSelection: Codable & Hashable, ContentSelection: Codable & Hashable>(
            _ window: WindowModel<R>, sidebar sidebarSelection: SidebarSelection.Type,
            content contentSelection: ContentSelection.Type,
            columnVisibility: Binding<NavigationSplitViewVisibility>? = nil,
            preferredCompactColumn: Binding<NavigationSplitViewColumn>? = nil,
            @ViewBuilder sidebar: @escaping (_ selection: Binding<SidebarSelection?>) -> Sidebar,
            @ViewBuilder content:
                @escaping (
                    _ sidebarSelection: SidebarSelection?, _ selection: Binding<ContentSelection?>
                ) -> Content,
            @ViewBuilder detail: @escaping (_ contentSelection: ContentSelection?) -> Detail,
            @ViewBuilder destination: @escaping (R) -> Destination
        ) {
            self.window = window
            self.columnVisibility = columnVisibility
            self.preferredCompactColumn = preferredCompactColumn
            self.sidebar = { window in sidebar(Bindable(window)[sidebar: SidebarSelection.self]) }
            self.content = { window in
                content(window[sidebar: SidebarSelection.self], Bindable(window)[content: ContentSelection.self])
            }
            self.detail = { window in detail(window[content: ContentSelection.self]) }
            self.destination = destination
        }

        /// The split view, and the sheet when the item is shown as one.
        public var body: some View {
            let visibility = columnVisibility ?? $window.columnVisibility.navigationSplitViewVisibility
            let compactColumn = preferredCompactColumn ?? $window.preferredCompactColumn.navigationSplitViewColumn
            if let content {
                NavigationSplitView(columnVisibility: visibility, preferredCompactColumn: compactColumn) {
                    sidebar(window)
                } content: {
                    content(window)
                } detail: {
                    detailStack
                }
                .adaptivePresentation(window, destination: destination)
            } else {
                NavigationSplitView(columnVisibility: visibility, preferredCompactColumn: compactColumn) {
                    sidebar(window)
                } detail: {
                    detailStack
                }
                .adaptivePresentation(window, destination: destination)
            }
        }

        private var detailStack: some View {
            NavigationStack(path: $window.stack) {
                detail(window).navigationDestination(for: R.self, destination: destination)
            }
        }
    }

    extension AdaptiveSplitView where Content == Never {
        /// Two columns: the sidebar selects a `SidebarSelection`, and the detail column shows it, a
        /// stack of the window's routes above it.
        public init<SidebarSelection: Codable & Hashable>(
            _ window: WindowModel<R>, sidebar sidebarSelection: SidebarSelection.Type,
            columnVisibility: Binding<NavigationSplitViewVisibility>? = nil,
            preferredCompactColumn: Binding<NavigationSplitViewColumn>? = nil,
            @ViewBuilder sidebar: @escaping (_ selection: Binding<SidebarSelection?>) -> Sidebar,
            @ViewBuilder detail: @escaping (_ sidebarSelection: SidebarSelection?) -> Detail,
            @ViewBuilder destination: @escaping (R) -> Destination
        ) {
            self.window = window
            self.columnVisibility = columnVisibility
            self.preferredCompactColumn = preferredCompactColumn
            self.sidebar = { window in sidebar(Bindable(window)[sidebar: SidebarSelection.self]) }
            self.content = nil
            self.detail = { window in detail(window[sidebar: SidebarSelection.self]) }
            self.destination = destination
        }
    }

    extension ColumnVisibility {
        /// The visibility as SwiftUI's split view takes it, settable.
        var navigationSplitViewVisibility: NavigationSplitViewVisibility {
            get {
                switch self {
                case .automatic: .automatic
                case .all: .all
                case .doubleColumn: .doubleColumn
                case .detailOnly: .detailOnly
                }
            }
            set {
                self =
                    if newValue == .all { .all } else if newValue == .doubleColumn {
                        .doubleColumn
                    } else if newValue == .detailOnly { .detailOnly } else { .automatic }
            }
        }
    }

    extension Optional where Wrapped == SplitViewColumn {
        /// The column as SwiftUI's split view takes it (the sidebar until the view says), settable.
        var navigationSplitViewColumn: NavigationSplitViewColumn {
            get {
                switch self {
                case .content?: .content
                case .detail?: .detail
                case .sidebar?, nil: .sidebar
                }
            }
            set {
                self = if newValue == .content { .content } else if newValue == .detail { .detail } else { .sidebar }
            }
        }
    }
#endif
