/// How a window presents its item for a size class.
public enum Presentation: String, Codable, Hashable, Sendable {
    /// No item is presented.
    case none
    /// The item is pushed onto the window's navigation stack (regular).
    case push
    /// The item is a modal sheet with its own navigation stack (compact, unspecified).
    case sheet
}

/// What a window shows for one size class — whether the item is pushed or in a sheet, and each
/// stack — derived from the state (``WindowState/layout(for:)``) and never stored.
public struct WindowLayout: Hashable, Sendable {
    /// The size class this layout was made for.
    public var sizeClass: SizeClass
    /// Whether the item is pushed, in a sheet, or not presented.
    public var presentation: Presentation
    /// The window's NavigationStack, bottom first.
    public var stack: [Route]
    /// The sheet's NavigationStack, when the item is presented as a sheet.
    public var sheet: [Route]?
}

extension WindowState {
    /// The adaptive rule: a presented item is pushed when `sizeClass` is regular and shown as a
    /// sheet carrying ``itemPath`` otherwise.
    public func layout(for sizeClass: SizeClass) -> WindowLayout {
        guard let item else {
            return WindowLayout(sizeClass: sizeClass, presentation: .none, stack: path, sheet: nil)
        }
        switch sizeClass.mode {
        case .regular:
            // One allocation: `path + [item] + itemPath` would make two arrays on the way.
            var stack: [Route] = []
            stack.reserveCapacity(path.count + 1 + itemPath.count)
            stack.append(contentsOf: path)
            stack.append(item)
            stack.append(contentsOf: itemPath)
            return WindowLayout(sizeClass: sizeClass, presentation: .push, stack: stack, sheet: nil)
        case .compact:
            return WindowLayout(sizeClass: sizeClass, presentation: .sheet, stack: path, sheet: [item] + itemPath)
        }
    }
}
