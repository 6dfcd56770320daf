// The Changes room's package surface: declarations that exist for StateStoreHost and statectl,
// beyond the public API, each saying who uses it and why. Package declarations of this room
// that those two use and the engine is itself built on stay with the code they belong to, marked
// "Package surface:" in their documentation, as in every room: `grep -rn "Package surface"
// Sources/StateStore` lists the whole surface.

extension WindowStore {
    /// ``changeFeed(session:after:)`` for a store this process has just opened and migrated: the
    /// schema is not checked again through the store's connection, which a host's first frame
    /// reads through without waiting.
    ///
    /// Package surface: the host's session makes its feed with it after its first frames, from the
    /// position ``sessionAtOpen(session:budget:)`` read.
    package func changeFeedOfOpenedStore(
        session: String? = nil, after position: Int64
    ) throws(StateStoreError)
        -> ChangeFeed
    {
        try Self.checkHasFile(path)
        return try ChangeFeed(path: path, options: options, session: session, after: position)
    }

    /// A feed of the store at `path`, which need not exist yet (`statectl watch`): a file created
    /// later, by any process, is opened as a store with `options` (never created by the feed) and
    /// reported from its first change.
    ///
    /// Package surface: `statectl watch` watches with it, started before any app may have made the
    /// file.
    package static func changeFeed(
        path: String, session: String? = nil, after position: Int64? = nil, options: Options = Options()
    ) throws(StateStoreError) -> ChangeFeed {
        guard !path.isEmpty else { throw .invalidInput("database path is empty") }
        try Self.checkHasFile(path)
        return try ChangeFeed(path: path, options: options, session: session, after: position, awaitingCreation: true)
    }
}
