import Foundation
import StateStore

/// The store a session opened, on its queue.
struct Opened: Sendable {
    let store: WindowStore
    /// Where the change log ended before any window was read: the feed, made later on its own
    /// thread, reports everything after it. `nil` in memory, where there is no feed.
    let changePosition: Int64?
    /// The session's windows as they stood at `changePosition`, for the first frames (no SQLite
    /// on the main actor); `nil` in memory, or for a session of more than ``firstFramesAtMost``.
    var firstFrames: [String: WindowStore.RestoredWindow]? = nil

    /// The most windows a session's open reads ahead for its first frames.
    static let firstFramesAtMost = 64

    /// Opens the file at `path`. With `fallBack`, a file that cannot be used runs the session in
    /// memory (after moving a damaged one aside, with ``WindowSession/Options/recoverUnusableFile``)
    /// instead of failing.
    static func open(
        path: String, session: String, options: WindowSession.Options, fallBack: Bool
    ) -> Result<(Opened, WindowSession.Recovery), StateStoreError> {
        Result { () throws(StateStoreError) in
            do throws(StateStoreError) {
                return (try file(path: path, session: session, options: options), .none)
            } catch {
                if options.recoverUnusableFile, error.isDamagedFile, let movedTo = UnusableFile.moveAside(path) {
                    return (
                        try file(path: path, session: session, options: options),
                        .movedAside(movedTo: movedTo, because: error)
                    )
                }
                guard fallBack || options.recoverUnusableFile else { throw error }
                return (try inMemory(options: options), .inMemory(because: error))
            }
        }
    }

    static func inMemory(options: WindowSession.Options) throws(StateStoreError) -> Opened {
        Opened(store: try WindowStore.inMemory(options: options.store), changePosition: nil)
    }

    private static func file(
        path: String, session: String, options: WindowSession.Options
    ) throws(StateStoreError) -> Opened {
        let store = try WindowStore(path: path, options: options.store)
        let (position, windows) = try store.sessionAtOpen(session: session, atMost: firstFramesAtMost)
        return Opened(store: store, changePosition: position, firstFrames: windows)
    }
}

extension WindowSession {
    /// Where a session without a path keeps its windows (SPEC §6.1, ``/StateStore/StoreLocation``).
    /// On Apple platforms, `Library/Application Support/StateStore/state.db` in the app's container
    /// (the user's home for a Mac app that is not sandboxed, where `statectl` looks too), or in
    /// the App Group `appGroup`'s container, which the app's extensions share (the group must be
    /// in the app's entitlements); elsewhere `statectl`'s own default, so that `statectl` finds it:
    /// `$XDG_STATE_HOME/statectl/state.db` (`$HOME/.local/state/statectl/state.db`), where there
    /// are no App Groups.
    nonisolated public static func defaultPath(appGroup: String? = nil) -> Result<String, StateStoreError> {
        #if canImport(Darwin)
            if let appGroup {
                guard
                    let container = FileManager.default.containerURL(
                        forSecurityApplicationGroupIdentifier: appGroup)
                else {
                    return .failure(
                        .invalidInput(
                            "the App Group '\(appGroup)' is not available to this app: add it to the app's entitlements"
                        ))
                }
                return .success(StoreLocation.path(inContainer: container.path))
            }
        #endif
        return defaultPath(environment: ProcessInfo.processInfo.environment)
    }

    /// The default place for a process whose environment is `environment`: in its container (its
    /// home) on Apple platforms, where `statectl` finds it on Linux (`STATECTL_DB` included).
    nonisolated package static func defaultPath(environment: [String: String]) -> Result<String, StateStoreError> {
        guard let path = DatabaseLocation.path(option: nil, environment: { environment[$0] }) else {
            return .failure(.invalidInput("no home folder to keep the windows in (HOME and XDG_STATE_HOME unset)"))
        }
        return .success(path)
    }
}
