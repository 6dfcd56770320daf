import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the database is (SPEC §5): `--db`, else `$STATECTL_DB`, else
/// `$XDG_STATE_HOME/statectl/state.db` (`XDG_STATE_HOME` unset, empty or relative:
/// `$HOME/.local/state`).
enum DatabaseLocation {
    static func path(option: String?, environment: (String) -> String?) -> String? {
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

extension Invocation {
    /// The database file this command line names.
    func databasePath(_ context: Context) throws(UsageError) -> String {
        guard let path = DatabaseLocation.path(option: value(Option.database)?.path, environment: context.environment)
        else {
            throw UsageError("no database location: pass --db, or set STATECTL_DB or HOME", command: command)
        }
        try refuseInMemory(path)
        return path
    }

    /// Refuses a database location of `:memory:` before anything is opened, so that the usage
    /// error wins over any other.
    func checkDatabaseLocation(_ context: Context) throws(UsageError) {
        guard command.usesDatabase else { return }
        if let option = value(Option.database) {
            try refuseInMemory(option.path)
        } else if command.usesDefaultDatabase, let path = context.environment("STATECTL_DB") {
            try refuseInMemory(path)
        }
    }

    /// A path on the command line is always a file: `:memory:`, which SQLite would take for a
    /// database in memory that keeps nothing, is a usage error.
    private func refuseInMemory(_ path: String) throws(UsageError) {
        guard path == ":memory:" else { return }
        let source = value(Option.database) == nil ? "STATECTL_DB=:memory:" : "--db :memory:"
        throw UsageError(
            "\(source) would be a database in memory, which keeps nothing; a database path is always a file: "
                + "for a file named ':memory:', write ./:memory:",
            command: command)
    }

    /// Opens the database for a command that writes data: the file and its folder are created
    /// when missing, pending migrations applied (unless `migrating` is off).
    func openOrCreateStore(_ context: Context, migrating: Bool = true) throws -> StateStore {
        try StateStore(path: try databasePath(context), options: storeOptions(create: true, migrate: migrating))
    }

    /// Opens the database for a command that needs it to exist (to read it, or to delete from
    /// it), creating nothing: a missing file is ``StateStoreError/notFound(_:)`` (exit 66).
    func openExistingStore(_ context: Context, migrating: Bool = true) throws -> StateStore {
        try StateStore(path: try databasePath(context), options: storeOptions(create: false, migrate: migrating))
    }

    /// Like ``openExistingStore(_:migrating:)``, but a missing file is `nil`: for the commands
    /// that treat it as an empty store (`list`, `check`, `migrate --status`).
    func openStoreIfPresent(_ context: Context, migrating: Bool = true) throws -> StateStore? {
        do {
            return try openExistingStore(context, migrating: migrating)
        } catch StateStoreError.notFound(.file) {
            return nil
        }
    }

    private func storeOptions(create: Bool, migrate: Bool) -> StateStore.Options {
        var options = StateStore.Options()
        options.createIfMissing = create
        options.migrate = migrate
        if let timeout = value(Option.busyTimeout) { options.busyTimeoutMilliseconds = timeout.value }
        return options
    }
}

extension String {
    fileprivate var trimmingTrailingSlashes: String {
        var text = self
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
