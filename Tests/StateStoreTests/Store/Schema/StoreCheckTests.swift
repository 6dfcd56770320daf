import Foundation
import StateStore
import Testing

/// `check` compares the schema with what this build's migrations create and reads every row as
/// the store would: each change another program made that the store cannot live with is named.
struct StoreCheckTests {
    /// A sound store: two windows with history, a deletion in the log, a window's scene facts.
    static func populate(_ path: String) throws {
        let store = try WindowStore(path: path)
        try store.update(session: "s", window: "w") { $0.push(route("A", #"{"id":1}"#)) }
        try store.update(session: "s", window: "w") { $0.present(route("Item")) }
        try store.focus(session: "s", window: "w", kind: "mail")
        try store.setSelectedTab("inbox", session: "s", window: "w")
        try store.save(WindowState(session: "s", window: "gone"))
        #expect(try store.deleteWindow(session: "s", window: "gone"))
    }

    static let damage: [(what: String, sql: String, schema: String?, row: String?)] = [
        ("a dropped trigger", "DROP TRIGGER windows_log_insert", "trigger windows_log_insert is missing", nil),
        ("a dropped change log", "DROP TABLE changes", "table changes is missing", nil),
        (
            "a changed trigger",
            "DROP TRIGGER windows_log_delete; CREATE TRIGGER windows_log_delete AFTER DELETE ON windows BEGIN SELECT 1; END",
            "trigger windows_log_delete differs", nil
        ),
        (
            "an extra index", "CREATE INDEX extra ON windows (updated_at)",
            "index extra is not part of this build's schema", nil
        ),
        ("an extra table", "CREATE TABLE notes (x)", "table notes is not part of this build's schema", nil),
        (
            "JSON that does not parse", #"UPDATE windows SET path = '[{"type":' WHERE window = 'w'"#, nil,
            "window 's' 'w': path is not an array of routes"
        ),
        (
            "a path that is not routes", #"UPDATE windows SET path = '[1]' WHERE window = 'w'"#, nil,
            "window 's' 'w': path is not an array of routes"
        ),
        (
            "revision = 'abc'", "UPDATE windows SET revision = 'abc'", nil,
            "window 's' 'w': revision is 'abc', not a whole number ≥ 1"
        ),
        (
            "a real time stamp", "UPDATE windows SET updated_at = 1.5", nil,
            "window 's' 'w': updated_at is 1.5, not milliseconds"
        ),
        (
            "an id as a blob", "UPDATE windows SET window = X'77'", nil,
            "window 's' 'w': window is X'77', not UTF-8 text"
        ),
        (
            "an id with a control character", "UPDATE windows SET window = 'w' || char(27)", nil,
            "window id contains a control character"
        ),
        (
            "an item path without an item",
            #"UPDATE windows SET item = NULL, item_path = '[{"type":"B","value":null}]'"#, nil, "itemPath must be empty"
        ),
        (
            "a bad history row", "UPDATE window_history SET size_class = 'huge' WHERE revision = 1", nil,
            "history of window 's' 'w', revision 1: size_class is 'huge'"
        ),
        (
            "a change row with a state in a deletion", "UPDATE changes SET policy = 'migrate' WHERE revision IS NULL",
            nil,
            "(window 's' 'gone'): a deletion, but its policy is 'migrate'"
        ),
        (
            "a change row that does not parse", "UPDATE changes SET item = '{' WHERE revision = 2", nil,
            "(window 's' 'w'): item is not a route"
        ),
        (
            "a migration record", "UPDATE schema_migrations SET applied_at = 'yesterday' WHERE version = 1", nil,
            "migration record 1: applied_at is 'yesterday'"
        ),
        (
            "a dropped scene trigger", "DROP TRIGGER windows_delete_scene", "trigger windows_delete_scene is missing",
            nil
        ),
        (
            "a dropped scene index", "DROP INDEX window_scenes_kind_focus", "index window_scenes_kind_focus is missing",
            nil
        ),
        (
            "a kind past its limit", "UPDATE window_scenes SET kind = '\(String(repeating: "k", count: 65))'", nil,
            "scene of window 's' 'w': kind is 65 bytes; the limit is 64"
        ),
        (
            "a real focus time", "UPDATE window_scenes SET focused_at = 1.5", nil,
            "scene of window 's' 'w': focused_at is 1.5, not milliseconds"
        ),
        (
            "a tab as a blob", "UPDATE window_history SET selected_tab = X'74' WHERE revision = 3", nil,
            "history of window 's' 'w', revision 3: selected_tab is X'74', not UTF-8 text"
        ),
        (
            "a tab with a control character", "UPDATE windows SET selected_tab = 'a' || char(7)", nil,
            "window 's' 'w': selected tab contains a control character (U+0007)"
        ),
        (
            "a tab past its limit", "UPDATE windows SET selected_tab = '\(String(repeating: "t", count: 257))'", nil,
            "window 's' 'w': selected tab is 257 bytes; the limit is 256"
        ),
        (
            "an unknown column visibility", "UPDATE window_history SET column_visibility = 'wide' WHERE revision = 1",
            nil,
            "history of window 's' 'w', revision 1: column_visibility is 'wide', not one of automatic, all, doubleColumn, detailOnly"
        ),
        (
            "an unknown compact column", "UPDATE changes SET preferred_compact_column = 'middle' WHERE revision = 2",
            nil, "(window 's' 'w'): preferred_compact_column is 'middle', not NULL, sidebar, content or detail"
        ),
        (
            "a change row without a column visibility",
            "UPDATE changes SET column_visibility = NULL WHERE revision = 2",
            nil, "(window 's' 'w'): column_visibility is NULL, not UTF-8 text"
        ),
        (
            "a deletion with a tab", "UPDATE changes SET selected_tab = 't' WHERE revision IS NULL", nil,
            "(window 's' 'gone'): a deletion, but its selected_tab is 't'"
        ),
        (
            "a scene's id with a control character", "UPDATE window_scenes SET window = 'w' || char(27)", nil,
            "window id contains a control character"
        ),
    ]

    @Test(arguments: damage.indices)
    func eachDamageIsNamedAndNothingChanges(_ index: Int) throws {
        let (what, sql, schema, row) = Self.damage[index]
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        try Self.populate(path)
        #expect(try WindowStore(path: path).check().isOK, "sound before: \(what)")
        try rawSQL(path, sql)
        let before = contents(path)

        var inspect = WindowStore.Options()
        inspect.migrate = false
        let report = try WindowStore(path: path, options: inspect).check()
        #expect(!report.isOK, "\(what)")
        #expect(report.integrity == ["ok"], "\(what): SQLite finds nothing wrong")
        if let schema {
            #expect(report.schemaProblems.contains { $0.contains(schema) }, "\(what): \(report.schemaProblems)")
        } else {
            #expect(report.schemaProblems.isEmpty, "\(what): \(report.schemaProblems)")
        }
        if let row {
            // A write to `windows` by hand is logged too: the change row is named as well.
            #expect(report.rowProblems.contains { $0.contains(row) }, "\(what): \(report.rowProblems)")
            #expect((1...2).contains(report.rowProblems.count), "\(what): \(report.rowProblems)")
        } else {
            #expect(report.rowProblems.isEmpty, "\(what): \(report.rowProblems)")
        }
        #expect(contents(path) == before, "\(what): check changed nothing")
    }

    @Test func aSoundStoreIsOKOfEverySchemaOnTheWay() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        try Self.populate(path)
        let report = try WindowStore(path: path).check()
        #expect(report.isOK, "\(report)")
        #expect(report.schemaProblems.isEmpty && report.rowProblems.isEmpty)
        // A store in memory, and a missing file's empty store, are sound too.
        #expect(try WindowStore.inMemory().check().isOK)
        var inspect = WindowStore.Options()
        inspect.migrate = false
        #expect(try WindowStore.inMemory(options: inspect).check().isOK)
    }

    @Test func manyBadRowsAreCountedPastTheFirstHundred() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        try store.importDocument(StateDocument(windows: (0..<250).map { WindowState(session: "s", window: "w\($0)") }))
        try rawSQL(path, "UPDATE window_history SET revision = 'x'")
        let problems = try store.check().rowProblems
        #expect(problems.count == 101)
        #expect(problems.last == "… and 150 more rows of window_history like these")
    }
}
