/// How a change feed learns that its database may have changed: what ``ChangeFeed/notification``
/// and `statectl watch --verbose` say.
///
/// Either way a feed confirms with SQLite before it reports anything, so a notification missed or
/// one for nothing never loses or invents a change: notifications only make an idle feed sleep and
/// a busy one quick.
public enum ChangeNotification: Hashable, Sendable, CustomStringConvertible {
    /// Notifications about `folder`, the database's, or while that does not exist the nearest one
    /// above it — `inotify` on Linux; on Apple platforms the store's Darwin notification and a
    /// kqueue watch of its `-wal` — so a wait ends soon after a commit, and an idle feed polls
    /// only every 2 seconds, as a safety net against a notification that never comes.
    case notifications(folder: String)
    /// No notifications to be had, or polling asked for (``StateStore/WindowStore/Options/forcePolling``):
    /// the feed polls every 50 ms, and `reason` says why.
    case polling(reason: String)

    /// The feed's mechanism for people, e.g. `file notifications on /var/db` or
    /// `polling (polling was asked for)`.
    public var description: String {
        switch self {
        case .notifications(let folder): "file notifications on \(folder)"
        case .polling(let reason): "polling (\(reason))"
        }
    }
}
