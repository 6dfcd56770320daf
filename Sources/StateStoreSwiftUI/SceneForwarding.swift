#if canImport(SwiftUI)
    import Foundation
    import StateStoreHost
    import SwiftUI

    #if canImport(UIKit)
        import UIKit
    #endif

    /// What a window's scene tells its session, forwarded as it comes: every decision is the
    /// session's (``/StateStoreHost/SceneEvent``), and nothing here holds a lock, a semaphore or a
    /// queue.
    @MainActor
    enum SceneForwarding {
        /// A window of `session` appeared in a scene.
        static func windowAppeared(_ window: String, in session: WindowSession) {
            #if !canImport(UIKit) || canImport(WatchKit)
                // No scene sessions here (macOS, watchOS): the window is shown, by no scene the
                // system keeps.
                session.handle(.windowShown(window: window, sceneSession: nil))
            #endif
        }

        /// The scene's phase: a scene going to the background has what is pending written now.
        static func phaseChanged(_ phase: ScenePhase, in session: WindowSession) {
            if phase == .background { session.handle(.enteredBackground) }
        }
    }

    #if canImport(UIKit) && !canImport(WatchKit)
        extension View {
            /// Tells `session` which scene session shows `window`, once the view is in a window, and
            /// at launch which scene sessions the system still keeps (not in an app extension, which
            /// has no `UIApplication`).
            func reportingSceneSession(_ window: String, to session: WindowSession) -> some View {
                background { SceneSessionReporter(window: window, session: session) }
            }
        }

        /// A view with no appearance of its own that reaches its window's scene session.
        private struct SceneSessionReporter: UIViewRepresentable {
            let window: String
            let session: WindowSession

            func makeUIView(context: Context) -> ReporterView { ReporterView() }

            func updateUIView(_ view: ReporterView, context: Context) {
                view.report(window, to: session)
            }

            final class ReporterView: UIView {
                // Not `window`: a UIView has one (its UIWindow).
                private var windowID: String?
                private weak var session: WindowSession?

                func report(_ window: String, to session: WindowSession) {
                    windowID = window
                    self.session = session
                    tellSession()
                }

                override func didMoveToWindow() {
                    super.didMoveToWindow()
                    tellSession()
                }

                // Not `copy()` or `description`: a UIView is an NSObject, whose names those are.
                private func tellSession() {
                    guard let windowID, let session, let scene = window?.windowScene?.session else { return }
                    session.handle(.windowShown(window: windowID, sceneSession: scene.persistentIdentifier))
                    // `UIApplication.shared` is unavailable to extension-safe code: reached by key
                    // path, and only outside an app extension.
                    guard !Bundle.main.bundlePath.hasSuffix(".appex"),
                        let application = UIApplication.value(forKeyPath: "sharedApplication") as? UIApplication
                    else { return }
                    session.handle(.sceneSessionsKept(Set(application.openSessions.map(\.persistentIdentifier))))
                }
            }
        }
    #else
        extension View {
            /// Only iOS, iPadOS and visionOS keep scene sessions.
            func reportingSceneSession(_ window: String, to session: WindowSession) -> some View { self }
        }
    #endif
#endif
