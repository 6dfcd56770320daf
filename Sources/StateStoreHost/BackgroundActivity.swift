/// Time the system grants a process to finish a transaction (SPEC §8, "Suspension"): iOS kills an
/// app suspended while it holds a SQLite lock on a file in a shared container (0xDEAD10CC), so
/// every read and write of a session runs inside one of these when it is given.
///
/// `begin` is called on the session's queue before each transaction. It returns the function
/// that ends the activity once the transaction is done, or `nil` when the system refuses time
/// (the app is being suspended): then nothing runs, and the change stays queued until a window of
/// the session is active again or the app flushes. When the time runs out while a transaction
/// runs, the activity calls the `expired` it was given (on any thread): the transaction is
/// interrupted (`sqlite3_interrupt`), rolled back, and its change kept to write later.
///
/// `StateStoreSwiftUI` supplies `.expiringActivity` (`ProcessInfo.performExpiringActivity`, for
/// apps and extensions alike) and uses it unless the session's options give another.
public struct BackgroundActivity: Sendable {
    /// Begins an activity; `nil` when the system refuses one.
    public let begin: @Sendable (_ expired: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)?

    /// An activity begun by `begin`.
    public init(begin: @escaping @Sendable (_ expired: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)?) {
        self.begin = begin
    }
}
