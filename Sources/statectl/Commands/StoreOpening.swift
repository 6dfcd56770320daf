import StateStore

extension Invocation {
    /// The app's store `--simulator`, `--container`, `--app` or `--group` names, if one was given.
    var appContainer: AppContainer? {
        if let target = value(Option.simulator) { return .simulator(target) }
        if let bundle = value(Option.container) { return .container(bundle: bundle.value) }
        if let bundle = value(Option.app) { return .app(bundle: bundle.value) }
        if let group = value(Option.group) { return .group(group.value) }
        return nil
    }

    /// The database file this command line names: `--db`, the app's store `--simulator`,
    /// `--container`, `--app` or `--group` names, or the default location.
    func databasePath(_ context: Context) throws -> String {
        if let known = context.databasePath { return known }
        if let container = appContainer {
            let path = try container.databasePath(home: try context.environment(.home), context)
            context.databasePath = path
            return path
        }
        guard
            let path = try DatabaseLocation.path(
                option: value(Option.database)?.path, environment: EnvironmentVariable.path(named:))
        else {
            throw UsageError("no database location: pass --db, or set STATECTL_DB or HOME", command: command)
        }
        try refuseInMemory(path)
        return path
    }

    /// Refuses a database location of `:memory:`, two ways of naming the database, and a
    /// `$STATECTL_DURABILITY` (or, with `--simulator`, `$STATECTL_XCRUN_TIMEOUT`) it cannot read,
    /// before anything is opened or run, so that the usage error wins over any other.
    func checkDatabaseLocation(_ context: Context) throws(UsageError) {
        guard command.usesDatabase else { return }
        _ = try durability()
        let ways = [
            Option.database.option, Option.simulator.option, Option.container.option, Option.app.option,
            Option.group.option,
        ].filter { option in
            occurrences.contains { $0.option == option }
        }
        if ways.count > 1 {
            throw UsageError(
                "\(ways.map { "'\($0.name)'" }.joined(separator: " and ")) each name the database: give one",
                command: command)
        }
        if !command.usesDefaultDatabase, let way = ways.first, way != Option.database.option {
            throw UsageError("'\(way.name)' is not for \(command.name), which takes --db only", command: command)
        }
        if ways.first == Option.simulator.option { try Xcrun.checkTimeout(command) }
        if let option = value(Option.database) {
            try refuseInMemory(option.path)
        } else if command.usesDefaultDatabase, let path = EnvironmentVariable.statectlDB.value {
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
    func openOrCreateStore(_ context: Context, migrating: Bool = true) throws -> WindowStore {
        try WindowStore(path: try databasePath(context), options: storeOptions(create: true, migrate: migrating))
    }

    /// Opens the database for a command that needs it to exist (to read it, or to delete from
    /// it), creating nothing: a missing file is ``StateStoreError/notFound(_:)`` (exit 66).
    func openExistingStore(_ context: Context, migrating: Bool = true) throws -> WindowStore {
        try WindowStore(path: try databasePath(context), options: storeOptions(create: false, migrate: migrating))
    }

    /// Opens the database for a command that only reports on it (`check`, `migrate --status`):
    /// creating, migrating and writing nothing, read-only when it may not be written (see
    /// ``openReading(_:options:)``). A missing file is ``StateStoreError/notFound(_:)`` (exit 66).
    func openStoreToInspect(_ context: Context) throws -> WindowStore {
        try openReading(try databasePath(context), options: storeOptions(create: false, migrate: false))
    }

    /// Opens the database for a command that only reads or reports, creating nothing and writing
    /// nothing: not a schema into an empty file (a zero-length file, or SQLite's with no tables,
    /// reads as an empty store), nor the journal mode into a file not in WAL (a backup copy stays
    /// byte for byte). Only a file of an older schema is migrated first, as every command but
    /// `check` and `migrate --status` does. A missing file is ``StateStoreError/notFound(_:)``
    /// (exit 66): a path where no store exists is not an empty store.
    func openStoreForReading(_ context: Context) throws -> WindowStore {
        var options = storeOptions(create: false, migrate: false)
        // A read goes through each page once (a listing of a million windows, 290 MB): SQLite's
        // default cache of 2 MiB would only add to statectl's memory.
        options.pageCacheKiB = Self.readingPageCacheKiB
        let path = try databasePath(context)
        let store = try openReading(path, options: options)
        let version = try store.migrationStatus().schemaVersion
        if version == 0 { return try WindowStore.inMemory() }  // empty: nothing in it to read
        if version < WindowStore.schemaVersion {
            guard !store.options.readOnly else {
                throw CommandFailure(
                    status: ExitStatus.ioError,
                    message: "\(path) has schema version \(version) and this build reads \(WindowStore.schemaVersion): "
                        + "it must be migrated first, which this process cannot do (it may not write the file or its "
                        + "folder); run 'statectl migrate' as one that can")
            }
            try store.migrate()
        }
        return store
    }

    /// The page cache of a command that only reads, in KiB.
    static let readingPageCacheKiB = 256

    /// Opens `path` for a command that writes nothing: as every command does, and when that fails
    /// for want of write access (a WAL store in a folder this process may not write, where SQLite
    /// cannot make the `-shm` a reader needs), read-only (``WindowStore/Options/readOnly``). The
    /// first failure is the one reported when the second open fails too.
    private func openReading(_ path: String, options: WindowStore.Options) throws -> WindowStore {
        let failure: StateStoreError
        do {
            return try WindowStore(path: path, options: options)
        } catch {
            guard case .io(let cause) = error, [.cantOpen, .readOnly].contains(cause.code.primary) else { throw error }
            failure = error
        }
        var readOnly = options
        readOnly.readOnly = true
        guard let store = try? WindowStore(path: path, options: readOnly) else { throw failure }
        return store
    }

    /// A change feed of the database for `watch`, which need not exist yet: a file created later
    /// is opened (and migrated) once it appears, never created by the feed. With `polling`, the
    /// feed polls instead of waiting for file notifications.
    func openChangeFeed(_ context: Context, session: String?, polling: Bool) throws -> ChangeFeed {
        var options = storeOptions(create: false, migrate: true)
        options.forcePolling = polling
        return try WindowStore.changeFeed(path: try databasePath(context), session: session, options: options)
    }

    /// The durability asked for: `--durability`, else `$STATECTL_DURABILITY` (empty counts as
    /// unset), else normal. A value of the variable that is neither is a usage error, found before
    /// anything is opened (an option given wins, and the variable is not read).
    func durability() throws(UsageError) -> WindowStore.Durability {
        if let option = value(Option.durability) { return option }
        guard let text = EnvironmentVariable.statectlDurability.value, !text.isEmpty else { return .normal }
        guard let durability = WindowStore.Durability(rawValue: text) else {
            throw UsageError(
                "\(EnvironmentVariable.statectlDurability.rawValue)=\(text): expected one of "
                    + WindowStore.Durability.choices,
                command: command)
        }
        return durability
    }

    private func storeOptions(create: Bool, migrate: Bool) -> WindowStore.Options {
        var options = WindowStore.Options()
        // statectl runs no Dispatch, and one command at a time: it may use every descriptor.
        options.descriptorReserve = 0
        options.notificationPrefix = appContainer?.notificationPrefix
        options.createIfMissing = create
        options.migrate = migrate
        if let timeout = value(Option.busyTimeout) { options.busyTimeoutMilliseconds = timeout.value }
        // Checked before the command ran (``checkDatabaseLocation(_:)``): what is read here is valid.
        options.durability = (try? durability()) ?? .normal
        return options
    }
}
