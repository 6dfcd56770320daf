#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a store lives when no path is given (SPEC §6.1 and §8), as pure rules over a container
/// folder or an environment, so that hosts, `statectl` and their tests agree without Foundation.
///
/// - Apple platforms: `Library/Application Support/StateStore/state.db` inside a container — an
///   app's (its home folder: in a sandboxed app `NSHomeDirectory()` is the app's data container),
///   an App Group's (`FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`), or, for a
///   Mac app that is not sandboxed and for `statectl` on macOS, the user's home.
/// - Linux: `$XDG_STATE_HOME/statectl/state.db` (`XDG_STATE_HOME` unset, empty or relative:
///   `$HOME/.local/state`), where `statectl` finds it.
public enum StoreLocation {
    /// The store's path relative to a container folder on Apple platforms:
    /// `Library/Application Support/StateStore/state.db`.
    public static let pathInContainer = "Library/Application Support/StateStore/state.db"

    /// The store inside `container`, an app's or an App Group's container folder (or a home):
    /// `CONTAINER/Library/Application Support/StateStore/state.db`.
    public static func path(inContainer container: String) -> String {
        let folder = container.trimmingTrailingSlashes
        return (folder == "/" ? "" : folder) + "/" + pathInContainer
    }

    /// This platform's default store for a process whose environment variables `environment`
    /// reads: on Apple platforms inside `$HOME` (an app's container when it is sandboxed; the
    /// user's home otherwise); on Linux `$XDG_STATE_HOME/statectl/state.db`, else
    /// `$HOME/.local/state/statectl/state.db`. A missing or empty `HOME` falls back to the
    /// account's home folder; `nil` when there is none.
    public static func defaultPath(environment: (String) -> String?) -> String? {
        defaultPath(on: .current, environment: environment)
    }

    /// The platforms whose default places differ.
    package enum Platform: Sendable {
        /// iOS, iPadOS, macOS, tvOS, watchOS, visionOS: in a container.
        case apple
        /// Linux and the rest: the XDG base directories.
        case linux

        /// The platform this build runs on.
        package static var current: Platform {
            #if canImport(Darwin)
                .apple
            #else
                .linux
            #endif
        }
    }

    /// ``defaultPath(environment:)`` for `platform`: both rules are tested on any machine.
    package static func defaultPath(on platform: Platform, environment: (String) -> String?) -> String? {
        if platform == .linux, let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            return state.trimmingTrailingSlashes + "/statectl/state.db"
        }
        guard let home = environment("HOME").flatMap({ $0.isEmpty ? nil : $0 }) ?? accountHome() else { return nil }
        switch platform {
        case .apple: return path(inContainer: home)
        case .linux: return home.trimmingTrailingSlashes + "/.local/state/statectl/state.db"
        }
    }

    /// The home folder in the user database, for a process started without `HOME`.
    private static func accountHome() -> String? {
        guard let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir else { return nil }
        let home = String(cString: folder)
        return home.isEmpty ? nil : home
    }
}

/// Where `statectl` finds the database (SPEC §5): `--db`, else `$STATECTL_DB`, else the
/// platform's ``StoreLocation``: one rule for `statectl` and the hosts in this package
/// (`mailhost`), so that they always meet in the same file.
package enum DatabaseLocation {
    /// The database path for a command-line `option` (if given) and an `environment`; `nil` when
    /// nothing names one (no option, no `STATECTL_DB`, no usable `XDG_STATE_HOME` and no home).
    package static func path(
        option: String?, environment: (String) -> String?, platform: StoreLocation.Platform = .current
    ) -> String? {
        if let option { return option }
        if let path = environment("STATECTL_DB"), !path.isEmpty { return path }
        return StoreLocation.defaultPath(on: platform, environment: environment)
    }
}

extension String {
    fileprivate var trimmingTrailingSlashes: String {
        var text = self
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
