/// What a write stores of a window: its state without its ids and without what the store stamps
/// (the revision and the time) — its size class, its routes, its policy, and what its split view
/// and tab view bind. The one list of these: a state's content is read, set, compared and hashed
/// as this value (``WindowState/content``). Each field starts as in a new window; the engine
/// builds one with the memberwise initializer, any field left out.
package struct WindowContent: Hashable, Sendable {
    /// The horizontal size class the window last had.
    package var sizeClass: SizeClass = .unspecified
    /// The window's own navigation stack, bottom first.
    package var path: [Route] = []
    /// The presented item, or `nil`.
    package var item: Route? = nil
    /// Routes stacked above the item.
    package var itemPath: [Route] = []
    /// What a size-class change does to a presented item.
    package var policy: SizeChangePolicy = .migrate
    /// Which columns the window's split view shows.
    package var columnVisibility: ColumnVisibility = .automatic
    /// The column the window's split view shows when it collapses to one.
    package var preferredCompactColumn: SplitViewColumn? = nil
    /// The tab the window's tab view shows.
    package var selectedTab: String? = nil

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
