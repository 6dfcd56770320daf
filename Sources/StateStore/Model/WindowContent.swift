/// What a write stores of a window: its state without its ids and without what the store stamps
/// (the revision and the time) — its size class, its routes, its policy, and what its split view
/// and tab view bind. The one list of these: a state's content is read, set, compared and hashed
/// as this value (``WindowState/content``).
package struct WindowContent: Hashable, Sendable {
    /// The horizontal size class the window last had.
    package var sizeClass: SizeClass
    /// The window's own navigation stack, bottom first.
    package var path: [Route]
    /// The presented item, or `nil`.
    package var item: Route?
    /// Routes stacked above the item.
    package var itemPath: [Route]
    /// What a size-class change does to a presented item.
    package var policy: SizeChangePolicy
    /// Which columns the window's split view shows.
    package var columnVisibility: ColumnVisibility
    /// The column the window's split view shows when it collapses to one.
    package var preferredCompactColumn: SplitViewColumn?
    /// The tab the window's tab view shows.
    package var selectedTab: String?

    /// A content; anything left out is as in a new window.
    package init(
        sizeClass: SizeClass = .unspecified, path: [Route] = [], item: Route? = nil, itemPath: [Route] = [],
        policy: SizeChangePolicy = .migrate, columnVisibility: ColumnVisibility = .automatic,
        preferredCompactColumn: SplitViewColumn? = nil, selectedTab: String? = nil
    ) {
        self.sizeClass = sizeClass
        self.path = path
        self.item = item
        self.itemPath = itemPath
        self.policy = policy
        self.columnVisibility = columnVisibility
        self.preferredCompactColumn = preferredCompactColumn
        self.selectedTab = selectedTab
    }

    /// Whether two contents are the same, the tab compared as the store compares it: by its bytes
    /// (Swift's `==` on `String` takes a composed and a decomposed "é" for one tab, where the
    /// store keeps two).
    package static func == (a: WindowContent, b: WindowContent) -> Bool {
        a.sizeClass == b.sizeClass && a.policy == b.policy && a.columnVisibility == b.columnVisibility
            && a.preferredCompactColumn == b.preferredCompactColumn && a.path == b.path && a.item == b.item
            && a.itemPath == b.itemPath && sameBytes(a.selectedTab, b.selectedTab)
    }

    private static func sameBytes(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): a.utf8.elementsEqual(b.utf8)
        default: false
        }
    }

    /// Hashes what `==` compares, the tab by its bytes.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(sizeClass)
        hasher.combine(path)
        hasher.combine(item)
        hasher.combine(itemPath)
        hasher.combine(policy)
        hasher.combine(columnVisibility)
        hasher.combine(preferredCompactColumn)
        hasher.combine(selectedTab.map { Array($0.utf8) })
    }
}
