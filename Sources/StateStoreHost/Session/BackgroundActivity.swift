/// Time the system grants a process to finish its work on the store: iOS kills an app suspended
/// while it holds a SQLite lock on a file in a shared container (0xDEAD10CC), so a session's writer
/// holds one of these while it has work — begun before its first job (the open, its migrations
/// and `VACUUM` included), ended when its queue drains.
///
/// `begin` is called on the writer's queue. It returns the function that ends the activity, or
/// `nil` when the system refuses time (the app is being suspended): then nothing runs, and the
/// work waits until a window of the session is active again or the app flushes. When the time
/// runs out while a transaction runs, the activity calls the `expired` it was given (on any
/// thread): the transaction is interrupted (`sqlite3_interrupt`), rolled back, and its change kept
/// to write later.
///
/// A session's ``WindowSession/Options/activity`` is ``platformDefault``: `expiringActivity`
/// where the system suspends apps (iOS, iPadOS, tvOS, watchOS, visionOS, Mac Catalyst),
/// `suddenTerminationDisabled` on macOS, none elsewhere. Give your own to test the behaviour.
public struct BackgroundActivity: Sendable {
    /// Begins an activity; `nil` when the system refuses one.
    public let begin: @Sendable (_ expired: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)?

    /// An activity begun by `begin`.
    public init(begin: @escaping @Sendable (_ expired: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)?) {
        self.begin = begin
    }

    /// The platform's activity for a session: `expiringActivity` where the system suspends apps,
    /// `suddenTerminationDisabled` on macOS, `nil` (none) elsewhere.
    public static var platformDefault: BackgroundActivity? {
        #if canImport(UIKit)
            expiringActivity
        #elseif canImport(AppKit)
            suddenTerminationDisabled
        #else
            nil
        #endif
    }
}
