import Foundation

/// The session's watch for a quit: AppKit's and UIKit's will-terminate notifications, which the
/// system posts on the main thread as the app is about to end (on macOS at ⌘Q, which is no
/// `.background` phase for every window). Each is told to the session as
/// ``SceneEvent/willTerminate``, which writes what is pending before it returns. Watching by name
/// needs neither framework, so an app of AppKit, UIKit or SwiftUI gets it without a line.
final class TerminationWatch: @unchecked Sendable {
    /// `NSApplication.willTerminateNotification` and `UIApplication.willTerminateNotification`.
    static let names = [
        Notification.Name("NSApplicationWillTerminateNotification"),
        Notification.Name("UIApplicationWillTerminateNotification"),
    ]

    private var observers: [NSObjectProtocol] = []

    /// Tells `session` of a quit.
    @MainActor
    init(_ session: WindowSession) {
        observers = Self.names.map { name in
            // No queue: the block runs on the posting thread before `post` returns, as a quit needs.
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [weak session] _ in
                guard Thread.isMainThread else { return }
                MainActor.assumeIsolated { session?.handle(.willTerminate) }
            }
        }
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }
}
