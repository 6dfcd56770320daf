#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the database is (SPEC §5): `--db`, else `$STATECTL_DB`, else
/// `$XDG_STATE_HOME/statectl/state.db` (`XDG_STATE_HOME` unset, empty or relative:
/// `$HOME/.local/state`). One rule for `statectl` and the hosts in this package (`mailhost`), so
/// that they always meet in the same file.
package enum DatabaseLocation {
    /// The database path for a command-line `option` (if given) and an `environment`; `nil` when
    /// nothing names one (no option, no `STATECTL_DB`, no usable `XDG_STATE_HOME` and no home).
    package static func path(option: String?, environment: (String) -> String?) -> String? {
        if let option { return option }
        if let path = environment("STATECTL_DB"), !path.isEmpty { return path }
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            return state.trimmingTrailingSlashes + "/statectl/state.db"
        }
        guard let home = environment("HOME").flatMap({ $0.isEmpty ? nil : $0 }) ?? accountHome() else { return nil }
        return home.trimmingTrailingSlashes + "/.local/state/statectl/state.db"
    }

    /// The home folder in the user database, for a process started without `HOME`.
    private static func accountHome() -> String? {
        guard let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir else { return nil }
        let home = String(cString: folder)
        return home.isEmpty ? nil : home
    }
}

extension String {
    fileprivate var trimmingTrailingSlashes: String {
        var text = self
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
