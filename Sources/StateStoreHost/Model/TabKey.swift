/// What names a window's tab: the app's own type (an enum of its tabs), stored as text.
///
/// An enum with `String` raw values is a key by declaring the conformance, and one that is also
/// `CaseIterable` gives ``WindowModel``'s tab selection its default (the first case):
///
/// ```swift
/// enum BrowseTab: String, CaseIterable, TabKey {
///     case inbox, search
/// }
/// ```
///
/// The text is the tab's part of its window's id (`ID/inbox`) and the window's stored selected tab
/// (`statectl set --tab inbox`): 1–256 bytes of UTF-8, no control characters. A key whose text
/// the store refuses is reported in the model's ``WindowModel/lastError``. `String` is a key too,
/// for tabs the app names at run time.
public protocol TabKey: Hashable {
    /// The key's stored text.
    var tabKey: String { get }
    /// The key stored as `tabKey`, or `nil` when no key of this type is stored so (a tab the app
    /// no longer has): the selection then falls back to its default.
    init?(tabKey: String)
}

extension TabKey where Self: RawRepresentable, RawValue == String {
    /// The raw value.
    public var tabKey: String { rawValue }

    /// The key whose raw value is `tabKey`.
    public init?(tabKey: String) {
        self.init(rawValue: tabKey)
    }
}

extension String: TabKey {
    /// The string itself.
    public var tabKey: String { self }

    /// The string itself.
    public init?(tabKey: String) {
        self = tabKey
    }
}
