#if canImport(SwiftUI)
    import Foundation
    import StateStoreHost
    import SwiftUI

    #if canImport(UIKit) && !os(watchOS)
        import UIKit

        /// A flush when the scene goes to the background, inside a UIKit background task so the app
        /// is not suspended with a write half done.
        @MainActor
        struct BackgroundFlush {
            private let task: UIBackgroundTaskIdentifier

            static func begin() -> BackgroundFlush {
                BackgroundFlush(task: UIApplication.shared.beginBackgroundTask(withName: "StateStore flush"))
            }

            func end() {
                if task != .invalid { UIApplication.shared.endBackgroundTask(task) }
            }
        }

        extension WindowSession.Options {
            /// A background activity for the writer (``WindowSession/Options/backgroundActivity``):
            /// each transaction runs inside `ProcessInfo.performExpiringActivity`, so iOS does not
            /// suspend the app while it holds a SQLite lock on a shared container file.
            public static let expiringActivity: @Sendable (_ transaction: () -> Void) -> Void = { transaction in
                let started = DispatchSemaphore(value: 0)
                let finished = DispatchSemaphore(value: 0)
                ProcessInfo.processInfo.performExpiringActivity(withReason: "Saving window state") { expired in
                    guard !expired else {
                        started.signal()
                        return
                    }
                    started.signal()
                    finished.wait()
                }
                started.wait()
                transaction()
                finished.signal()
            }
        }

        extension WindowSession {
            /// Deletes the windows of scene sessions the user closed for good, as
            /// `application(_:didDiscardSceneSessions:)` hands them over: each `AdaptiveWindow` keeps
            /// its window id in its session's `userInfo` under its scene key.
            public func discard(sceneSessions: Set<UISceneSession>, sceneKey: String) async throws {
                try await discard(windows: sceneSessions.compactMap { $0.userInfo?[sceneKey] as? String })
            }
        }

        extension View {
            /// Copies the window id into the scene session's `userInfo`, where the app delegate finds
            /// it when the session is discarded.
            func recordingWindowID(_ id: String, under key: String) -> some View {
                background(SceneSessionRecorder(key: key, windowID: id))
            }
        }

        /// A view with no appearance of its own that reaches its window's scene session.
        private struct SceneSessionRecorder: UIViewRepresentable {
            let key: String
            let windowID: String

            func makeUIView(context: Context) -> RecorderView { RecorderView() }

            func updateUIView(_ view: RecorderView, context: Context) {
                view.record(windowID, under: key)
            }

            final class RecorderView: UIView {
                private var entry: (key: String, windowID: String)?

                func record(_ windowID: String, under key: String) {
                    entry = (key, windowID)
                    writeToSceneSession()
                }

                override func didMoveToWindow() {
                    super.didMoveToWindow()
                    writeToSceneSession()
                }

                // Not `copy()`: a UIView is an NSObject, whose `copy() -> Any` makes that name ambiguous.
                private func writeToSceneSession() {
                    guard let entry, let session = window?.windowScene?.session else { return }
                    var info = session.userInfo ?? [:]
                    info[entry.key] = entry.windowID
                    session.userInfo = info
                }
            }
        }
    #else
        /// No background task to hold where UIKit does not exist.
        struct BackgroundFlush {
            static func begin() -> BackgroundFlush { BackgroundFlush() }
            func end() {}
        }

        extension View {
            /// Only iOS keeps scene sessions to record the window id in.
            func recordingWindowID(_ id: String, under key: String) -> some View { self }
        }
    #endif
#endif
