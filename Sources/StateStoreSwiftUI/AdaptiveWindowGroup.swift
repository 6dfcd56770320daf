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
    ///     AdaptiveWindowGroup(id: "browse", kind: "mail", session: session, routes: MailRoute.self) { window in
    ///         BrowseWindow(window: window)
    ///     }
    /// }
    /// ```
    ///
    /// Its windows' ids are kept in scene storage under `StateStore.` and the group's id, and their
    /// kind (what an outside writer names to reach the latest window of a kind) is `kind`, or the
    /// group's id without one: several groups may share a kind.
    public struct AdaptiveWindowGroup<R: RouteRepresentable, Content: View>: Scene {
        private let id: String
        private let kind: String
        private let session: WindowSession
        private let keeping: ((R) -> Bool)?
        private let content: (WindowModel<R>) -> Content

        /// A window group of `session`'s windows, `id` naming the group, `kind` its windows' kind
        /// (the group's id when `nil`), each shown by `content`. `keeping` says which stored routes
        /// the app's data still resolves (``/StateStoreHost/WindowModel/keepsRoute``).
        public init(
            id: String, kind: String? = nil, session: WindowSession, routes: R.Type = R.self,
            keeping: ((R) -> Bool)? = nil, @ViewBuilder content: @escaping (WindowModel<R>) -> Content
        ) {
            self.id = id
            self.kind = kind ?? id
            self.session = session
            self.keeping = keeping
            self.content = content
        }

        /// The window group.
        public var body: some Scene {
            WindowGroup(id: id) {
                AdaptiveWindow(
                    session: session, sceneKey: "StateStore." + id, kind: kind, routes: R.self, keeping: keeping,
                    content: content)
            }
        }
    }
#endif
