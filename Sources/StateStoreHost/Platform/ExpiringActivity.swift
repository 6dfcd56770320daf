#if canImport(UIKit)
    import Foundation

    extension BackgroundActivity {
        /// `ProcessInfo.performExpiringActivity`, for apps and app extensions alike (no
        /// `UIApplication`): the system does not suspend the process while the session's writer
        /// has work, so it never holds a SQLite lock on a shared container file while suspended.
        /// Time refused runs nothing (the work waits); time taken back interrupts the transaction.
        /// One activity is held while the writer has work, not one per transaction.
        public static let expiringActivity = BackgroundActivity { expired in
            ExpiringActivity.begin(expired: expired)
        }
    }

    /// One expiring activity held while a writer works: the system calls its block once with
    /// `false` when it grants time (the block then holds the activity until the writer drains), or
    /// with `true` when it refuses; and again with `true`, on another thread, when it takes the
    /// time back.
    private final class ExpiringActivity: @unchecked Sendable {
        private let lock = NSLock()
        private var answered = false
        private var granted = false
        private let decided = DispatchSemaphore(value: 0)
        private let finished = DispatchSemaphore(value: 0)
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
                // Held until the writer drains; the process is not suspended meanwhile.
                if !isExpired { finished.wait() }
            } else if isExpired {
                expired()
            }
        }
    }
#endif
