/// What a window's scene says of it beyond its ``WindowState``: its kind and when it was last the
/// focused window of its session (and, read from its state, the tab it shows).
///
/// None of it is revisioned: recording it (``StateStore/WindowStore/focus(session:window:kind:)``,
/// ``StateStore/WindowStore/setKind(_:session:window:)``) writes no revision, no history and
/// nothing a ``ChangeFeed`` reports. A window may have scene facts before it has state (a new
/// scene that has not navigated); deleting a window deletes them. The selected tab is part of the
/// state (``WindowState/selectedTab``), revisioned with the rest; ``selectedTab`` repeats it here.
public struct WindowScene: Hashable, Sendable {
    /// The window's session.
    public var session: String
    /// The window's id.
    public var window: String
    /// What sort of window it is, as the app names it (`mail`, `settings`); `nil` when none is recorded.
    public var kind: String?
    /// When it last became the focused window of its session, by the store's clock; `nil` when never.
    public var focusedAt: Timestamp?
    /// The tab its tab view shows, as the app names its tabs; `nil` when none is recorded. Read
    /// from the window's state (``WindowState/selectedTab``), where it is kept: `nil` for a window
    /// without state. Read the state's in new code.
    public var selectedTab: String?
    /// Whether the window has stored state (a ``WindowState`` at revision 1 or later); `false` for a
    /// window known only by its scene facts.
    public var hasState: Bool

    /// A window's scene facts, as a store reads them back.
    public init(
        session: String, window: String, kind: String? = nil, focusedAt: Timestamp? = nil, selectedTab: String? = nil,
        hasState: Bool = false
    ) {
        self.session = session
        self.window = window
        self.kind = kind
        self.focusedAt = focusedAt
        self.selectedTab = selectedTab
        self.hasState = hasState
    }
}

extension WindowScene {
    /// Checks a kind as the store does: 1–64 bytes of UTF-8 (``Limits/kindBytes``), no control
    /// characters; a caller can refuse a bad one before opening anything.
    ///
    /// Package surface: the host's session and statectl's `--focused` check a kind with it before
    /// they open anything.
    package static func validate(kind: String) throws(StateStoreError) {
        try validateIdentifier(kind, "kind", bytes: Limits.kindBytes)
    }
}
