import Foundation
import StateStore

extension WindowStore {
    /// Opens the store of a session's default home (``WindowSession/defaultPath(appGroup:)``: the
    /// App Group's container when `appGroup` is given), runs `body` on it inside one background
    /// activity, and closes it before the activity ends: an app extension's one write (a share
    /// extension composing into the app's window), which iOS would otherwise suspend while it holds
    /// the shared file's lock (the process is then killed). Writers post their change notification
    /// under the group's name, which a sandboxed app hears.
    ///
    /// ```swift
    /// try WindowStore.perform(inAppGroup: "group.com.example.mail") { store in
    ///     try store.updateFocusedWindow(session: WindowSession.defaultName, kind: "mail") { $0.present(draft) }
    /// }
    /// ```
    ///
    /// Throws ``/StateStore/StateStoreError/busy(_:)`` without opening anything when the system gives no time
    /// (try again later), what opening the store throws, and what `body` throws.
    @discardableResult
    public static func perform<T>(
        inAppGroup appGroup: String?, options: Options = Options(),
        activity: BackgroundActivity? = .platformDefault, _ body: (WindowStore) throws -> T
    ) throws -> T {
        var options = options
        if let appGroup, options.notificationPrefix == nil { options.notificationPrefix = appGroup }
        return try perform(
            at: try WindowSession.defaultPath(appGroup: appGroup).get(), options: options, activity: activity, body)
    }

    /// ``perform(inAppGroup:options:activity:_:)`` on the store at `path`.
    @discardableResult
    public static func perform<T>(
        at path: String, options: Options = Options(), activity: BackgroundActivity? = .platformDefault,
        _ body: (WindowStore) throws -> T
    ) throws -> T {
        let interrupted = NSLockedValue<WindowStore?>(nil)
        var end: (@Sendable () -> Void)?
        if let activity {
            // Time taken back while `body` runs interrupts its transaction: it rolls back.
            end = activity.begin { interrupted.withLock { $0 }?.interrupt() }
            guard end != nil else {
                throw StateStoreError.busy(
                    SQLiteFailure(
                        code: .busy, message: "the system gave no time to open \(path) (the app is being suspended)"))
            }
        }
        defer { end?() }
        // In a function of its own, so that the store is closed before the activity ends.
        func run() throws -> T {
            let store = try WindowStore(path: path, options: options)
            interrupted.withLock { $0 = store }
            defer { interrupted.withLock { $0 = nil } }
            return try body(store)
        }
        return try run()
    }
}
