/// The store's connection: a ``Database`` and what the store keeps beside it for as long as it is
/// open — the schema version it found, what the change log may hold and what this connection last
/// counted of it, and the notice its commits post. ``WindowStore`` owns one behind its lock; a
/// change feed reads through a plain ``Database``.
final class StoreConnection: Database {
    /// The schema version this connection found or brought the file to.
    var schemaVersion = 0
    /// Whether the write transaction under way deleted windows (see ``changingWindows(_:)``).
    var deletedWindows = false
    /// The most bytes of state the change log keeps from earlier writes
    /// (``WindowStore/Options/changeLogByteLimit``).
    let changeLogByteLimit: Int
    /// The sizes of the change log's states as this connection last counted them; `nil` until a
    /// write needs them, and again whenever they may be wrong (see ``trimChangesToByteLimit()``).
    var changeLogSizes: ChangeLog.Sizes?
    /// The file's page size, read on first use.
    var pageSize = 0
    /// Posted after each commit of the WindowStore API (``changingWindows(_:)``): Apple platforms'
    /// feeds wait for it. Made once the file is open, its name being the resolved path's.
    private(set) var commitNotice: CommitNotice?

    /// Opens `path` for a store opened with `options`, as ``Database/init(path:create:busyTimeoutMilliseconds:access:readsDescriptor:protection:)``
    /// does. The caller has checked the file.
    init(path: String, create: Bool, access: Access, options: WindowStore.Options) throws(StateStoreError) {
        changeLogByteLimit = options.changeLogByteLimit
        try super.init(
            path: path, create: create, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds, access: access,
            readsDescriptor: options.readsDescriptor, protection: options.fileProtection.sqliteOpenFlag)
        commitNotice = CommitNotice(path: path, prefix: options.notificationPrefix)
    }
}
