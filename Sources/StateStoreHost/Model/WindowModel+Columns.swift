import StateStore

// A NavigationSplitView over one window. Its columns' selections are the first routes of the
// window's stack (``ColumnSelection``: each of the app's own type) and the detail column's stack is
// the rest, in the app's route type. So the columns persist with the window, a deep link into a
// column is one edit, and SwiftUI's collapsed split view and the adaptive rule (the item pushed onto
// the detail column when regular, a sheet when compact) see one stack.

extension WindowModel {
    /// The sidebar's selection, as the app's own type (`Category`, `Folder.ID`): `nil` when nothing
    /// is selected or the stored selection is not a `Selection`. Set, it selects as SwiftUI does:
    /// another value replaces the selection and clears the content column's and the detail column's
    /// stack (a pushed item with it); the same value keeps them; `nil` clears it and them. Bind a
    /// `List(selection:)` to it: `$window[sidebar: Category.self]`.
    public subscript<Selection: Codable & Hashable>(sidebar type: Selection.Type) -> Selection? {
        get { selection(in: .sidebar, as: type) }
        set { select(newValue, in: .sidebar) }
    }

    /// The content column's selection (of a three-column split view), as the app's own type:
    /// `nil` when nothing is selected or the stored selection is not a `Selection`. Set, another
    /// value replaces it and clears the detail column's stack; the sidebar's selection stays. Bind
    /// it as `$window[content: Recipe.ID.self]`.
    public subscript<Selection: Codable & Hashable>(content type: Selection.Type) -> Selection? {
        get { selection(in: .content, as: type) }
        set { select(newValue, in: .content) }
    }

    /// A deep link into a two-column split view, in one edit and one revision: the sidebar selects
    /// `sidebar`, the detail column's stack becomes `path`, and `item` (when given) is presented,
    /// as ``navigate(to:presenting:itemPath:policy:)`` presents it.
    public func navigate<Sidebar: Codable & Hashable>(
        sidebar: Sidebar, to path: [R] = [], presenting item: R? = nil, itemPath: [R] = [],
        policy: SizeChangePolicy? = nil
    ) {
        navigate(
            selecting: [(.sidebar, { try ColumnSelection.route(sidebar, in: .sidebar) })],
            to: path, presenting: item, itemPath: itemPath, policy: policy)
    }

    /// A deep link into a three-column split view, in one edit and one revision: the sidebar
    /// selects `sidebar`, the content column `content`, the detail column's stack becomes `path`,
    /// and `item` (when given) is presented.
    public func navigate<Sidebar: Codable & Hashable, Content: Codable & Hashable>(
        sidebar: Sidebar, content: Content, to path: [R] = [], presenting item: R? = nil, itemPath: [R] = [],
        policy: SizeChangePolicy? = nil
    ) {
        navigate(
            selecting: [
                (.sidebar, { try ColumnSelection.route(sidebar, in: .sidebar) }),
                (.content, { try ColumnSelection.route(content, in: .content) }),
            ], to: path, presenting: item, itemPath: itemPath, policy: policy)
    }

    /// Which of a `NavigationSplitView`'s columns show (SwiftUI's `columnVisibility`), kept with
    /// the window: a revision, in its history, settable from outside (`statectl set
    /// --column-visibility`).
    public var columnVisibility: ColumnVisibility {
        get { core.state.columnVisibility }
        set { userEdit { state in state.columnVisibility == newValue ? [] : [.setColumnVisibility(newValue)] } }
    }

    /// The column a collapsed `NavigationSplitView` shows (SwiftUI's `preferredCompactColumn`),
    /// kept with the window; `nil` until the view first says.
    public var preferredCompactColumn: SplitViewColumn? {
        get { core.state.preferredCompactColumn }
        set {
            userEdit { state in
                state.preferredCompactColumn == newValue ? [] : [.setPreferredCompactColumn(newValue)]
            }
        }
    }

    // MARK: For the adapter's bindings

    /// A column's selection, as a key path the adapter's `$window[sidebar: Category.self]` binds
    /// through (a key path's subscript takes `Hashable` arguments, which a type is not).
    package subscript<Selection: Codable & Hashable>(column key: ColumnKey<Selection>) -> Selection? {
        get { selection(in: key.isContent ? .content : .sidebar, as: Selection.self) }
        set { select(newValue, in: key.isContent ? .content : .sidebar) }
    }

    // MARK: Private

    /// The stored selection of `column`, as a `Selection`.
    private func selection<Selection: Codable & Hashable>(
        in column: ColumnSelection.Column, as type: Selection.Type
    ) -> Selection? {
        let path = visible.state.path
        for route in path.prefix(ColumnSelection.count(in: path)) where ColumnSelection.column(of: route) == column {
            return ColumnSelection.value(of: route, as: type)
        }
        return nil
    }

    /// Selects `value` in `column`: the columns' routes up to it, then it; the detail column's stack
    /// cleared. Nothing changes when it is selected already.
    private func select<Selection: Codable & Hashable>(_ value: Selection?, in column: ColumnSelection.Column) {
        let sizeClass = core.gate.layoutClass
        userEdit { state throws in
            let columns = Array(state.path.prefix(ColumnSelection.count(in: state.path)))
            let before = columns.filter { ColumnSelection.column(of: $0) == .sidebar && column == .content }
            let current = columns.first { ColumnSelection.column(of: $0) == column }
            if let value, let current, ColumnSelection.value(of: current, as: Selection.self) == value { return [] }
            if value == nil && current == nil { return [] }
            let selected = try value.map { [try ColumnSelection.route($0, in: column)] } ?? []
            return state.stackEdit(to: before + selected, shownFor: sizeClass).map { [.stack($0)] } ?? []
        }
    }

    /// A deep link whose path starts with the given columns' selections (each kept as stored when
    /// it selects the same value).
    private func navigate(
        selecting columns: [(ColumnSelection.Column, () throws -> Route)], to path: [R], presenting item: R?,
        itemPath: [R], policy: SizeChangePolicy?
    ) {
        userEdit(presenting: policy) { state throws in
            let selections = try columns.map { try $0.1() }
            let stored = Array(state.path.prefix(ColumnSelection.count(in: state.path)))
            let kept = stored.count >= selections.count && Array(stored.prefix(selections.count)) == selections
            let leading = kept ? Array(stored.prefix(selections.count)) : selections
            let detail = Array(state.path.dropFirst(stored.count))
            let presented = try item.map(encode)
            let above =
                presented == nil ? [] : try routes(itemPath, over: state.item == presented ? state.itemPath : [])
            return WindowEdit.navigate(
                over: state, to: leading + (try routes(path, over: detail)), presenting: presented, itemPath: above)
        }
    }
}

/// A split view column that selects, and the type it selects: what a key path to a column's
/// selection names.
package struct ColumnKey<Selection>: Hashable {
    /// The content column's (else the sidebar's).
    package let isContent: Bool

    package init(isContent: Bool) {
        self.isContent = isContent
    }
}
