#if canImport(SwiftUI)
    import Foundation
    import StateStore
    import StateStoreHost
    import SwiftUI

    /// One scene's window, persisted: it owns the window's id (in the scene's storage), gets its
    /// ``WindowModel`` from the session, and feeds the model what the scene's environment says.
    ///
    /// ```swift
    /// WindowGroup {
    ///     AdaptiveWindow(session, sceneKey: "window", routes: MailRoute.self) { window in
    ///         AdaptiveNavigationStack(window) { InboxView() } destination: { MailView(route: $0) }
    ///     }
    /// }
    /// ```
    ///
    /// The id is kept in `@SceneStorage(sceneKey)`, written on first appearance, and on iOS also in
    /// the scene session's `userInfo` under `sceneKey`, so that
    /// `application(_:didDiscardSceneSessions:)` can pass it to ``WindowSession/discard(sceneSessions:sceneKey:)``.
    /// When the scene goes to the background, the session is flushed (on iOS inside a background task).
    public struct AdaptiveWindow<R: RouteRepresentable, Content: View>: View {
        private let session: WindowSession
        private let sceneKey: String
        private let content: (WindowModel<R>) -> Content
        @SceneStorage private var storedID: String
        @State private var newID = UUID().uuidString
        @State private var attachment: WindowAttachment?
        #if !os(macOS)
            @Environment(\.horizontalSizeClass) private var horizontalSizeClass
        #endif
        @Environment(\.scenePhase) private var scenePhase

        /// The window of the scene, its id stored under `sceneKey`, shown by `content`.
        public init(
            _ session: WindowSession, sceneKey: String, routes: R.Type = R.self,
            @ViewBuilder content: @escaping (WindowModel<R>) -> Content
        ) {
            self.session = session
            self.sceneKey = sceneKey
            self.content = content
            _storedID = SceneStorage(wrappedValue: "", sceneKey)
        }

        /// The stored id, or, before the first appearance has stored one, the new one.
        private var windowID: String { storedID.isEmpty ? newID : storedID }

        private var environment: SceneEnvironment {
            #if os(macOS)
                SceneEnvironment(sizeClass: .regular, phase: scenePhase)
            #else
                SceneEnvironment(sizeClass: SizeClass(horizontalSizeClass), phase: scenePhase)
            #endif
        }

        /// The scene's window.
        public var body: some View {
            let window = session.window(windowID, as: R.self)
            content(window)
                .onAppear {
                    if storedID.isEmpty { storedID = newID }
                    if attachment == nil { attachment = window.attach() }
                    window.presentationReady()
                }
                .onDisappear {
                    if let attachment { window.detach(attachment) }
                    attachment = nil
                }
                .onChange(of: environment, initial: true) { _, environment in
                    window.environmentChanged(sizeClass: environment.sizeClass, isActive: environment.isActive)
                    if environment.phase == .background { flushInBackground() }
                }
                .onChange(of: window.stack) { _, _ in
                    // The stack a change has set is drawn: a sheet that change also presented may show.
                    window.presentationReady()
                }
                .recordingWindowID(windowID, under: sceneKey)
        }

        private func flushInBackground() {
            let session = session
            let activity = BackgroundFlush.begin()
            Task { @MainActor in
                _ = await session.flush(timeout: .seconds(25))
                activity.end()
            }
        }
    }
#endif
