import Foundation
import StateStore
import Testing

/// What a window's split view and tab view bind — its column visibility, its preferred compact
/// column, its selected tab — is part of its revisioned state: saved, kept, reverted, logged,
/// exported and imported with the rest, carried by the rule and never derived.
struct SplitViewAndTabTests {
    static func at(_ milliseconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: milliseconds) }

    static let split = WindowState(
        session: "s", window: "w", sizeClass: .regular, path: [route("Category", #""desserts""#)],
        columnVisibility: .doubleColumn, preferredCompactColumn: .content, selectedTab: "recipes")

    // MARK: Saved, kept, reverted

    @Test func theyAreSavedKeptInTheHistoryAndRevertedLikeTheRest() throws {
        let store = try WindowStore.inMemory()
        let first = try store.save(Self.split)
        #expect(first.columnVisibility == .doubleColumn && first.preferredCompactColumn == .content)
        #expect(try store.window(session: "s", window: "w") == first)

        try store.update(session: "s", window: "w") { $0.columnVisibility = .detailOnly }
        try store.update(session: "s", window: "w") { $0.preferredCompactColumn = nil }
        let last = try store.update(session: "s", window: "w") { $0.selectedTab = nil }
        #expect(last.revision == 4 && last.path == Self.split.path, "the rest as it was")

        let history = try store.history(session: "s", window: "w")
        #expect(history.map(\.columnVisibility) == [.detailOnly, .detailOnly, .detailOnly, .doubleColumn])
        #expect(history.map(\.preferredCompactColumn) == [nil, nil, .content, .content])
        #expect(history.map(\.selectedTab) == [nil, "recipes", "recipes", "recipes"])

        let reverted = try store.revert(session: "s", window: "w", to: 1)
        #expect(reverted.revision == 5)
        #expect(reverted.columnVisibility == .doubleColumn && reverted.preferredCompactColumn == .content)
        #expect(reverted.selectedTab == "recipes")
        // Each change of them alone is a revision of its own: a write of them is a write.
        #expect(try store.windows(session: "s") == [reverted])
    }

    /// A change feed reports them, and a deleted window's states leave the log with them.
    @Test func aFeedReportsThemAndADeletionTakesThemOutOfTheLog() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        let feed = try store.changeFeed()
        let saved = try store.save(Self.split)
        let events = try feed.poll()
        #expect(events.compactMap(\.change?.state) == [saved])

        try store.deleteWindow(session: "s", window: "w")
        #expect(
            try rawQuery(
                path,
                "SELECT count(*) FROM changes WHERE column_visibility IS NOT NULL OR preferred_compact_column IS NOT NULL OR selected_tab IS NOT NULL"
            ) == ["0"])
        #expect(try feed.poll().map { $0.change?.state == nil } == [true])
    }

    // MARK: Export and import

    @Test func exportAndImportCarryThem() throws {
        let source = try WindowStore.inMemory()
        try source.save(Self.split)
        try source.save(WindowState(session: "s", window: "plain"))
        var bytes: [UInt8] = []
        try source.export { bytes += $0 }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(
            text.contains(
                #""policy":"migrate","columnVisibility":"doubleColumn","preferredCompactColumn":"content","selectedTab":"recipes","revision":1"#
            ))
        #expect(
            text.contains(
                #""policy":"migrate","columnVisibility":"automatic","preferredCompactColumn":null,"selectedTab":null,"revision":1"#
            ))

        let target = try WindowStore.inMemory()
        let imported = try target.importDocument(try StateDocument(utf8: bytes))
        #expect(imported.map(\.window) == ["plain", "w"])
        let window = try #require(try target.window(session: "s", window: "w"))
        #expect(window.columnVisibility == .doubleColumn)
        #expect(window.preferredCompactColumn == .content)
        #expect(window.selectedTab == "recipes")
        #expect(try target.window(session: "s", window: "plain") == imported[0])
    }

    /// A document written before the state had them imports, each window with them as a new
    /// window has them; an explicit `null` is the same.
    @Test func aDocumentWithoutThemImportsAsNewWindowsHaveThem() throws {
        let document = try StateDocument(
            parsing: #"""
                {"format":"statectl/1","windows":[
                  {"session":"s","window":"old","sizeClass":"compact","path":[],"item":null,"itemPath":[],"policy":"dismiss","revision":4,"updatedAt":"2026-11-30T05:45:14.123Z"},
                  {"session":"s","window":"nulls","preferredCompactColumn":null,"selectedTab":null},
                  {"session":"s","window":"set","columnVisibility":"all","preferredCompactColumn":"sidebar","selectedTab":"t"}
                ]}
                """#)
        #expect(document.windows[0] == WindowState(session: "s", window: "old", sizeClass: .compact, policy: .dismiss))
        #expect(document.windows[1] == WindowState(session: "s", window: "nulls"))
        #expect(
            document.windows[2]
                == WindowState(
                    session: "s", window: "set", columnVisibility: .all, preferredCompactColumn: .sidebar,
                    selectedTab: "t"))
    }

    static let badWindows: [(json: String, message: String)] = [
        (
            #"{"session":"s","window":"w","columnVisibility":"double-column"}"#,
            "windows[1].columnVisibility: 'double-column' is not a column visibility (automatic, all, doubleColumn, detailOnly)"
        ),
        (#"{"session":"s","window":"w","columnVisibility":null}"#, "windows[1].columnVisibility"),
        (
            #"{"session":"s","window":"w","preferredCompactColumn":"none"}"#,
            "windows[1].preferredCompactColumn: 'none' is not a split view column (sidebar, content, detail)"
        ),
        (#"{"session":"s","window":"w","selectedTab":""}"#, "windows[1]: selected tab is empty"),
        (
            #"{"session":"s","window":"w","selectedTab":"a\u0007"}"#,
            "windows[1]: selected tab contains a control character (U+0007)"
        ),
        (#"{"session":"s","window":"w","selectedTab":1}"#, "windows[1].selectedTab"),
        (#"{"session":"s","window":"w","selectedTab":"a","selectedTab":"b"}"#, "'selectedTab' appears twice"),
    ]

    /// An unknown value is refused naming the window and the key (a document is imported whole or
    /// not at all: `statectl`'s tests check that nothing is written).
    @Test(arguments: badWindows.indices)
    func anUnknownValueIsRefusedNamingTheWindowAndTheKey(_ index: Int) throws {
        let (json, message) = Self.badWindows[index]
        let text = #"{"format":"statectl/1","windows":[{"session":"s","window":"good"},"# + json + "]}"
        #expect {
            _ = try StateDocument(parsing: text)
        } throws: { error in
            guard case .invalidInput(let description) = error as? StateStoreError else { return false }
            return description.contains(message)
        }
    }

    // MARK: Carried, not derived

    /// The rule carries them as they are: a restore into any size class keeps them, and the layout
    /// of a state is the same whatever they are.
    @Test(arguments: SizeClass.allCases)
    func theRuleCarriesThemAndDerivesNothingFromThem(_ sizeClass: SizeClass) throws {
        var state = Self.split
        state.present(route("Recipe", "7"))
        state.policy = .dismiss
        let restoration = state.restored(into: sizeClass)
        #expect(restoration.restored.columnVisibility == .doubleColumn)
        #expect(restoration.restored.preferredCompactColumn == .content)
        #expect(restoration.restored.selectedTab == "recipes")
        var plain = state
        plain.columnVisibility = .automatic
        plain.preferredCompactColumn = nil
        plain.selectedTab = nil
        #expect(plain.layout(for: sizeClass) == state.layout(for: sizeClass))
        #expect(plain.restored(into: sizeClass).layout == restoration.layout)
        let store = try WindowStore.inMemory()
        try store.save(state)
        #expect(try store.restore(session: "s", window: "w", into: sizeClass)?.saved.selectedTab == "recipes")
    }

    // MARK: What a host restores

    /// The package reads a host restores from give the state's tab.
    @Test func aHostsRestoreReadsGiveTheStatesTab() throws {
        let store = try WindowStore.inMemory()
        try store.save(Self.split)
        try store.save(WindowState(session: "s", window: "none"))
        let restored = try store.restoredWindow(session: "s", window: "w")
        #expect(restored.selectedTab == "recipes" && restored.state?.columnVisibility == .doubleColumn)
        #expect(try store.restoredWindow(session: "s", window: "missing").selectedTab == nil)
        let opened = Dictionary(
            uniqueKeysWithValues: try store.sessionAtOpen(session: "s", budget: 1 << 20).windows.map {
                ($0.id, $0.window)
            })
        #expect(opened["w"]?.selectedTab == "recipes")
        #expect(opened["w"]?.state?.preferredCompactColumn == .content)
        #expect(opened["none"]?.selectedTab == nil)
        #expect(opened.count == 2)
    }

    // MARK: The schema

    /// `windows` refuses what the store never writes, whoever writes it.
    @Test func theSchemaRefusesUnknownValues() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        try WindowStore(path: path).save(WindowState(session: "s", window: "w"))
        for sql in [
            "UPDATE windows SET column_visibility = 'wide'", "UPDATE windows SET column_visibility = NULL",
            "UPDATE windows SET preferred_compact_column = 'middle'",
        ] {
            #expect(throws: (any Error).self, "\(sql)") { try rawSQL(path, sql) }
        }
        try rawSQL(path, "UPDATE windows SET preferred_compact_column = 'detail', column_visibility = 'detailOnly'")
        let state = try #require(try WindowStore(path: path).window(session: "s", window: "w"))
        #expect(state.preferredCompactColumn == .detail && state.columnVisibility == .detailOnly)
    }
}

/// A store of schema 5 — the selected tab a scene fact, the state without a split view — migrates
/// to schema 6 with its data; a migration that fails leaves it as it was.
struct SplitViewAndTabMigrationTests {
    static let columnsOfSchema5 = "session, window, size_class, path, item, item_path, policy, revision, updated_at"

    /// What a build of schema 5 left: windows with history and a change log, scene facts with and
    /// without tabs, of windows with and without state, and a history a row deleted by hand left.
    static func makeFifthSchemaStore(at path: String) throws {
        do {
            let database = try Database(path: path, create: true, busyTimeoutMilliseconds: 1000)
            try database.useWAL()
            _ = try Migrator(migrations: Array(Migration.embedded.prefix(5))).migrate(database) {
                Timestamp(millisecondsSince1970: 1_764_460_000_000)
            }
        }
        #expect(try rawQuery(path, "PRAGMA user_version") == ["5"])
        let insert = "INSERT INTO windows (\(columnsOfSchema5)) VALUES"
        let keep = "INSERT INTO window_history (\(columnsOfSchema5)) SELECT \(columnsOfSchema5) FROM windows"
        try rawSQL(
            path,
            """
            \(insert) ('main', 'inbox', 'regular', '[]', NULL, '[]', 'migrate', 1, 1764460801000);
            \(keep) WHERE window = 'inbox';
            UPDATE windows SET path = '[{"type":"Folder","value":"inbox"}]', revision = 2, updated_at = 1764460802000
                WHERE window = 'inbox';
            \(keep) WHERE window = 'inbox' AND revision = 2;
            \(insert) ('main', 'plain', 'compact', '[]', NULL, '[]', 'dismiss', 1, 1764460803000);
            \(keep) WHERE window = 'plain';
            \(insert) ('main', 'gone', 'compact', '[]', NULL, '[]', 'migrate', 1, 1764460804000);
            DELETE FROM windows WHERE window = 'gone';
            INSERT INTO window_history (\(columnsOfSchema5)) VALUES
                ('main', 'ghost', 'compact', '[]', NULL, '[]', 'migrate', 1, 1764460700000),
                ('main', 'ghost', 'compact', '[]', NULL, '[]', 'migrate', 2, 1764460701000);
            INSERT INTO window_scenes (session, window, kind, focused_at, selected_tab, scene) VALUES
                ('main', 'inbox', 'mail', 100, 'sent', 'S1'),
                ('main', 'tabs', 'mail', 200, 'search', NULL),
                ('main', 'bare', 'settings', 50, NULL, NULL),
                ('main', 'ghost', NULL, NULL, 'x', NULL);
            """)
    }

    @Test func aStoreOfTheFifthSchemaMigratesWithItsTabsAndEverythingElse() throws {
        let folder = TemporaryFolder()
        let path = folder.file("old.db")
        try Self.makeFifthSchemaStore(at: path)
        let oldChanges = try rawQuery(path, "SELECT seq, \(Self.columnsOfSchema5) FROM changes ORDER BY seq")
        let oldScenes = try rawQuery(path, "SELECT session, window, kind, focused_at, scene FROM window_scenes")

        var inspect = WindowStore.Options()
        inspect.migrate = false
        let old = try WindowStore(path: path, options: inspect)
        #expect(try old.migrationStatus().pending == [MigrationInfo(version: 6, name: "split_view_and_tab")])
        // Checked in its own columns, a store of schema 5 is sound (its tabs are checked where they are).
        let oldReport = try old.check()
        #expect(oldReport.rowProblems.isEmpty && oldReport.schemaProblems.isEmpty, "\(oldReport)")
        #expect(try rawQuery(path, "PRAGMA user_version") == ["5"], "inspecting migrates nothing")

        let before = Timestamp.now()
        let store = try WindowStore(path: path)
        let after = Timestamp.now()
        #expect(try rawQuery(path, "PRAGMA user_version") == ["6"])
        let report = try store.check()
        #expect(report.isOK, "\(report)")

        // A window with state takes its scene's tab into its current revision; nothing else moves.
        let inbox = try #require(try store.window(session: "main", window: "inbox"))
        #expect(inbox.revision == 2 && inbox.updatedAt == SplitViewAndTabTests.at(1_764_460_802_000))
        #expect(inbox.selectedTab == "sent" && inbox.columnVisibility == .automatic)
        #expect(inbox.preferredCompactColumn == nil && inbox.path == [route("Folder", #""inbox""#)])
        #expect(try store.history(session: "main", window: "inbox").map(\.selectedTab) == ["sent", nil])
        let plain = try #require(try store.window(session: "main", window: "plain"))
        #expect(plain.policy == .dismiss && plain.selectedTab == nil && plain.revision == 1)

        // A window known by its scene alone, with a tab, has a state holding the tab, at revision 1,
        // written at the migration; a history left behind by hand is gone first.
        for (window, tab) in [("tabs", "search"), ("ghost", "x")] {
            let state = try #require(try store.window(session: "main", window: window))
            #expect(state.revision == 1 && state.selectedTab == tab)
            #expect(state.sizeClass == .unspecified && state.path.isEmpty && state.item == nil)
            // Whole milliseconds of SQLite's clock, which may round up by one.
            #expect(
                (before.millisecondsSince1970...(after.millisecondsSince1970 + 1)).contains(
                    state.updatedAt.millisecondsSince1970))
            #expect(try store.history(session: "main", window: window) == [state])
        }
        // One without a tab stays without state.
        #expect(try store.window(session: "main", window: "bare") == nil)

        // The scene facts are as they were, the tab read from the state.
        #expect(try rawQuery(path, "SELECT session, window, kind, focused_at, scene FROM window_scenes") == oldScenes)
        #expect(
            try rawQuery(path, "SELECT count(*) FROM pragma_table_info('window_scenes') WHERE name = 'selected_tab'")
                == ["0"])
        #expect(
            try store.scenes(session: "main") == [
                WindowScene(session: "main", window: "bare", kind: "settings", focusedAt: SplitViewAndTabTests.at(50)),
                WindowScene(session: "main", window: "ghost", selectedTab: "x", hasState: true),
                WindowScene(
                    session: "main", window: "inbox", kind: "mail", focusedAt: SplitViewAndTabTests.at(100),
                    selectedTab: "sent", hasState: true),
                WindowScene(session: "main", window: "plain", hasState: true),
                WindowScene(
                    session: "main", window: "tabs", kind: "mail", focusedAt: SplitViewAndTabTests.at(200),
                    selectedTab: "search", hasState: true),
            ])
        #expect(try store.focusedWindow(session: "main") == "tabs")
        #expect(try store.recordedSceneSessions(session: "main").map(\.window) == ["inbox"])

        // The change log keeps its rows, the migration adds none; a feed reads them all, the
        // current revision of a window with the tab it now has.
        #expect(try rawQuery(path, "SELECT seq, \(Self.columnsOfSchema5) FROM changes ORDER BY seq") == oldChanges)
        let feed = try store.changeFeed(after: 0)
        let states = try feed.poll().map { $0.change.map { "\($0.window)@\($0.state?.selectedTab ?? "-")" } }
        #expect(states == ["inbox@-", "inbox@sent", "plain@-", "gone@-", "gone@-"])

        // And it goes on from there.
        let next = try store.update(session: "main", window: "inbox") { $0.columnVisibility = .all }
        #expect(next.revision == 3 && next.selectedTab == "sent")
        try store.setSelectedTab("drafts", session: "main", window: "tabs")
        #expect(try store.window(session: "main", window: "tabs")?.revision == 2)
    }

    /// The real migration, failing near its end (a hand-made index stops the scene's column from
    /// being dropped): schema, data and version exactly as before, and once the cause is gone it
    /// goes through.
    @Test func aFailingMigrationLeavesTheStoreAsItWas() throws {
        let folder = TemporaryFolder()
        let path = folder.file("old.db")
        try Self.makeFifthSchemaStore(at: path)
        try rawSQL(path, "CREATE INDEX by_hand ON window_scenes (selected_tab)")
        let before = try rawDump(path)

        #expect {
            try WindowStore(path: path)
        } throws: { error in
            guard case .damaged(let failure) = error as? StateStoreError else { return false }
            return failure.message.hasPrefix("migration 0006_split_view_and_tab failed: ")
        }
        #expect(try rawDump(path) == before, "schema, data and user_version as before")
        #expect(try rawQuery(path, "PRAGMA integrity_check") == ["ok"])

        try rawSQL(path, "DROP INDEX by_hand")
        let store = try WindowStore(path: path)
        #expect(try store.window(session: "main", window: "inbox")?.selectedTab == "sent")
        #expect(try store.check().isOK)
    }
}
