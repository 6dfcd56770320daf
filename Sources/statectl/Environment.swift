import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The environment variables statectl reads, each declared once with what it does: every read
/// goes through this table, and the manual page's ENVIRONMENT section is made from it.
enum EnvironmentVariable: String, CaseIterable, Sendable {
    case statectlDB = "STATECTL_DB"
    case statectlDurability = "STATECTL_DURABILITY"
    case stateHome = "XDG_STATE_HOME"
    case home = "HOME"
    case noColor = "NO_COLOR"
    case terminal = "TERM"
    case temporaryFolder = "TMPDIR"
    case xcrunTimeout = "STATECTL_XCRUN_TIMEOUT"

    /// What it does, for the manual page.
    var meaning: String {
        switch self {
        case .statectlDB:
            "The database file when --db is not given (empty counts as unset; not UTF-8: exit 65); demo ignores it."
        case .statectlDurability:
            "normal or full: the durability when --durability is not given (empty counts as unset). Set it to "
                + "full where a write statectl reports must survive a power cut while hosts hold the file open."
        case .stateHome:
            "On Linux, without --db and STATECTL_DB, the database is $XDG_STATE_HOME/statectl/state.db; ignored "
                + "when unset, empty or not an absolute path, and on macOS. Not UTF-8: exit 65."
        case .home:
            "Without --db, STATECTL_DB and a usable XDG_STATE_HOME, the database is "
                + "$HOME/.local/state/statectl/state.db on Linux, $HOME/Library/Application Support/StateStore/state.db "
                + "on macOS (without HOME, the account's home folder). --container, --app and --group find an app's "
                + "store under $HOME/Library. Not UTF-8: exit 65."
        case .noColor:
            "Set to anything, even empty: no bold headers, even on a terminal."
        case .terminal:
            "dumb: no bold headers, even on a terminal."
        case .temporaryFolder:
            "Where demo makes its temporary database (default: /tmp). Not UTF-8: exit 65."
        case .xcrunTimeout:
            "With --simulator: how long each xcrun call may take, in whole seconds from 1 to 3600 (default: 30; "
                + "empty counts as unset), before statectl stops it and exits 74."
        }
    }

    /// Whether it names a file or folder: its value is then read as the bytes given, and bytes
    /// that are not UTF-8 are refused (``path()``), as `--db` refuses them.
    var isPath: Bool {
        switch self {
        case .statectlDB, .stateHome, .home, .temporaryFolder: true
        case .statectlDurability, .noColor, .terminal, .xcrunTimeout: false
        }
    }

    /// Its value, or `nil` when unset; bytes that are not UTF-8 decoded with U+FFFD (for a choice
    /// or a flag, where that can only fail to match; a path is read with ``path()``).
    var value: String? {
        getenv(rawValue).map { String(cString: $0) }
    }

    /// Its value as a path, or `nil` when unset: bytes that are not UTF-8 are bad data (65), which
    /// decoded would name another file.
    func path() throws(StateStoreError) -> String? {
        try StoreLocation.environmentValue(rawValue)
    }

    /// The value of the variable named `name`, a path read as ``path()`` reads it; `nil` for a
    /// name not in this table, as for one unset (what ``DatabaseLocation`` asks through).
    static func path(named name: String) throws(StateStoreError) -> String? {
        guard let variable = EnvironmentVariable(rawValue: name) else { return nil }
        return variable.isPath ? try variable.path() : variable.value
    }
}
