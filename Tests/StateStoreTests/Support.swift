import StateStore
@_exported import StateStoreTestSupport

extension WindowStore {
    /// The windows of `session` a scene session recorded as its own, with its id, sorted by window:
    /// what a chosen delete is shown, read by choosing none.
    func recordedSceneSessions(session: String) throws -> [(window: String, scene: String)] {
        var recorded: [(window: String, scene: String)] = []
        _ = try deleteWindows(session: session) { known in
            recorded = known.compactMap { known in known.sceneSession.map { (known.window, $0) } }
            return []
        }
        return recorded
    }
}
