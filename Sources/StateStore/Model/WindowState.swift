/// Everything StateStore keeps about one window: its size class, its navigation stack and the
/// item it presents. The layout — sheet or push — is never stored; ``layout(for:)`` derives it.
public struct WindowState: Hashable, Sendable, Codable {
    /// The session (app instance) the window belongs to.
    public var session: String
    /// The window's id within its session.
    public var window: String
    /// The horizontal size class the window last had.
    public var sizeClass: SizeClass
    /// The window's own navigation stack, bottom first.
    public var path: [Route]
    /// The presented item, or `nil`.
    public var item: Route?
    /// Routes stacked above the item: inside the sheet when compact, pushed after it when regular.
    /// Always empty when ``item`` is `nil`.
    public var itemPath: [Route]
    /// What a size-class change does to a presented item.
    public var policy: SizeChangePolicy
    /// 1 on the first write, +1 on every write; 0 for a window never written. Set by the store.
    public package(set) var revision: Int
    /// When this revision was written. Set by the store.
    public package(set) var updatedAt: Timestamp

    /// A window as it starts: unspecified size class, empty path, no item, `migrate`.
    public init(
        session: String, window: String, sizeClass: SizeClass = .unspecified, path: [Route] = [],
        item: Route? = nil, itemPath: [Route] = [], policy: SizeChangePolicy = .migrate
    ) {
        self.session = session
        self.window = window
        self.sizeClass = sizeClass
        self.path = path
        self.item = item
        self.itemPath = itemPath
        self.policy = policy
        self.revision = 0
        self.updatedAt = Timestamp(millisecondsSince1970: 0)
    }

    /// The number of routes in ``path``, ``item`` and ``itemPath`` together.
    public var routeCount: Int { path.count + (item == nil ? 0 : 1) + itemPath.count }

    /// Checks the ids, the item/itemPath invariant and the limits of SPEC §2.
    public func validate() throws(StateStoreError) {
        try validateIdentifier(session, "session id")
        try validateIdentifier(window, "window id")
        if item == nil && !itemPath.isEmpty {
            throw .invalidInput("window '\(session)' '\(window)': itemPath must be empty when there is no item")
        }
        guard routeCount <= Limits.routesPerWindow else {
            throw .invalidInput(
                "window '\(session)' '\(window)' has \(routeCount) routes; the limit is \(Limits.routesPerWindow)")
        }
        // Escaping at most doubles a type or id, so the JSON outside the values is bounded: measure
        // the whole state only when the values come near the limit.
        let routeBytes =
            path.reduce(0) { $0 + $1.json.utf8.count } + itemPath.reduce(0) { $0 + $1.json.utf8.count }
            + (item?.json.utf8.count ?? 0)
        if routeBytes + routeCount * 600 + 2048 > Limits.windowStateBytes {
            let size = jsonBytes().count
            guard size <= Limits.windowStateBytes else {
                throw .invalidInput(
                    "window '\(session)' '\(window)' is \(size) bytes of JSON; the limit is \(Limits.windowStateBytes)")
            }
        }
    }

    /// Writes the state as SPEC §2's JSON object, keys in its order.
    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("session")
        writer.string(session)
        writer.key("window")
        writer.string(window)
        writer.key("sizeClass")
        writer.string(sizeClass.rawValue)
        writer.key("path")
        path.write(to: &writer)
        writer.key("item")
        if let item { item.write(to: &writer) } else { writer.null() }
        writer.key("itemPath")
        itemPath.write(to: &writer)
        writer.key("policy")
        writer.string(policy.rawValue)
        writer.key("revision")
        writer.integer(revision)
        writer.key("updatedAt")
        writer.timestamp(updatedAt)
        writer.endObject()
    }

    /// The state as minified JSON.
    func jsonBytes() -> [UInt8] {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.bytes
    }
}
