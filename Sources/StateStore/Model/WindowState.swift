/// Everything WindowStore keeps about one window: its size class, its navigation stack, the item it
/// presents, and what its split view and tab view bind (column visibility, the preferred compact
/// column, the selected tab). The layout — sheet or push — is never stored; ``layout(for:)``
/// derives it from the size class alone, and carries the rest as it is.
public struct WindowState: Hashable, Sendable {
    /// The session (app instance) the window belongs to.
    public var session: String
    /// The window's id within its session.
    public var window: String
    /// What a write stores of the window: every field below but the ids and the stamps, held as one
    /// value (``WindowContent``), so that they are compared, hashed and built in one place. The
    /// engine's verbs grow and shrink the arrays through it, in place, where the public
    /// properties' get and set would copy them.
    package var content: WindowContent

    /// The horizontal size class the window last had.
    public var sizeClass: SizeClass {
        get { content.sizeClass }
        set { content.sizeClass = newValue }
    }
    /// The window's own navigation stack, bottom first.
    public var path: [Route] {
        get { content.path }
        set { content.path = newValue }
    }
    /// The presented item, or `nil`.
    public var item: Route? {
        get { content.item }
        set { content.item = newValue }
    }
    /// Routes stacked above the item: inside the sheet when compact, pushed after it when regular.
    /// Always empty when ``item`` is `nil`.
    public var itemPath: [Route] {
        get { content.itemPath }
        set { content.itemPath = newValue }
    }
    /// What a size-class change does to a presented item.
    public var policy: SizeChangePolicy {
        get { content.policy }
        set { content.policy = newValue }
    }
    /// Which columns the window's split view shows: what `NavigationSplitView(columnVisibility:)`
    /// binds. ``ColumnVisibility/automatic`` in a new window.
    public var columnVisibility: ColumnVisibility {
        get { content.columnVisibility }
        set { content.columnVisibility = newValue }
    }
    /// The column the window's split view shows when it collapses to one (a compact width): what
    /// `NavigationSplitView(preferredCompactColumn:)` binds. `nil`, as in a new window, when none
    /// was recorded: the view chooses.
    public var preferredCompactColumn: SplitViewColumn? {
        get { content.preferredCompactColumn }
        set { content.preferredCompactColumn = newValue }
    }
    /// The tab the window's tab view shows, as the app names its tabs: what `TabView(selection:)`
    /// binds. 1–256 bytes of UTF-8 without control characters, as an id; `nil`, as in a new
    /// window, when none was recorded.
    public var selectedTab: String? {
        get { content.selectedTab }
        set { content.selectedTab = newValue }
    }
    // Package surface: the two setters, for the package's tests, which build a state as the store
    // would have stamped it.
    /// 1 on the first write, +1 on every write; 0 for a window never written. Set by the store.
    public package(set) var revision: Int
    /// When this revision was written. Set by the store.
    public package(set) var updatedAt: Timestamp

    /// A window as it starts: unspecified size class, empty path, no item, `migrate`, columns
    /// ``ColumnVisibility/automatic``, no preferred compact column and no selected tab.
    public init(
        session: String, window: String, sizeClass: SizeClass = .unspecified, path: [Route] = [],
        item: Route? = nil, itemPath: [Route] = [], policy: SizeChangePolicy = .migrate
    ) {
        self.init(
            session: session, window: window, sizeClass: sizeClass, path: path, item: item, itemPath: itemPath,
            policy: policy, columnVisibility: .automatic)
    }

    /// A window with what its split view and tab view bind too; anything left out is as in a new
    /// window.
    public init(
        session: String, window: String, sizeClass: SizeClass = .unspecified, path: [Route] = [],
        item: Route? = nil, itemPath: [Route] = [], policy: SizeChangePolicy = .migrate,
        columnVisibility: ColumnVisibility = .automatic, preferredCompactColumn: SplitViewColumn? = nil,
        selectedTab: String? = nil
    ) {
        self.init(
            session: session, window: window,
            content: WindowContent(
                sizeClass: sizeClass, path: path, item: item, itemPath: itemPath, policy: policy,
                columnVisibility: columnVisibility, preferredCompactColumn: preferredCompactColumn,
                selectedTab: selectedTab))
    }

    /// A window of `session` and `window` holding `content`, at revision 0.
    package init(session: String, window: String, content: WindowContent) {
        self.session = session
        self.window = window
        self.content = content
        revision = 0
        updatedAt = Timestamp(millisecondsSince1970: 0)
    }

    /// The number of routes in ``path``, ``item`` and ``itemPath`` together.
    public var routeCount: Int { path.count + (item == nil ? 0 : 1) + itemPath.count }

    /// Whether two states are the same in every field, the ids and the tab compared as the store
    /// compares them: by their bytes (Swift's `==` on `String` takes a composed and a decomposed
    /// "é" for one string, where the store keeps two windows and two tabs).
    public static func == (a: WindowState, b: WindowState) -> Bool {
        a.revision == b.revision && a.updatedAt == b.updatedAt && a.hasSameContent(as: b)
            && a.session.utf8.elementsEqual(b.session.utf8) && a.window.utf8.elementsEqual(b.window.utf8)
    }

    /// Whether `other` holds what this state holds — its size class, routes, policy, columns and
    /// tab (by its bytes) — whatever its ids and stamps: what a write stores.
    ///
    /// Package surface: the host's window model skips an edit that changes nothing it would store,
    /// and tells its own writes from others' by what they hold.
    package func hasSameContent(as other: WindowState) -> Bool {
        content == other.content
    }

    /// Hashes what `==` compares, the ids and the tab by their bytes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(Array(session.utf8))
        hasher.combine(Array(window.utf8))
        hasher.combine(content)
        hasher.combine(revision)
        hasher.combine(updatedAt)
    }

    /// Checks the ids and the selected tab, the item/itemPath invariant and the limits
    /// (``Limits``).
    public func validate() throws(StateStoreError) {
        try validateIdentifier(session, "session id")
        try validateIdentifier(window, "window id")
        if let selectedTab { try Self.validate(selectedTab: selectedTab) }
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
        // The ids and the tab, each at most 256 bytes, escaped at most twice that: within the 2,048.
        if routeBytes + routeCount * 600 + 2048 > Limits.windowStateBytes {
            let size = jsonBytes().count
            guard size <= Limits.windowStateBytes else {
                throw .invalidInput(
                    "window '\(session)' '\(window)' is \(size) bytes of JSON; the limit is \(Limits.windowStateBytes)")
            }
        }
    }

    /// Writes the state as its JSON object, keys in `CodingKeys` order: the shape `Codable` writes
    /// and reads too, with a writer that keeps each route's value as its stored text.
    ///
    /// Package surface: statectl writes a window into its `--json` output with it (`show`, `set`,
    /// `revert`), the object `export` writes.
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
        writer.key(CodingKeys.columnVisibility.rawValue)
        writer.string(columnVisibility.rawValue)
        writer.key(CodingKeys.preferredCompactColumn.rawValue)
        if let preferredCompactColumn { writer.string(preferredCompactColumn.rawValue) } else { writer.null() }
        writer.key(CodingKeys.selectedTab.rawValue)
        if let selectedTab { writer.string(selectedTab) } else { writer.null() }
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
/// writes (every key; `item` is `null` when there is none), and a decoded state is checked as
/// one given to the store is.
extension WindowState: Codable {
    /// The state's keys, in the order it is written: its content, then what the store stamps.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case session, window, sizeClass, path, item, itemPath, policy
        case columnVisibility, preferredCompactColumn, selectedTab
        case revision, updatedAt
    }

    /// Reads every key of the state's object and checks the state (ids, limits, `itemPath` without
    /// an item): a state the store would refuse is `DecodingError.dataCorrupted`.
    /// `columnVisibility`, `preferredCompactColumn` and `selectedTab` may be left out, as objects
    /// written before the state had them leave them out: they are then as in a new window.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            session: try container.decode(String.self, forKey: .session),
            window: try container.decode(String.self, forKey: .window),
            sizeClass: try container.decode(SizeClass.self, forKey: .sizeClass),
            path: try container.decode([Route].self, forKey: .path),
            item: try container.decode(Route?.self, forKey: .item),
            itemPath: try container.decode([Route].self, forKey: .itemPath),
            policy: try container.decode(SizeChangePolicy.self, forKey: .policy),
            columnVisibility: try container.decodeIfPresent(ColumnVisibility.self, forKey: .columnVisibility)
                ?? .automatic,
            preferredCompactColumn: try container.decodeIfPresent(
                SplitViewColumn.self, forKey: .preferredCompactColumn),
            selectedTab: try container.decodeIfPresent(String.self, forKey: .selectedTab))
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

    /// Writes the state's object, `item`, `preferredCompactColumn` and `selectedTab` `null` when
    /// there is none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let fields: KeyValuePairs<CodingKeys, any Encodable> = [
            .session: session, .window: window, .sizeClass: sizeClass, .path: path, .item: item as Route?,
            .itemPath: itemPath, .policy: policy, .columnVisibility: columnVisibility,
            .preferredCompactColumn: preferredCompactColumn as SplitViewColumn?, .selectedTab: selectedTab as String?,
            .revision: revision, .updatedAt: updatedAt,
        ]
        for (key, value) in fields { try container.encode(value, forKey: key) }
    }
}
