/// A window's horizontal size class, as SwiftUI reports it.
public enum SizeClass: String, CaseIterable, Codable, Hashable, Sendable {
    /// A narrow window (an iPhone, a narrow split view): an item is presented as a sheet.
    case compact
    /// A wide window (an iPad full screen): an item is pushed onto the window's stack.
    case regular
    /// No size class known yet: presented like compact.
    case unspecified

    /// Whether items are pushed (regular) or presented as a sheet (compact and unspecified).
    public var mode: Mode { self == .regular ? .regular : .compact }

    /// Lends `rawValue`'s UTF-8 to `body` and returns what it returns: bytes in static storage,
    /// no string built, for a caller that writes a size class out for every row it lists.
    @inlinable public func withRawValueUTF8<T, E: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T
    ) throws(E) -> T {
        try body(storedName)
    }

    /// How a size class presents an item: regular pushes it, compact shows it as a sheet.
    public enum Mode: String, Codable, Hashable, Sendable {
        /// Items are presented as a sheet (compact and unspecified).
        case compact
        /// Items are pushed onto the window's stack.
        case regular
    }
}

/// What a size-class change does to a presented item.
public enum SizeChangePolicy: String, CaseIterable, Codable, Hashable, Sendable {
    /// Keep the item: it moves between sheet and push, its `itemPath` with it.
    case migrate
    /// Clear the item and its `itemPath` when the presentation mode changes.
    case dismiss
}

extension SizeClass {
    /// The stored spelling (``rawValue``) in static storage, which a write binds without a copy.
    @usableFromInline var storedName: UnsafeBufferPointer<UInt8> {
        let name: StaticString =
            switch self {
            case .compact: "compact"
            case .regular: "regular"
            case .unspecified: "unspecified"
            }
        return UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    }

    /// The size class a stored column spells, without building a string.
    init?(utf8 text: UnsafeBufferPointer<UInt8>) {
        switch text.first {
        case UInt8(ascii: "c") where text.spells("compact"): self = .compact
        case UInt8(ascii: "r") where text.spells("regular"): self = .regular
        case UInt8(ascii: "u") where text.spells("unspecified"): self = .unspecified
        default: return nil
        }
    }
}

extension SizeChangePolicy {
    /// The stored spelling (``rawValue``) in static storage, which a write binds without a copy.
    var storedName: UnsafeBufferPointer<UInt8> {
        let name: StaticString =
            switch self {
            case .migrate: "migrate"
            case .dismiss: "dismiss"
            }
        return UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    }

    /// The policy a stored column spells, without building a string.
    init?(utf8 text: UnsafeBufferPointer<UInt8>) {
        switch text.first {
        case UInt8(ascii: "m") where text.spells("migrate"): self = .migrate
        case UInt8(ascii: "d") where text.spells("dismiss"): self = .dismiss
        default: return nil
        }
    }
}
