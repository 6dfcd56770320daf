/// Where `statectl` finds the database: `--db`, else `$STATECTL_DB`, else the platform's
/// ``StoreLocation/defaultPath(environment:)``: one rule for `statectl` and the command-line hosts in
/// this package (`mailhost`), so that they always meet in the same file.
///
/// Package surface: statectl, `mailhost` and the host's session opened without a path find the
/// database with it.
package enum DatabaseLocation {
    /// The database path for a command-line `option` (if given) and an `environment`; `nil` when
    /// nothing names one (no option, no `STATECTL_DB`, no usable `XDG_STATE_HOME` and no home).
    /// An `environment` that throws (``StoreLocation/environmentValue(_:)``, which refuses a value
    /// that is not UTF-8) stops it at the first variable it reads and refuses.
    package static func path<Failure: Error>(
        option: String?, environment: (String) throws(Failure) -> String?,
        platform: StoreLocation.Platform = .current
    ) throws(Failure) -> String? {
        if let option { return option }
        if let path = try environment("STATECTL_DB"), !path.isEmpty { return path }
        return try StoreLocation.defaultPath(on: platform, environment: environment)
    }
}
