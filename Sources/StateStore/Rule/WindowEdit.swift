/// One change to a window, kept as the edit it is rather than the state it leads to, so that it can
/// be made again on top of a state another writer committed: a host keeps the edits it has not yet
/// written and replays them, in order, onto the newer state (``WindowState/replaying(_:)``). An
/// edit that no longer applies there (an append above an item the other writer dismissed, a pop of
/// more than is left) is left out and named.
///
/// Each verb makes its edits from the state it acts on (``changeSizeClass(to:of:)``,
/// ``push(_:onto:)``, ``pop(_:from:)``, ``setPath(_:over:)``,
/// ``navigate(over:to:presenting:itemPath:)``), and a stack SwiftUI wrote is the ``StackEdit`` of
/// ``WindowState/stackEdit(to:shownFor:)``: the edit is computed once, where the change is made.
/// It is the one vocabulary of changes: the host's window model and `statectl set` both change a
/// window through it.
public enum WindowEdit: Hashable, Sendable, CustomStringConvertible {
    /// A stack edit: the path, the item's stack, or the chain of both.
    case stack(StackEdit)
    /// Presents a route, replacing any presented item and its stack.
    case present(Route)
    /// Dismisses the presented item and its stack.
    case dismiss
    /// Sets the policy of the current presentation.
    case setPolicy(SizeChangePolicy)
    /// A size-class change that has settled; `changesMode` carries the policy's effect (a
    /// `dismiss` item is cleared).
    case setSizeClass(SizeClass, changesMode: Bool)
    /// Selects the tab a tab view shows (`nil`: none).
    case selectTab(String?)
    /// Sets the visibility of a split view's columns.
    case setColumnVisibility(ColumnVisibility)
    /// Sets the column a collapsed split view shows (`nil`: the view's own default).
    case setPreferredCompactColumn(SplitViewColumn?)
    /// Removes `route` and everything above it in the chain (`path`, the item, `itemPath`); nothing
    /// when the route is no longer there. What an edit below a stored route the app cannot decode
    /// does to it.
    case removeFrom(Route)

    /// The edit of ``WindowState/changeSizeClass(to:)`` on `state`: the move to `sizeClass`,
    /// changing the presentation mode when `state`'s class has the other one (a `dismiss` item
    /// is then cleared).
    public static func changeSizeClass(to sizeClass: SizeClass, of state: WindowState) -> WindowEdit {
        .setSizeClass(sizeClass, changesMode: sizeClass.mode != state.sizeClass.mode)
    }

    /// The edit of ``WindowState/push(_:)`` on `state`: onto the item's stack when an item is
    /// presented (applying only while one still is), else onto the path.
    public static func push(_ route: Route, onto state: WindowState) -> WindowEdit {
        state.item == nil
            ? .stack(StackEdit(part: .path, removing: 0, appending: [route], keepsItem: false))
            : .stack(StackEdit(part: .presented, removing: 0, appending: [route], keepsItem: true))
    }

    /// The edits of ``WindowState/pop(_:)`` on `state`, part by part: back through the item's
    /// stack (applying only while the item is still presented), the item, then the path. Fails as
    /// ``WindowState/pop(_:)`` does when there are fewer steps to go back.
    public static func pop(_ count: Int, from state: WindowState) throws(StateStoreError) -> [WindowEdit] {
        try state.checkPop(count)
        guard state.item != nil else {
            return [.stack(StackEdit(part: .path, removing: count, appending: [], keepsItem: false))]
        }
        if count <= state.itemPath.count {
            return [.stack(StackEdit(part: .presented, removing: count, appending: [], keepsItem: true))]
        }
        let fromPath = count - state.itemPath.count - 1
        return [.dismiss]
            + (fromPath == 0
                ? [] : [.stack(StackEdit(part: .path, removing: fromPath, appending: [], keepsItem: false))])
    }

    /// The edit that makes `state`'s path `path` and leaves the item as it is, or `nil` when the
    /// path is already that.
    public static func setPath(_ path: [Route], over state: WindowState) -> WindowEdit? {
        state.stackEdit(to: path, shownFor: .compact).map(WindowEdit.stack)
    }

    /// A deep link's edits on `state`, in one change: the path becomes `path`, and `item` is
    /// presented with `itemPath` above it (kept presented, its stack edited, when it is the item
    /// presented now); without an item, any presented one is dismissed. Empty when `state` shows
    /// all of it already.
    public static func navigate(
        over state: WindowState, to path: [Route], presenting item: Route?, itemPath: [Route]
    ) -> [WindowEdit] {
        var edits: [WindowEdit] = []
        if let edit = setPath(path, over: state) { edits.append(edit) }
        if let item {
            if state.item == item {
                if let edit = state.sheetStackEdit(to: [item] + itemPath, shownFor: .compact) {
                    edits.append(.stack(edit))
                }
            } else {
                edits.append(.present(item))
                if !itemPath.isEmpty {
                    edits.append(.stack(StackEdit(part: .presented, removing: 0, appending: itemPath, keepsItem: true)))
                }
            }
        } else if state.item != nil {
            edits.append(.dismiss)
        }
        return edits
    }

    /// The edit, in words: for the edits a host dropped.
    public var description: String {
        switch self {
        case .stack(let edit):
            let part =
                switch edit.part {
                case .path: "the window's path"
                case .presented: "the presented item's stack"
                case .chain: "the window's stack"
                }
            let appended = edit.appending.map(\.description).joined(separator: ", ")
            return edit.appending.isEmpty
                ? "going back \(edit.removing) in \(part)" : "pushing \(appended) onto \(part)"
        case .present(let route): return "presenting \(route)"
        case .dismiss: return "dismissing the item"
        case .setPolicy(let policy): return "setting the policy to \(policy.rawValue)"
        case .setSizeClass(let sizeClass, _): return "the size class \(sizeClass.rawValue)"
        case .selectTab(let tab): return tab.map { "selecting the tab \($0)" } ?? "selecting no tab"
        case .setColumnVisibility(let visibility): return "showing columns \(visibility.rawValue)"
        case .setPreferredCompactColumn(let column):
            return "preferring the \(column?.rawValue ?? "default") column when collapsed"
        case .removeFrom(let route): return "replacing \(route)"
        }
    }
}

extension WindowState {
    /// Makes `edit` on this state; fails, changing nothing, when it no longer applies.
    public mutating func apply(_ edit: WindowEdit) throws(StateStoreError) {
        switch edit {
        case .stack(let edit): try apply(edit)
        case .present(let route): present(route)
        case .dismiss: dismiss()
        case .setPolicy(let policy): self.policy = policy
        case .setSizeClass(let sizeClass, let changesMode):
            if changesMode && policy == .dismiss { dismiss() }
            self.sizeClass = sizeClass
        case .selectTab(let tab):
            if let tab { try WindowState.validate(selectedTab: tab) }
            selectedTab = tab
        case .setColumnVisibility(let visibility): columnVisibility = visibility
        case .setPreferredCompactColumn(let column): preferredCompactColumn = column
        case .removeFrom(let route):
            let chain = chain
            guard let index = chain.firstIndex(of: route) else { return }
            try apply(StackEdit(part: .chain, removing: chain.count - index, appending: [], keepsItem: false))
        }
    }

    /// `edits` made on this state in order: the state they give, and the positions of those that
    /// no longer applied (left out).
    public func replaying(_ edits: some Sequence<WindowEdit>) -> (state: WindowState, dropped: [Int]) {
        var state = self
        var dropped: [Int] = []
        for (position, edit) in edits.enumerated() {
            do {
                try state.apply(edit)
            } catch {
                dropped.append(position)
            }
        }
        return (state, dropped)
    }
}
