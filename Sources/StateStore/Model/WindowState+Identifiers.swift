extension WindowState {
    /// Checks a session id, and a window id when given, as every store call does (1–256 bytes
    /// of UTF-8, no control characters), so a caller can refuse bad ids before opening anything.
    package static func validate(session: String, window: String? = nil) throws(StateStoreError) {
        try validateIdentifier(session, "session id")
        if let window { try validateIdentifier(window, "window id") }
    }

    /// Checks a tab's name as the store does: as an id, 1–256 bytes of UTF-8, no control characters.
    package static func validate(selectedTab: String) throws(StateStoreError) {
        try validateIdentifier(selectedTab, "selected tab")
    }
}
