import StateStore

// The "not found" errors (exit 66) of the commands that name a session or a window.
extension StateStoreError {
    static func windowNotFound(_ session: String, _ window: String) -> StateStoreError {
        .notFound("window '\(session)' '\(window)' not found")
    }

    static func sessionNotFound(_ session: String) -> StateStoreError {
        .notFound("session '\(session)' not found (it has no windows)")
    }
}
