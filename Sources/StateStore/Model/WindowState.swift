/// Everything WindowStore keeps about one window: its size class, its navigation stack and the
/// item it presents. The layout — sheet or push — is never stored; ``layout(for:)`` derives it.
public struct WindowState: Hashable, Sendable {
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
            path.reduce(0) { $0 + $1.jsonByteCount } + itemPath.reduce(0) { $0 + $1.jsonByteCount }
            + (item?.jsonByteCount ?? 0)
        if routeBytes + routeCount * 600 + 2048 > Limits.windowStateBytes {
            let size = jsonBytes().count
            guard size <= Limits.windowStateBytes else {
                throw .invalidInput(
                    "window '\(session)' '\(window)' is \(size) bytes of JSON; the limit is \(Limits.windowStateBytes)")
            }
        }
    }

    /// Writes the state as SPEC §2's JSON object, keys in its order: the shape `Codable` writes
    /// and reads too, with a writer that keeps each route's value as its stored text.
    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(CodingKeys.session.rawValue)
        writer.string(session)
        writer.key(CodingKeys.window.rawValue)
        writer.string(window)
        writer.key(CodingKeys.sizeClass.rawValue)
        writer.string(sizeClass.rawValue)
        writer.key(CodingKeys.path.rawValue)
        path.write(to: &writer)
        writer.key(CodingKeys.item.rawValue)
        if let item { item.write(to: &writer) } else { writer.null() }
        writer.key(CodingKeys.itemPath.rawValue)
        itemPath.write(to: &writer)
        writer.key(CodingKeys.policy.rawValue)
        writer.string(policy.rawValue)
        writer.key(CodingKeys.revision.rawValue)
        writer.integer(revision)
        writer.key(CodingKeys.updatedAt.rawValue)
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

/// One JSON encoding: `Codable` writes and reads exactly the object ``WindowState/write(to:)``
/// writes (SPEC §2's keys; `item` is `null` when there is none), and a decoded state is checked as
/// one given to the store is.
extension WindowState: Codable {
    /// SPEC §2's keys, in its order.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case session, window, sizeClass, path, item, itemPath, policy, revision, updatedAt
    }

    /// Reads every key of SPEC §2's object and checks the state (ids, limits, `itemPath` without
    /// an item): a state the store would refuse is `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            session: try container.decode(String.self, forKey: .session),
            window: try container.decode(String.self, forKey: .window),
            sizeClass: try container.decode(SizeClass.self, forKey: .sizeClass),
            path: try container.decode([Route].self, forKey: .path),
            item: try container.decode(Route?.self, forKey: .item),
            itemPath: try container.decode([Route].self, forKey: .itemPath),
            policy: try container.decode(SizeChangePolicy.self, forKey: .policy))
        revision = try container.decode(Int.self, forKey: .revision)
        updatedAt = try container.decode(Timestamp.self, forKey: .updatedAt)
        guard revision >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .revision, in: container, debugDescription: "revision \(revision) is negative")
        }
        do {
            try validate()
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }

    /// Writes SPEC §2's object, `item` `null` when there is none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let fields: KeyValuePairs<CodingKeys, any Encodable> = [
            .session: session, .window: window, .sizeClass: sizeClass, .path: path, .item: item as Route?,
            .itemPath: itemPath, .policy: policy, .revision: revision, .updatedAt: updatedAt,
        ]
        for (key, value) in fields { try container.encode(value, forKey: key) }
    }
}
