/// What a host restoring a saved window into a size class shows.
public struct Restoration: Hashable, Sendable {
    /// The state as it was saved.
    public var saved: WindowState
    /// The state after the size-class change: under `dismiss`, a mode change cleared the item.
    public var restored: WindowState
    /// What the window shows: the rule applied to ``restored``.
    public var layout: WindowLayout
}

extension WindowState {
    /// This state restored into `sizeClass`: the size-class change is applied first (so a
    /// `dismiss` policy may clear the item), then the rule. Nothing is written.
    public func restored(into sizeClass: SizeClass) -> Restoration {
        var restored = self
        restored.changeSizeClass(to: sizeClass)
        return Restoration(saved: self, restored: restored, layout: restored.layout(for: sizeClass))
    }
}
