import Foundation
import StateStore
import Testing

/// What is printed for people can neither drive the terminal (control characters from the
/// database are shown escaped, as `\u{1B}`) nor break a table's alignment (widths are measured in
/// grapheme clusters, as terminals draw them); `--json` keeps the data exact.
struct TerminalSafetyTests {
    /// A window id that would retitle the terminal, and a route type that would clear it.
    static let evilWindow = "evil\u{1B}]0;pwned\u{7}"
    static let evilType = "T\u{1B}[2J"
    static let shownWindow = #"evil\u{1B}]0;pwned\u{7}"#
    static let shownType = #"T\u{1B}[2J"#

    /// Writes a window by hand, as `sqlite3` would: ids and a route type with control characters,
    /// which the store itself refuses.
    private func writeByHand(_ fixture: Fixture) throws {
        try fixture.save("s", "plain") { $0.push(route("A")) }
        try rawSQL(
            fixture.database,
            """
            INSERT INTO windows (session, window, size_class, path, item, item_path, policy, revision, updated_at)
            VALUES ('s', 'evil' || char(27) || ']0;pwned' || char(7), 'compact',
                    json_array(json_object('type', 'T' || char(27) || '[2J', 'value', NULL)),
                    json_object('type', 'T' || char(27) || '[2J', 'value', 1), '[]', 'migrate', 1, 0);
            """)
    }

    private func expectNoControlCharacters(_ text: String, _ what: String) {
        let controls = text.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }
        #expect(controls.isEmpty, "\(what): \(text.debugDescription)")
    }

    @Test func tablesAndRecordsShowControlCharactersEscaped() throws {
        let fixture = Fixture()
        try writeByHand(fixture)
        for arguments in [["list"], ["show", "s"], ["restore", "s"], ["restore", "s", "--size-class", "regular"]] {
            let run = try fixture.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            expectNoControlCharacters(run.stdout, "\(arguments)")
            #expect(run.stdout.contains(Self.shownWindow), "\(arguments): \(run.stdout)")
            #expect(run.stdout.contains(Self.shownType + ":1"), "\(arguments): \(run.stdout)")
        }
        let export = try fixture.run(["export", "s"])
        #expect(export.stdout.contains(#""window":"evil\u001b]0;pwned\u0007""#), "JSON escapes it its own way")
    }

    @Test func jsonKeepsTheDataExact() throws {
        let fixture = Fixture()
        try writeByHand(fixture)
        let rows = try jsonArray(try fixture.run(["list", "--json"]).stdout)
        #expect(rows.map { $0["window"] as? String }.contains(Self.evilWindow))
        let states = try jsonArray(try fixture.run(["show", "s", "--json"]).stdout)
        let evil = try #require(states.first { $0["window"] as? String == Self.evilWindow })
        #expect((evil["item"] as? [String: Any])?["type"] as? String == Self.evilType)
    }

    @Test func deleteAndWatchLinesShowControlCharactersEscaped() throws {
        let fixture = Fixture()
        // Started before the database exists, the watcher prints every change from the first.
        let watcher = try WatchCommandTests.Watcher(fixture, ["--count", "4", "--timeout", "20"])
        try watcher.waitForMessage("to be created")
        try writeByHand(fixture)
        // Printed before the delete: a deleted window's states leave the log, so a watch that read
        // only after the delete would print the writes as deletions.
        try watcher.waitForLines(2)
        let delete = try fixture.run(["delete", "s"])
        #expect(delete.status == 0, "\(delete.stderr)")
        expectNoControlCharacters(delete.stdout, "delete")
        #expect(delete.stdout.contains("Deleted window 's' '\(Self.shownWindow)'."))
        let (status, lines) = try watcher.finish()
        #expect(status == 0)
        #expect(lines.count == 4, "two writes, two deletions")
        let text = lines.joined(separator: "\n")
        expectNoControlCharacters(text, "watch")
        #expect(
            text.contains(
                "s \(Self.shownWindow): revision 1, compact, path \(Self.shownType), item \(Self.shownType):1"))
        #expect(text.contains("s \(Self.shownWindow): deleted"), "\(text)")
    }

    @Test func messagesShowControlCharactersEscaped() throws {
        let fixture = Fixture()
        // A row written by hand that cannot be read: the message quotes its ids.
        try fixture.save("s", "plain") { $0.push(route("A")) }
        try rawSQL(
            fixture.database,
            """
            INSERT INTO windows (session, window, size_class, path, item, item_path, policy, revision, updated_at)
            VALUES ('s', 'evil' || char(27) || ']0;pwned' || char(7), 'compact', 'nope', NULL, '[]', 'migrate', 1, 0);
            """)
        let show = try fixture.run(["show", "s"])
        #expect(show.status == 74)
        expectNoControlCharacters(show.stderr, "show")
        #expect(show.stderr.contains("stored window 's' '\(Self.shownWindow)' cannot be read"), "\(show.stderr)")
        // An import document with a key of its own: the message quotes the key.
        let document = #"{"format":"statectl/1","windows":[{"session":"s","window":"w","k\u001b]0;x\u0007":1}]}"#
        let run = try fixture.run(["import"], stdin: Data(document.utf8))
        #expect(run.status == 65)
        expectNoControlCharacters(run.stderr, "import")
        #expect(run.stderr.contains(#"unknown key 'k\u{1B}]0;x\u{7}'"#), "\(run.stderr)")
        // A usage error quoting an argument.
        let usage = try fixture.run(["lis\u{1B}[2Jt"])
        #expect(usage.status == 64)
        expectNoControlCharacters(usage.stderr, "usage")
        #expect(usage.stderr.contains(#"unknown command 'lis\u{1B}[2Jt'"#), "\(usage.stderr)")
    }

    /// Window ids and the columns a terminal gives them.
    static let widths: [(String, Int)] = [
        ("🇫🇷", 2),  // a flag: two regional indicators
        ("❤️", 2),  // U+2764 and VS16
        ("👨‍👩‍👧", 2),  // three people and two zero-width joiners
        ("e\u{301}", 1),  // e and a combining acute accent
        ("日本", 4),  // East Asian wide
        ("x", 1),
        ("日本語の窓", 10),
    ]

    @Test func tableWidthsCountGraphemeClusters() throws {
        let fixture = Fixture()
        for (window, _) in Self.widths { try fixture.save("s", window) { $0.push(route("A")) } }
        let lines = try fixture.run(["list"]).stdout.split(separator: "\n").map(String.init)
        let column = Self.widths.map(\.1).max()!
        // SESSION is 7 columns wide; WINDOW as wide as its widest cell; then two spaces.
        #expect(lines[0].hasPrefix("SESSION  WINDOW" + String(repeating: " ", count: column - 6 + 2) + "SIZE CLASS"))
        for (window, width) in Self.widths {
            let row =
                "s" + String(repeating: " ", count: 8) + window + String(repeating: " ", count: column - width + 2)
            #expect(lines.contains { $0.hasPrefix(row + "unspecified") }, "\(window.debugDescription): \(lines)")
        }
    }

    @Test func aLongCellIsCutBetweenGraphemeClusters() throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.present(route(String(repeating: "🇫🇷", count: 30))) }
        let row = try #require(try fixture.run(["list"]).stdout.split(separator: "\n").last)
        // ITEM is cut at 48 columns: 23 flags (46 columns) and the ellipsis.
        #expect(row.contains("  " + String(repeating: "🇫🇷", count: 23) + "…  "), "\(row)")
    }
}
