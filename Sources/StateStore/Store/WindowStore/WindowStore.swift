/// The store hosts link: every window's size class, navigation path and presented item, kept in
/// one SQLite file that many processes (hosts and `statectl`) share.
///
/// One instance is safe to share across tasks and threads: its single connection is behind a
/// lock, and calls take turns. Calls block while SQLite works, up to
/// ``Options/busyTimeoutMilliseconds`` when another process holds the write lock. A call made from
/// inside a closure the store is running (``update(session:window:expectedRevision:_:)``,
/// ``forEachWindow(session:sizeClass:_:)``, ``export(sessions:to:)``), on the same thread, fails
/// with ``StateStoreError/reentrantCall(_:)`` instead of waiting for itself.
public final class WindowStore: Sendable {
    /// How hard a commit works to survive a power loss.
    public enum Durability: String, Sendable, CaseIterable {
        /// `synchronous=NORMAL`: a committed write survives a crash of the process; a power loss
        /// may undo the last commits, never corrupt the file.
        case normal
        /// `synchronous=FULL` and `fullfsync=ON`: a committed write survives a power loss too. On
        /// Apple platforms `fsync` leaves the data in the drive's cache, so each commit there also
        /// asks the drive to write it out (`F_FULLFSYNC`), which costs milliseconds a commit;
        /// elsewhere `fullfsync` changes nothing.
        case full
    }

    /// Settings for opening a store.
    public struct Options: Sendable {
        /// How long to wait for another connection's lock before ``StateStoreError/busy(_:)``.
        public var busyTimeoutMilliseconds: Int = 5000
        /// How hard a commit works to survive a power loss (``Durability/normal``: a crash of the process).
        public var durability: Durability = .normal
        /// Revisions kept per window, the current one included (at least 1).
        public var historyLimit: Int = 100
        /// The most bytes of window state (routes and item, as stored) the change log keeps from
        /// earlier writes, besides its limit of 1,000 changes: before each write, the oldest
        /// changes go until both hold. The latest write's changes are kept whole, however large.
        /// 16 MiB by default: the last 1,000 changes of windows up to 16 KiB each, the last 16 of
        /// windows at the 1 MiB limit. A feed that falls behind what the log keeps is told
        /// (``ChangeEvent/gap(_:)``). At least 0.
        public var changeLogByteLimit: Int = ChangeLog.defaultByteLimit
        /// Create the file (and its folders) when missing; otherwise a missing file is
        /// ``StateStoreError/notFound(_:)``.
        public var createIfMissing = true
        /// Apply pending migrations on open. Off, an older schema can only be inspected
        /// (``migrationStatus()``, ``check()``) or migrated (``migrate()``).
        public var migrate = true
        /// The data-protection class of the file, its `-wal` and its `-shm` on Apple platforms
        /// (``FileProtection/completeUntilFirstUserAuthentication``: writable while the device is
        /// locked, from its first unlock); no effect elsewhere.
        public var fileProtection: FileProtection = .completeUntilFirstUserAuthentication
        /// The time stamped on writes.
        public var clock: @Sendable () -> Timestamp = { Timestamp.now() }
        /// Make this store's change feeds poll every 50 ms even where file notifications are to
        /// be had (``ChangeNotification/polling(reason:)`` says it was asked for): for a file
        /// system whose notifications miss changes and is not known to.
        public var forcePolling = false
        /// What starts the name of the Darwin notification this store's writers post after each
        /// commit, and its feeds wait for, on Apple platforms: the App Group identifier of the
        /// container the file lives in, so that an app and its extensions, sandboxed, share it.
        /// Writers post the plain name too, and feeds listen for both; `nil` (the default): the
        /// plain name only. Ignored elsewhere (Linux feeds watch the files with inotify).
        public var notificationPrefix: String? = nil
        /// When a change feed polls between notifications; tests lengthen its safety net, so that
        /// only a notification can wake a feed.
        package var changeSchedule = WakeSchedule()
        /// What a change feed waits on between polls, and its clock: the system's, or a test's fake.
        package var wakeSources = WakeSources.system
        /// File descriptors this store leaves free for the rest of the process: it opens no
        /// connection, feed or watch that would leave fewer (see ``DescriptorReserve``), so that
        /// libdispatch, which traps when it cannot open one, always finds one. `statectl`, which
        /// runs no Dispatch, sets 0.
        ///
        /// Package surface: statectl sets it.
        package var descriptorReserve = 8
        /// The most SQLite keeps of the file's pages in memory, in KiB (at least 1); `nil`: SQLite's
        /// default, about 2 MiB. `statectl`'s commands that only read set a small one: a listing
        /// reads each page once, and a page kept would only add to the process's memory.
        ///
        /// Package surface: statectl sets it.
        package var pageCacheKiB: Int?
        /// Whether a connection reads its file's device and inode from the descriptor SQLite
        /// opened (SQLite's unix VFS). Tests turn it off to run the check that stands where it
        /// cannot: SQLite's own (`SQLITE_FCNTL_HAS_MOVED`) and the path against SQLite's name.
        package var readsDescriptor = true
        /// Open for reading only, creating, migrating and writing nothing: for `statectl`'s commands
        /// that only read, when they may not write the file or its folder. SQLite's read-only
        /// connection reads a WAL file through its `-wal` and `-shm`, beside live writers; a WAL
        /// file beside which neither exists nor can be made is read as it is on disk, without
        /// locks, each call failing with ``StateStoreError/busy(_:)`` if another process wrote it
        /// meanwhile (``Database/Access/snapshot(_:)``).
        ///
        /// Package surface: statectl sets it.
        package var readOnly = false

        /// The defaults: 5 s busy timeout, normal durability, 100 revisions, create and migrate.
        public init() {}
    }

    /// The file's path, or `:memory:`.
    public let path: String
    /// The settings it was opened with.
    public let options: Options
    let connection: Lock<StoreConnection>
    private let interrupter: Database.Interrupter

    /// Opens (or creates) the store at `path`.
    ///
    /// Refuses, leaving the file untouched: a SQLite file that is not a store of ours
    /// (``StateStoreError/notOurs(path:)``), a schema newer than this build
    /// (``StateStoreError/newerSchema(path:found:supported:)``), and a file that is not SQLite or
    /// has more than one hard link or is bind-mounted at a second name
    /// (``StateStoreError/notADatabase(path:)``, ``StateStoreError/io(_:)``).
    public init(path: String, options: Options = Options()) throws(StateStoreError) {
        guard !path.isEmpty else { throw .invalidInput("database path is empty") }
        guard options.historyLimit >= 1 else { throw .invalidInput("historyLimit must be at least 1") }
        guard options.busyTimeoutMilliseconds >= 0 else { throw .invalidInput("busy timeout must not be negative") }
        guard options.changeLogByteLimit >= 0 else { throw .invalidInput("changeLogByteLimit must not be negative") }
        self.path = path
        self.options = options
        if DatabasePath.isFile(path) {
            // The database, its -wal and its -shm.
            try DescriptorReserve.check(3, for: "open \(path)", reserve: options.descriptorReserve, code: .cantOpen)
        }
        let database = try Self.open(path, options)
        connection = Lock(database)
        interrupter = database.interrupter
    }

    /// Stops the call this store runs now, from any thread or a signal's handling thread: the
    /// statement running fails, the write transaction it is in (or the next one) rolls back
    /// instead of committing — ``StateStoreError/busy(_:)`` with ``SQLiteResultCode/interrupt`` —
    /// and nothing of it is written; a backup removes its partial copy. For a host whose system
    /// takes back the time it gave (an expiring background activity), the change stays the host's
    /// to write later; for statectl, a backup stopped by SIGINT.
    ///
    /// Package surface: the host's writer calls it when a background activity expires, and statectl
    /// on SIGINT.
    package func interrupt() {
        interrupter.interrupt()
    }

    /// Forgets an ``interrupt()`` that came before the work about to start (a host begins each
    /// transaction in a new background activity).
    ///
    /// Package surface: the host's writer calls it as each write begins.
    package func clearInterrupt() {
        interrupter.clear()
    }

    /// A private store in memory, gone when the instance is.
    public static func inMemory(options: Options = Options()) throws(StateStoreError) -> WindowStore {
        try WindowStore(path: DatabasePath.inMemory, options: options)
    }

    private static func open(_ path: String, _ options: Options) throws(StateStoreError) -> StoreConnection {
        var create = false
        var createdFolders: [String] = []
        if DatabasePath.isFile(path) {
            try StoreFile.checkLength(of: path)
            switch try StoreFile.inspect(path) {
            case .missing:
                guard options.createIfMissing, !options.readOnly else { throw .notFound(.file(path: path)) }
                createdFolders = try StoreFile.createParentFolders(of: path)
                create = true
            case .directory:
                throw .io(SQLiteFailure(code: .cantOpen, message: "\(path) is a directory, not a database file"))
            case .notAFile:
                throw .io(
                    SQLiteFailure(code: .cantOpen, message: "\(path) is a device, FIFO or socket, not a database file"))
            case .file(let links) where links > 1:
                // SQLite finds the WAL by name: each name would get its own, and the commits in one
                // would be lost to a reader through the other.
                throw .io(
                    SQLiteFailure(
                        code: .cantOpen,
                        message: "\(path) has \(links) hard links; SQLite keeps a write-ahead log per name, so "
                            + "writes through one name would be lost to the others: keep one name (remove the other "
                            + "links), or make a separate copy with `statectl backup`"))
            case .file:
                if let mountPoint = StoreFile.bindMount(of: path) {
                    // One link, two names, a WAL for each, as a hard link has.
                    let what =
                        mountPoint.utf8.elementsEqual(path.utf8)
                        ? "is a file bind-mounted from another name" : "is also mounted at \(mountPoint)"
                    throw .io(
                        SQLiteFailure(
                            code: .cantOpen,
                            message: "\(path) \(what) (`mount --bind`, a container's single-file volume); SQLite "
                                + "keeps a write-ahead log per name, so writes through one name would be lost to the "
                                + "others: mount the folder that holds it instead, or make a separate copy with "
                                + "`statectl backup`"))
                }
            }
        }
        guard options.readOnly else {
            do {
                return try connect(path, options, create: create)
            } catch {
                // A failed create leaves no folder behind (the connection is closed by now).
                StoreFile.removeFolders(createdFolders)
                throw error
            }
        }
        do {
            return try connect(path, options, create: false, access: .readOnly)
        } catch .io(let failure) where [.cantOpen, .readOnly].contains(failure.code.primary) {
            // SQLite reads a WAL file only through a -wal and a -shm, which it cannot make in a folder
            // this process may not write. With neither beside the file, no process has it open in
            // WAL mode: it is read as it is, and each call checks no process has written it since.
            guard StoreFile.hasNoWALBeside(path), let stamp = StoreFile.stamp(of: path) else { throw .io(failure) }
            return try connect(path, options, create: false, access: .snapshot(stamp))
        }
    }

    /// Opens the connection to a file that ``open(_:_:)`` checked, checks it is ours, and
    /// prepares it for use.
    private static func connect(
        _ path: String, _ options: Options, create: Bool, access: Database.Access = .readWrite
    ) throws(StateStoreError) -> StoreConnection {
        let migrator = Migrator()
        let database = try StoreConnection(path: path, create: create, access: access, options: options)
        try database.checkSnapshot()
        var recovering = false
        if DatabasePath.isFile(path) {
            switch try StoreFile.contents(of: database) {
            case .notSQLite:
                // A header a power cut tore is SQLite's to restore, from a hot journal or the WAL
                // that holds page 1: judged only after SQLite has read the file.
                guard StoreFile.hasRecoveryBeside(path) else { throw .notADatabase(path: path) }
                recovering = true
            case .sqlite(let applicationID) where applicationID != 0 && applicationID != Migrator.applicationID:
                throw .notOurs(path: path)
            case .empty, .sqlite:
                break
            }
        }

        // Ours, new, or refused: decided through SQLite (the header may lag the WAL) before any
        // write, the journal mode included.
        let (applicationID, version, objects): (Int, Int, Int)
        do {
            (applicationID, version, objects) = try database.readTransaction {
                () throws(StateStoreError) -> (Int, Int, Int) in
                (
                    try database.integer("PRAGMA application_id") ?? 0,
                    try database.integer("PRAGMA user_version") ?? 0,
                    try database.integer("SELECT count(*) FROM sqlite_schema") ?? 0
                )
            }
        } catch .damaged(let failure) where recovering && failure.code.primary == .notADatabase {
            // SQLite could not restore it either. The WAL it opened stays as it was: not emptied
            // into a file that is not a database, nor deleted.
            database.keepWALOnClose()
            throw .notADatabase(path: path)
        }
        if applicationID == Int(Migrator.applicationID) {
            guard version <= migrator.latestVersion else {
                throw .newerSchema(path: path, found: version, supported: migrator.latestVersion)
            }
        } else if applicationID != 0 || objects != 0 || version != 0 {
            throw .notOurs(path: path)
        }

        try database.execute("PRAGMA synchronous = \(options.durability == .full ? "FULL" : "NORMAL")")
        // SQLite asks an Apple drive to flush its cache (F_FULLFSYNC) only with this pragma; where
        // F_FULLFSYNC does not exist (Linux) SQLite falls back to fsync, so it is set everywhere.
        if options.durability == .full { try database.execute("PRAGMA fullfsync = ON") }
        // What a delete removes is zeroed where the page is written anyway (its rows in pages still
        // in use); the pages it frees are given back at once (``Database/giveSpaceBack(all:)``).
        // Not `ON`, which writes every freed page too: a large window's history turning over
        // would write its size again at each save.
        try database.execute("PRAGMA secure_delete = FAST")
        if let kib = options.pageCacheKiB { try database.execute("PRAGMA cache_size = -\(max(1, kib))") }
        database.schemaVersion = version
        // An inspect-only open (`check`, `migrate --status`) writes nothing, not even the journal
        // mode: a zero-length file stays zero-length. A store that may write uses WAL; only one
        // behind this build takes the write lock to migrate.
        if options.migrate && access == .readWrite {
            // Before the first page is written (WAL's is): a new file is made to give free pages
            // back from the start.
            if version == 0 && objects == 0 { try database.execute("PRAGMA auto_vacuum = INCREMENTAL") }
            try database.useWAL()
            if version < migrator.latestVersion {
                _ = try migrator.migrate(database, clock: options.clock)
                database.schemaVersion = migrator.latestVersion
            }
            try database.useIncrementalVacuum()
        }
        return database
    }

    /// The first column of the first row of `sql`, run on the store's own connection whatever its
    /// schema: for tests that set a limit of the connection (`PRAGMA max_page_count`).
    package func integer(onConnection sql: String) throws(StateStoreError) -> Int? {
        try withConnection { database throws(StateStoreError) in try database.integer(sql) }
    }

    /// Runs `body` with the connection, whatever its schema. `call` names the API call for a
    /// ``StateStoreError/reentrantCall(_:)``.
    func withConnection<T>(
        _ call: String = #function, _ body: (StoreConnection) throws(StateStoreError) -> T
    ) throws(StateStoreError) -> T {
        try connection.withLock(reentered: { .reentrantCall(call) }) { database throws(StateStoreError) in
            // A file read without locks must be as it was before and after the call: then what it
            // read is one state of the file (no-ops for every other connection).
            try database.checkSnapshot()
            let result = try body(database)
            try database.checkSnapshot()
            return result
        }
    }

    /// Runs `body` with the connection, whose schema must be current.
    func withDatabase<T>(
        _ call: String = #function, _ body: (StoreConnection) throws(StateStoreError) -> T
    ) throws(StateStoreError) -> T {
        try withConnection(call) { database throws(StateStoreError) -> T in
            if let stopped = database.stopped { throw stopped }
            guard database.schemaVersion == WindowStore.schemaVersion else {
                throw .invalidInput(
                    "\(path) has schema version \(database.schemaVersion); this build needs \(WindowStore.schemaVersion): migrate it first"
                )
            }
            return try body(database)
        }
    }
}

extension Database {
    /// The first column of the first row, as text.
    func text(_ sql: String) throws(StateStoreError) -> String? {
        var value: String?
        try query(sql) { statement throws(StateStoreError) in
            if value == nil { value = statement.text(0) }
        }
        return value
    }
}

extension Database {
    /// Turns a file made before the store gave space back (`auto_vacuum` none: its free pages
    /// stay in it for good) to incremental auto-vacuum, once, on the first open that may write.
    /// Only a `VACUUM` changes that mode on a file with tables, and migrations run in a
    /// transaction, which `VACUUM` cannot: so it is an open-time step, not a migration. It
    /// rewrites the file (milliseconds for a usual store; seconds for a gigabyte) while other
    /// connections go on reading. Skipped, to be tried by the next open, when another connection
    /// holds the write lock past the busy timeout or the disk has no room for the copy it makes.
    package func useIncrementalVacuum() throws(StateStoreError) {
        guard DatabasePath.isFile(path), try integer("PRAGMA auto_vacuum") == 0 else { return }
        do {
            try execute("PRAGMA auto_vacuum = INCREMENTAL; VACUUM")
        } catch .busy, .io {
            return
        }
    }

    /// Switches the file to WAL, persistently; a no-op for a file already in WAL and in memory.
    package func useWAL() throws(StateStoreError) {
        guard DatabasePath.isFile(path) else { return }
        // Processes that open a new file at once race to switch it to WAL; SQLite answers the loser
        // with busy at once instead of calling the busy handler, so wait here as it would.
        let journal = try retryingBusy(upTo: busyTimeoutMilliseconds) { () throws(StateStoreError) in
            try text("PRAGMA journal_mode = WAL")
        }
        guard journal == "wal" else {
            throw .io(
                SQLiteFailure(code: .cantOpen, message: "cannot use WAL on \(path) (journal mode \(journal ?? "?"))"))
        }
    }
}
