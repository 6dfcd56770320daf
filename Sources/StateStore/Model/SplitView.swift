/// Which columns of a window's split view show, as SwiftUI's `NavigationSplitViewVisibility` names
/// them: the value `NavigationSplitView(columnVisibility:)` binds. Kept in the window's state
/// (``WindowState/columnVisibility``); the rule carries it and derives nothing from it.
public enum ColumnVisibility: String, CaseIterable, Codable, Hashable, Sendable {
    /// The view's own choice for the space it has: SwiftUI's `.automatic`, and a new window's.
    case automatic
    /// Every column: SwiftUI's `.all`.
    case all
    /// The content and detail columns of a three-column view, the sidebar and detail of a
    /// two-column one: SwiftUI's `.doubleColumn`.
    case doubleColumn
    /// The detail column alone: SwiftUI's `.detailOnly`.
    case detailOnly
}

/// A column of a split view, as SwiftUI's `NavigationSplitViewColumn` names them: what
/// `NavigationSplitView(preferredCompactColumn:)` binds, the column a collapsed split view shows
/// (``WindowState/preferredCompactColumn``).
public enum SplitViewColumn: String, CaseIterable, Codable, Hashable, Sendable {
    /// The leading column: SwiftUI's `.sidebar`.
    case sidebar
    /// The middle column of a three-column view: SwiftUI's `.content`.
    case content
    /// The trailing column: SwiftUI's `.detail`.
    case detail
}

extension ColumnVisibility {
    /// The stored spelling (``rawValue``) in static storage, which a write binds without a copy.
    var storedName: UnsafeBufferPointer<UInt8> {
        let name: StaticString =
            switch self {
            case .automatic: "automatic"
            case .all: "all"
            case .doubleColumn: "doubleColumn"
            case .detailOnly: "detailOnly"
            }
        return UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    }

    /// The visibility a stored column spells, without building a string.
    init?(utf8 text: UnsafeBufferPointer<UInt8>) {
        switch text.first {
        case UInt8(ascii: "a") where text.spells("automatic"): self = .automatic
        case UInt8(ascii: "a") where text.spells("all"): self = .all
        case UInt8(ascii: "d") where text.spells("doubleColumn"): self = .doubleColumn
        case UInt8(ascii: "d") where text.spells("detailOnly"): self = .detailOnly
        default: return nil
        }
    }
}

extension SplitViewColumn {
    /// The stored spelling (``rawValue``) in static storage, which a write binds without a copy.
    var storedName: UnsafeBufferPointer<UInt8> {
        let name: StaticString =
            switch self {
            case .sidebar: "sidebar"
            case .content: "content"
            case .detail: "detail"
            }
        return UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    }

    /// The column a stored column spells, without building a string.
    init?(utf8 text: UnsafeBufferPointer<UInt8>) {
        switch text.first {
        case UInt8(ascii: "s") where text.spells("sidebar"): self = .sidebar
        case UInt8(ascii: "c") where text.spells("content"): self = .content
        case UInt8(ascii: "d") where text.spells("detail"): self = .detail
        default: return nil
        }
    }
}
