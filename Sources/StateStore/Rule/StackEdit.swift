/// One write of a navigation stack, as SwiftUI makes it (a whole new array for one stack), turned
/// into the edit it is: remove so many routes from the end of the part of the window it shows, then
/// append these: the inverse of ``WindowState/layout(for:)``, made by
/// ``WindowState/stackEdit(to:shownFor:)``.
///
/// An edit is defined on the window's state, not on a size class, so it can be applied again on
/// top of another state: a host replays the edits it has not yet written onto a state another
/// process wrote (``WindowState/apply(_:)-(StackEdit)``).
public struct StackEdit: Hashable, Sendable {
    /// The part of the window an edit changes.
    public enum Part: Hashable, Sendable {
        /// What a regular window's stack shows: `path`, then the item, then `itemPath`. Removing the
        /// item's element dismisses it; routes appended while an item is presented go onto `itemPath`.
        case chain
        /// The window's own `path` only, as a compact window's stack shows it; the item stays.
        case path
        /// The presented item and `itemPath`, as a compact window's sheet shows them: an empty result
        /// dismisses the item, a new first route presents it.
        case presented
    }

    /// The part edited.
    public var part: Part
    /// How many routes are removed from the end of the part.
    public var removing: Int
    /// The routes appended after the removal, bottom first.
    public var appending: [Route]
    /// Whether the routes kept below the edit held the presented item (an append above the item):
    /// the edit then applies only while an item is still presented there.
    public var keepsItem: Bool

    /// An edit of `part`; `keepsItem` as recorded against the state it was made on.
    public init(part: Part, removing: Int, appending: [Route], keepsItem: Bool) {
        self.part = part
        self.removing = removing
        self.appending = appending
        self.keepsItem = keepsItem
    }

    /// Whether the edit changes nothing.
    public var isEmpty: Bool { removing == 0 && appending.isEmpty }
}

extension WindowState {
    /// Sets the window's stack, as laid out for `sizeClass`, to `stack`: the shown routes after
    /// their longest common prefix with `stack` are removed, the rest of `stack` appended. When
    /// regular, removing the item's element dismisses it and appending past it extends
    /// ``itemPath``; when compact or unspecified, only ``path`` changes. Afterwards
    /// `layout(for: sizeClass).stack == stack`.
    public mutating func setStack(_ stack: [Route], shownFor sizeClass: SizeClass) {
        if let edit = stackEdit(to: stack, shownFor: sizeClass) { applyEdit(edit) }
    }

    /// Sets the sheet's stack, as laid out for `sizeClass`, to `stack`: an edit of the item and
    /// ``itemPath``, where an empty result dismisses the item and a new first route presents it.
    /// When regular no sheet is shown, and nothing changes.
    public mutating func setSheetStack(_ stack: [Route], shownFor sizeClass: SizeClass) {
        if let edit = sheetStackEdit(to: stack, shownFor: sizeClass) { applyEdit(edit) }
    }

    /// The edit ``setStack(_:shownFor:)`` makes, or `nil` when `stack` is what is shown.
    public func stackEdit(to stack: [Route], shownFor sizeClass: SizeClass) -> StackEdit? {
        switch sizeClass.mode {
        case .regular: edit(.chain, shown: chain, to: stack)
        case .compact: edit(.path, shown: path, to: stack)
        }
    }

    /// The edit ``setSheetStack(_:shownFor:)`` makes, or `nil` when it changes nothing (a regular
    /// window shows no sheet).
    public func sheetStackEdit(to stack: [Route], shownFor sizeClass: SizeClass) -> StackEdit? {
        guard sizeClass.mode == .compact else { return nil }
        return edit(.presented, shown: presented, to: stack)
    }

    /// Applies an edit, possibly made on another state: fails, changing nothing, when it no longer
    /// applies — it removes more routes than the part has, or it appends above an item that is no
    /// longer presented.
    public mutating func apply(_ edit: StackEdit) throws(StateStoreError) {
        let count: Int
        let itemBelow: Int  // routes of the part below which the item must stay for `keepsItem`
        switch edit.part {
        case .chain: (count, itemBelow) = (routeCount, path.count)
        case .path: (count, itemBelow) = (path.count, 0)
        case .presented: (count, itemBelow) = (presented.count, 0)
        }
        guard edit.removing >= 0, edit.removing <= count else {
            throw .invalidInput(
                "the edit removes \(edit.removing) route\(edit.removing == 1 ? "" : "s") and window '\(session)' '\(window)' shows \(count)"
            )
        }
        if edit.keepsItem && edit.part != .path {
            guard item != nil, count - edit.removing > itemBelow else {
                throw .invalidInput(
                    "the edit appends above a presented item, and window '\(session)' '\(window)' no longer presents it there"
                )
            }
        }
        applyEdit(edit)
    }

    /// `path`, the item and `itemPath`, bottom first: what a regular window's stack shows.
    var chain: [Route] { item.map { path + [$0] + itemPath } ?? path }

    /// The item and `itemPath`: what a compact window's sheet shows; empty without an item.
    var presented: [Route] { item.map { [$0] + itemPath } ?? [] }

    private func edit(_ part: StackEdit.Part, shown: [Route], to stack: [Route]) -> StackEdit? {
        let common = commonPrefixCount(shown, stack, by: ==)
        let edit = StackEdit(
            part: part, removing: shown.count - common, appending: Array(stack[common...]), keepsItem: false)
        guard !edit.isEmpty else { return nil }
        var recorded = edit
        switch part {
        case .chain: recorded.keepsItem = item != nil && common > path.count
        case .path: recorded.keepsItem = false
        case .presented: recorded.keepsItem = common > 0
        }
        return recorded
    }

    /// Applies an edit already checked to fit.
    private mutating func applyEdit(_ edit: StackEdit) {
        switch edit.part {
        case .chain:
            // "Back" as many times as removed, then each route pushed onto what is on top.
            goBack(edit.removing)
            for route in edit.appending { push(route) }
        case .path:
            content.path.removeLast(edit.removing)
            content.path.append(contentsOf: edit.appending)
        case .presented:
            var stack = presented
            stack.removeLast(edit.removing)
            stack.append(contentsOf: edit.appending)
            item = stack.first
            itemPath = Array(stack.dropFirst())
        }
    }
}

/// How many leading elements `first` and `second` share, compared by `same`: where an edit of one
/// into the other starts.
///
/// Package surface: the host's window model finds with it where a stack SwiftUI wrote parts from
/// the one it shows, as the stack edits do.
package func commonPrefixCount<A, B>(_ first: [A], _ second: [B], by same: (A, B) -> Bool) -> Int {
    var common = 0
    while common < first.count, common < second.count, same(first[common], second[common]) { common += 1 }
    return common
}
