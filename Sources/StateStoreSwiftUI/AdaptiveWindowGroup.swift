#if canImport(SwiftUI)
    import StateStore
    import StateStoreHost
    import SwiftUI

    /// A `WindowGroup` whose every window is an ``AdaptiveWindow`` of `session`: the scene an app
    /// declares, with nothing to wire.
    ///
    /// ```swift
    /// var body: some Scene {
    ///     AdaptiveWindowGroup(id: "mail", session: session, routes: MailRoute.self) { window in
    ///         MailWindow(window: window)
    ///     }
    /// }
    /// ```
    ///
    /// Its windows' ids are kept in scene storage under `StateStore.ID`, and their kind is `id`
    /// (what an outside writer names to reach the latest window of this group).
    public struct AdaptiveWindowGroup<R: RouteRepresentable, Content: View>: Scene {
        private let id: String
        private let session: WindowSession
        private let content: (WindowModel<R>) -> Content

        /// A window group of `session`'s windows, `id` naming the group (and its windows' kind),
        /// each shown by `content`.
        public init(
            id: String, session: WindowSession, routes: R.Type = R.self,
            @ViewBuilder content: @escaping (WindowModel<R>) -> Content
        ) {
            self.id = id
            self.session = session
            self.content = content
        }

        /// The window group.
        public var body: some Scene {
            WindowGroup(id: id) {
                AdaptiveWindow(session, sceneKey: "StateStore." + id, kind: id, routes: R.self, content: content)
            }
        }
    }
#endif
