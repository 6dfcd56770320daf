#if canImport(SwiftUI)
    import Foundation
    import StateStoreHost
    import SwiftUI

    #if canImport(UIKit)
        import UIKit
    #endif

    /// What a session's scenes do for it, so that the app writes none of it: time for its writes
    /// where the system suspends apps, a flush when a scene goes to the background, and, on iOS,
    /// the windows of scene sessions the system no longer keeps deleted at launch.
    @MainActor
    enum SceneLife {
        /// The key of the scene session's `userInfo` that holds the ids of its windows (iOS).
        static let windowIDsKey = "StateStore.windows"

        /// A window of `session` appeared: the first time, the session's life starts.
        static func windowAppeared(in session: WindowSession) {
            guard session.beginSceneLife() else { return }
            #if canImport(UIKit)
                session.useActivityByDefault(.expiringActivity)
            #endif
            #if canImport(UIKit) && !canImport(WatchKit)
                discardWindowsOfDiscardedScenes(session)
            #endif
        }

        /// Flushes `session` as its scene goes to the background. Where the system suspends apps,
        /// inside an expiring activity: refused time flushes nothing now (each write asks for its own
        /// time, and waits for an active window when refused); time taken back stops the flush and
        /// interrupts the transaction in flight, whose change stays queued.
        static func flushInBackground(_ session: WindowSession) {
            #if canImport(UIKit)
                let flush = BackgroundFlush(session)
                ProcessInfo.processInfo.performExpiringActivity(withReason: "Saving window state") { expired in
                    flush.activity(expired: expired)
                }
            #else
                Task { _ = await session.flush(timeout: .seconds(25)) }
            #endif
        }

        #if canImport(UIKit) && !canImport(WatchKit)
            /// Deletes the windows of `session` whose scene sessions iOS no longer keeps: those the
            /// user closed in the app switcher while the app was not running. Each `AdaptiveWindow`
            /// records its window's id in its scene session's `userInfo`, which iOS keeps with it.
            /// Not in an app extension, which has no `UIApplication` (reached by key path, since
            /// `UIApplication.shared` is unavailable to extension-safe code).
            private static func discardWindowsOfDiscardedScenes(_ session: WindowSession) {
                guard !Bundle.main.bundlePath.hasSuffix(".appex"),
                    let application = UIApplication.value(forKeyPath: "sharedApplication") as? UIApplication
                else { return }
                let kept = application.openSessions.reduce(into: Set<String>()) { ids, scene in
                    ids.formUnion(scene.userInfo?[windowIDsKey] as? [String] ?? [])
                }
                Task { _ = try? await session.discardWindows(notIn: kept) }
            }
        #endif
    }

    #if canImport(UIKit)
        extension BackgroundActivity {
            /// Each transaction inside `ProcessInfo.performExpiringActivity`, in apps and app
            /// extensions alike (no `UIApplication`): iOS does not suspend the app while it holds a
            /// SQLite lock on a shared container file (0xDEAD10CC). Time refused runs nothing (the
            /// change stays queued); time taken back interrupts the transaction.
            public static let expiringActivity = BackgroundActivity { expired in
                ExpiringActivity.begin(expired: expired)
            }
        }

        /// One expiring activity held around a transaction: the system calls its block once with
        /// `false` when it grants time (the block then holds the activity until the transaction
        /// ends), or with `true` when it refuses; and again with `true` on another thread when it
        /// takes the time back.
        nonisolated private final class ExpiringActivity: @unchecked Sendable {
            private let lock = NSLock()
            private var answered = false
            private let decided = DispatchSemaphore(value: 0)
            private let finished = DispatchSemaphore(value: 0)
            private var granted = false
            private let expired: @Sendable () -> Void

            private init(expired: @escaping @Sendable () -> Void) {
                self.expired = expired
            }

            /// The function that ends the activity, or `nil` when the system refused the time.
            static func begin(expired: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)? {
                let activity = ExpiringActivity(expired: expired)
                ProcessInfo.processInfo.performExpiringActivity(withReason: "Saving window state") { isExpired in
                    activity.called(expired: isExpired)
                }
                activity.decided.wait()
                guard activity.lock.withLock({ activity.granted }) else { return nil }
                return { activity.finished.signal() }
            }

            private func called(expired isExpired: Bool) {
                let first = lock.withLock { () -> Bool in
                    defer { answered = true }
                    if !answered { granted = !isExpired }
                    return !answered
                }
                if first {
                    decided.signal()
                    // Held until the transaction ends; the process is not suspended meanwhile.
                    if !isExpired { finished.wait() }
                } else if isExpired {
                    expired()
                }
            }
        }

        /// A background flush held inside an expiring activity.
        nonisolated private final class BackgroundFlush: @unchecked Sendable {
            private let session: WindowSession
            private let lock = NSLock()
            private var started = false

            init(_ session: WindowSession) {
                self.session = session
            }

            func activity(expired: Bool) {
                let first = lock.withLock { () -> Bool in
                    defer { started = true }
                    return !started
                }
                let session = session
                guard first, !expired else {
                    // Refused, or taken back: stop waiting, interrupt what runs; nothing is lost.
                    if expired { Task { @MainActor in session.stopFlushing() } }
                    return
                }
                let done = DispatchSemaphore(value: 0)
                Task { @MainActor in
                    _ = await session.flush(timeout: .seconds(25))
                    done.signal()
                }
                done.wait()
            }
        }
    #endif

    #if canImport(UIKit) && !canImport(WatchKit)
        extension View {
            /// Adds the window id to the scene session's `userInfo`, where the next launch finds
            /// it (``SceneLife``).
            func recordingWindowID(_ id: String) -> some View {
                background { SceneSessionRecorder(windowID: id) }
            }
        }

        /// A view with no appearance of its own that reaches its window's scene session.
        private struct SceneSessionRecorder: UIViewRepresentable {
            let windowID: String

            func makeUIView(context: Context) -> RecorderView { RecorderView() }

            func updateUIView(_ view: RecorderView, context: Context) {
                view.record(windowID)
            }

            final class RecorderView: UIView {
                private var windowID: String?

                func record(_ windowID: String) {
                    self.windowID = windowID
                    writeToSceneSession()
                }

                override func didMoveToWindow() {
                    super.didMoveToWindow()
                    writeToSceneSession()
                }

                // Not `copy()`: a UIView is an NSObject, whose `copy() -> Any` makes that name ambiguous.
                private func writeToSceneSession() {
                    guard let windowID, let session = window?.windowScene?.session else { return }
                    var info = session.userInfo ?? [:]
                    var ids = info[SceneLife.windowIDsKey] as? [String] ?? []
                    guard !ids.contains(windowID) else { return }
                    ids.append(windowID)
                    info[SceneLife.windowIDsKey] = ids
                    session.userInfo = info
                }
            }
        }
    #else
        extension View {
            /// Only iOS keeps scene sessions to record the window id in.
            func recordingWindowID(_ id: String) -> some View { self }
        }
    #endif
#endif
