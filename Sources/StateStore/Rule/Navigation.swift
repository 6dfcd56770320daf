/// The navigation verbs — push, pop, present, dismiss — and the size-class change. They act on
/// what the user sees on top: the item's stack when an item is presented, the window's own path
/// otherwise.
extension WindowState {
    /// Moves the window to `sizeClass`. Under `dismiss`, a change of presentation mode clears a
    /// presented item; under `migrate` nothing is lost.
    public mutating func changeSizeClass(to newClass: SizeClass) {
        if policy == .dismiss && newClass.mode != sizeClass.mode {
            dismiss()
        }
        sizeClass = newClass
    }

    /// Pushes onto `itemPath` when an item is presented, else onto `path`.
    public mutating func push(_ route: Route) {
        if item != nil {
            content.itemPath.append(route)
        } else {
            content.path.append(route)
        }
    }

    /// Goes back `count` times: drops the last of `itemPath`; when that is empty, dismisses the
    /// item; when there is no item, drops the last of `path`. Fails, changing nothing, when there
    /// are fewer than `count` steps to go back.
    public mutating func pop(_ count: Int = 1) throws(StateStoreError) {
        try checkPop(count)
        goBack(count)
    }

    /// Fails as ``pop(_:)`` does when `count` steps back are not there; changes nothing.
    func checkPop(_ count: Int) throws(StateStoreError) {
        guard count >= 1 else { throw .invalidInput("pop needs a count of at least 1, not \(count)") }
        guard count <= routeCount else {
            throw .invalidInput(
                "cannot pop \(count): window '\(session)' '\(window)' has only \(routeCount) route\(routeCount == 1 ? "" : "s") to go back through"
            )
        }
    }

    /// ``pop(_:)`` for a count already checked: 0 to ``routeCount``.
    mutating func goBack(_ count: Int) {
        var remaining = count
        let fromItemPath = min(remaining, itemPath.count)
        content.itemPath.removeLast(fromItemPath)
        remaining -= fromItemPath
        if remaining > 0, item != nil {
            item = nil
            remaining -= 1
        }
        content.path.removeLast(remaining)
    }

    /// Presents `route`, replacing any presented item and its stack.
    public mutating func present(_ route: Route) {
        item = route
        itemPath = []
    }

    /// Dismisses the presented item and its stack.
    public mutating func dismiss() {
        item = nil
        itemPath = []
    }
}
