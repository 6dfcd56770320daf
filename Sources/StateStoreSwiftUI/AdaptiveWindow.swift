#if canImport(SwiftUI)
    import Foundation
    import StateStore
    import StateStoreHost
    import SwiftUI

    /// One scene's window, persisted: it owns the window's id (in the scene's storage), gets its
    /// ``WindowModel`` from the session, feeds the model what the scene's environment says, and
    /// tells the session what the system does to the scene — no app code.
    ///
    /// ```swift
    /// WindowGroup {
    ///     AdaptiveWindow(session: session, sceneKey: "mail", kind: "mail", routes: MailRoute.self) { window in
    ///         AdaptiveNavigationStack(window) { InboxView() } destination: { MailView(route: $0) }
    ///     }
    /// }
    /// ```
    ///
    /// - The id is kept in `@SceneStorage(sceneKey)`, written on first appearance. On iOS, iPadOS
    ///   and visionOS the scene session that shows it is recorded with the window, and at launch
    ///   the windows of scene sessions the system no longer keeps are deleted
    ///   (``/StateStoreHost/SceneEvent/sceneSessionsKept(_:)``), with no app delegate; windows no
    ///   scene recorded are never deleted that way.
    /// - `horizontalSizeClass` and `scenePhase` go to the model in one call; the session observes
    ///   other writers only while one of its windows is active, and the active one is the focused
    ///   one (with its `kind`), which outside writers can address.
    /// - When the scene goes to the background, what is pending is written, inside the session's
    ///   background activity (``/StateStoreHost/WindowSession/Options/activity``).
    /// - The session's ``/StateStoreHost/WindowSession/storageIssue`` is shown as an alert in the
    ///   focused window only (``/StateStoreHost/WindowSession/Options/presentsStorageIssues``), its
    ///   text looked up in the app's `StateStore` strings table, so that the app can translate it.
    ///
    /// An app's own view can do what this one does: the model's
    /// ``/StateStoreHost/WindowModel/viewAppeared()``, ``/StateStoreHost/WindowModel/viewDisappeared()``
    /// and ``/StateStoreHost/WindowModel/environmentChanged(sizeClass:isActive:)``, and the session's
    /// ``/StateStoreHost/WindowSession/handle(_:)``, are public.
    public struct AdaptiveWindow<R: RouteRepresentable, Content: View>: View {
        private let session: WindowSession
        private let sceneKey: String
        private let kind: String?
        private let keeping: ((R) -> Bool)?
        private let content: (WindowModel<R>) -> Content
        @SceneStorage private var storedID: String
        @State private var newID = UUID().uuidString
        @Environment(\.horizontalSizeClass) private var horizontalSizeClass
        @Environment(\.scenePhase) private var scenePhase

        /// The window of the scene, its id stored under `sceneKey`, of `kind` (`mail`,
        /// `settings`: what outside writers address), shown by `content`. `keeping` says which
        /// stored routes the app's data still resolves
        /// (``/StateStoreHost/WindowModel/keepsRoute``): the others are dropped on restore.
        public init(
            session: WindowSession, sceneKey: String, kind: String? = nil, routes: R.Type = R.self,
            keeping: ((R) -> Bool)? = nil, @ViewBuilder content: @escaping (WindowModel<R>) -> Content
        ) {
            self.session = session
            self.sceneKey = sceneKey
            self.kind = kind
            self.keeping = keeping
            self.content = content
            _storedID = SceneStorage(wrappedValue: "", sceneKey)
        }

        /// The stored id, or, before the first appearance has stored one, the new one.
        private var windowID: String { storedID.isEmpty ? newID : storedID }

        private var environment: SceneEnvironment {
            SceneEnvironment(horizontalSizeClass: horizontalSizeClass, phase: scenePhase)
        }

        /// The scene's window.
        public var body: some View {
            let window = session.window(windowID, as: R.self, kind: kind)
            if let keeping { window.keepsRoute = keeping }
            return content(window)
                .modifier(StorageIssueAlert(session: session, window: window.id))
                .onAppear {
                    if storedID.isEmpty { storedID = newID }
                    window.viewAppeared()
                    window.presentationReady()
                    SceneForwarding.windowAppeared(window.id, in: session)
                }
                .onDisappear { window.viewDisappeared() }
                .onChange(of: environment, initial: true) { _, environment in
                    window.environmentChanged(sizeClass: environment.sizeClass, isActive: environment.isActive)
                    SceneForwarding.phaseChanged(environment.phase, in: session)
                }
                .onChange(of: window.stack) { _, _ in
                    // The stack a change has set is drawn: a sheet that change also presented may show.
                    window.presentationReady()
                }
                .reportingSceneSession(windowID, to: session)
        }
    }
#endif
