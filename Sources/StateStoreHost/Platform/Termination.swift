import Dispatch
import Foundation

/// The session's watch for a quit: AppKit's and UIKit's will-terminate notifications, which the
/// system posts on the main thread as the app is about to end (on macOS at ⌘Q, which is no
/// `.background` phase for every window). Each is told to the session as
/// ``SceneEvent/willTerminate``, which writes what is pending before it returns. Watching by name
/// needs neither framework, so an app of AppKit, UIKit or SwiftUI gets it without a line.
package final class TerminationWatch: @unchecked Sendable {
    /// `NSApplication.willTerminateNotification` and `UIApplication.willTerminateNotification`.
    package static let names = [
        Notification.Name("NSApplicationWillTerminateNotification"),
        Notification.Name("UIApplicationWillTerminateNotification"),
    ]

    private var observers: [NSObjectProtocol] = []

    /// A mark on the main queue, found by the code it runs (and, on Apple platforms, on the main
    /// thread, which is bound to it): where the main actor runs.
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main queue (or the main thread): a notification posted
    /// anywhere else is not the system's quit, and is not waited on.
    static var isOnMainQueue: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
    }

    /// Tells `session` of a quit, as the notifications `names` post it.
    @MainActor
    init(_ session: WindowSession, names: [Notification.Name]) {
        _ = Self.mainQueueKey
        observers = names.map { name in
            // No queue: the block runs on the posting thread before `post` returns, as a quit needs.
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [weak session] _ in
                guard Self.isOnMainQueue else { return }
                MainActor.assumeIsolated { session?.handle(.willTerminate) }
            }
        }
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }
}
