/// How a window presents its item for a size class.
public enum Presentation: String, Codable, Hashable, Sendable {
    /// No item is presented.
    case none
    /// The item is pushed onto the window's navigation stack (regular).
    case push
    /// The item is a modal sheet with its own navigation stack (compact, unspecified).
    case sheet
}

/// What a window shows for one size class: SPEC §3's table, derived and never stored.
public struct Layout: Hashable, Sendable {
    /// The size class this layout was resolved for.
    public var sizeClass: SizeClass
    public var presentation: Presentation
    /// The window's NavigationStack, bottom first.
    public var stack: [Route]
    /// The sheet's NavigationStack, when the item is presented as a sheet.
    public var sheet: [Route]?
}

/// Applies the adaptive rule: a presented item is pushed when `sizeClass` is regular and shown as
/// a sheet carrying `itemPath` otherwise.
public func resolve(_ state: WindowState, for sizeClass: SizeClass) -> Layout {
    state.layout(for: sizeClass)
}

extension WindowState {
    /// The adaptive rule: a presented item is pushed when `sizeClass` is regular and shown as a
    /// sheet carrying ``itemPath`` otherwise.
    public func layout(for sizeClass: SizeClass) -> Layout {
        guard let item else {
            return Layout(sizeClass: sizeClass, presentation: .none, stack: path, sheet: nil)
        }
        switch sizeClass.mode {
        case .regular:
            return Layout(sizeClass: sizeClass, presentation: .push, stack: path + [item] + itemPath, sheet: nil)
        case .compact:
            return Layout(sizeClass: sizeClass, presentation: .sheet, stack: path, sheet: [item] + itemPath)
        }
    }
}

/// What a host restoring a saved window into a size class shows.
public struct Restoration: Hashable, Sendable {
    /// The state as it was saved.
    public var saved: WindowState
    /// The state after the size-class change: under `dismiss`, a mode change cleared the item.
    public var restored: WindowState
    /// What the window shows: the rule applied to ``restored``.
    public var layout: Layout
}

/// Restores `state` into `sizeClass`: the size-class change is applied first (so a `dismiss`
/// policy may clear the item), then the rule. Nothing is written.
public func restore(_ state: WindowState, into sizeClass: SizeClass) -> Restoration {
    restoreState(state, into: sizeClass)
}

/// ``restore(_:into:)`` under a name the store's own `restore` methods do not shadow.
func restoreState(_ state: WindowState, into sizeClass: SizeClass) -> Restoration {
    var restored = state
    restored.changeSizeClass(to: sizeClass)
    return Restoration(saved: state, restored: restored, layout: resolve(restored, for: sizeClass))
}
