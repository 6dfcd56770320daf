import StateStore

// A NavigationSplitView over one window. Its column selections are the first elements of the
// window's stack, bottom first, and the detail column's path is the rest: the one stack SwiftUI
// collapses the split view into when the window is compact. So the columns persist as the window's
// path, restore into whichever form the size class gives, and a deep link into a column is one edit.

extension WindowModel {
    /// The selection of a `NavigationSplitView` column: `0` the sidebar's, `1` the content
    /// column's (of three). It is the element of ``stack`` at that place. Set, it selects as
    /// SwiftUI does: another value replaces the selection and clears the columns after it, the same
    /// value keeps them, `nil` clears it and them. Bind it with `$window[selectionInColumn: 0]`.
    public subscript(selectionInColumn column: Int) -> R? {
        get {
            let stack = stack
            return column >= 0 && column < stack.count ? stack[column] : nil
        }
        set {
            let stack = stack
            guard column >= 0, column <= stack.count else {
                if newValue != nil {
                    report(
                        .invalidEdit(
                            .invalidInput("column \(column) selected while column \(stack.count) has no selection")))
                }
                return
            }
            if let newValue, column < stack.count, stack[column] == newValue { return }
            self.stack = Array(stack.prefix(column)) + (newValue.map { [$0] } ?? [])
        }
    }

    /// The path of a `NavigationSplitView`'s detail column, after the selections of `columns`
    /// columns (1 for a sidebar and a detail, 2 with a content column): the rest of ``stack``,
    /// the pushed item included when the window is regular. Bind it with
    /// `$window[pathAfterColumns: 2]`.
    public subscript(pathAfterColumns columns: Int) -> [R] {
        get { Array(stack.dropFirst(max(0, columns))) }
        set {
            let stack = stack
            guard columns >= 0, stack.count >= columns else {
                if !newValue.isEmpty {
                    report(
                        .invalidEdit(.invalidInput("a detail path with \(stack.count) of \(columns) columns selected")))
                }
                return
            }
            self.stack = Array(stack.prefix(columns)) + newValue
        }
    }
}

extension WindowModel {
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
}
