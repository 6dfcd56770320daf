import StateStore

extension Invocation {
    /// The database file this command line names.
    func databasePath(_ context: Context) throws(UsageError) -> String {
        guard
            let path = DatabaseLocation.path(
                option: value(Option.database)?.path, environment: EnvironmentVariable.value(named:))
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
        } else if command.usesDefaultDatabase, let path = context.environment(.statectlDB) {
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
