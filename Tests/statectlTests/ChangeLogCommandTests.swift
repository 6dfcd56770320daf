import Foundation
import StateStore
import Testing

/// `watch` sees every change of one large write, says so when it missed changes the log no longer
/// holds, and reports and skips a row it cannot read; `list` fails without half a document.
struct ChangeLogCommandTests {
    typealias Watcher = WatchCommandTests.Watcher

    /// An import document of `count` new windows of session `big`.
    static func document(_ count: Int) -> Data {
        let windows = (0..<count).map { #"{"session":"big","window":"w\#($0)"}"# }
        return Data((#"{"format":"statectl/1","windows":["# + windows.joined(separator: ",") + "]}").utf8)
    }

    static func text(_ url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    /// Waits until the watcher has printed `count` lines.
    static func waitForLines(_ watcher: Watcher, _ count: Int) throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if try text(watcher.output).split(separator: "\n").count >= count { return }
            usleep(10_000)
        }
        throw FixtureError(message: "watch never printed \(count) lines")
    }

    @Test func oneImportOfManyWindowsIsSeenWhole() throws {
        let fixture = Fixture()
        let watcher = try Watcher(fixture, ["--json", "--count", "1500", "--timeout", "60"])
        try watcher.waitForMessage("Waiting for")
        let run = try fixture.run(["import", "-"], stdin: Self.document(1500))
        #expect(run.status == 0, "\(run.stderr)")
        let (status, lines) = try watcher.finish()
        #expect(status == 0)
        let changes = try lines.map(jsonObject)
        #expect(changes.count == 1500)
        #expect(changes.map { $0["window"] as? String } == (0..<1500).map { "w\($0)" })
        #expect(changes.allSatisfy { $0["revision"] as? Int == 1 })
        #expect(!(try Self.text(watcher.errors)).contains("missed"))
    }

    @Test func oneDeletedSessionOfManyWindowsIsSeenWhole() throws {
        let fixture = Fixture()
        let watcher = try Watcher(fixture, ["--json", "--count", "3000", "--timeout", "60"])
        try watcher.waitForMessage("Waiting for")
        #expect(try fixture.run(["import", "-"], stdin: Self.document(1500)).status == 0)
        try Self.waitForLines(watcher, 1500)
        let deleted = try fixture.run(["delete", "big"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let (status, lines) = try watcher.finish()
        #expect(status == 0)
        let deletions = try lines.dropFirst(1500).map(jsonObject)
        #expect(deletions.count == 1500)
        #expect(Set(deletions.compactMap { $0["window"] as? String }) == Set((0..<1500).map { "w\($0)" }))
        #expect(deletions.allSatisfy { $0["state"] is NSNull && $0["revision"] is NSNull })
        #expect(!(try Self.text(watcher.errors)).contains("missed"))
    }

    @Test(arguments: [true, false])
    func aWatcherFarBehindReportsTheGapAndGoesOn(json: Bool) throws {
        let fixture = Fixture()
        // A store of 1,500 separate writes, made elsewhere, appears where the watcher waits: it
        // starts from the first change, which the log no longer holds.
        let elsewhere = fixture.path("elsewhere.db")
        do {
            let store = try WindowStore(path: elsewhere)
            for n in 0..<1500 { try store.save(WindowState(session: "s", window: "w\(n)")) }
        }
        let rows = try rawQuery(elsewhere, "SELECT count(*) FROM changes")
        let kept = try #require(Int(rows[0]))
        #expect(kept >= 1000 && kept < 1500)
        let missed = 1500 - kept
        let watcher = try Watcher(fixture, (json ? ["--json"] : []) + ["--count", String(kept), "--timeout", "60"])
        try watcher.waitForMessage("Waiting for")
        #expect(rename(elsewhere, fixture.database) == 0)
        let (status, lines) = try watcher.finish()
        #expect(status == 0)
        let errors = try Self.text(watcher.errors)
        #expect(errors.contains("Warning: missed \(missed) changes (1–\(missed))"), "\(errors)")
        guard json else {
            // Standard error only: the lines are the changes.
            #expect(lines.map { $0.prefix { $0 != ":" } } == (missed..<1500).map { "s w\($0)" })
            return
        }
        #expect(lines.count == kept + 1)
        let first = try #require(lines.first)
        let gap = try #require(try jsonObject(first)["gap"] as? [String: Any])
        #expect(gap["first"] as? Int == 1)
        #expect(gap["last"] as? Int == missed)
        #expect(gap["count"] as? Int == missed)
        let changes = try lines.dropFirst().map(jsonObject)
        #expect(changes.map { $0["window"] as? String } == (missed..<1500).map { "w\($0)" })
    }

    @Test func aRowThatCannotBeReadIsReportedAndSkipped() throws {
        let fixture = Fixture()
        let watcher = try Watcher(fixture, ["--json", "--count", "2", "--timeout", "60"])
        try watcher.waitForMessage("Waiting for")
        #expect(try fixture.run(["set", "s", "a", "--push", "A"]).status == 0)
        try rawSQL(fixture.database, #"UPDATE windows SET path = '[{"type":' WHERE window = 'a'"#)
        #expect(try fixture.run(["set", "s", "b", "--push", "B"]).status == 0)
        let (status, lines) = try watcher.finish()
        #expect(status == 0)
        #expect(try lines.map(jsonObject).map { $0["window"] as? String } == ["a", "b"])
        let errors = try Self.text(watcher.errors)
        #expect(errors.contains("Warning: skipped change 2 of window 's' 'a', which cannot be read: "), "\(errors)")
        #expect(!errors.contains("SELECT"), "a reason, not the query")
    }

    @Test(arguments: [["list", "--json"], ["list"], ["list", "s", "--json"]])
    func aListingThatMeetsABadRowPrintsOnlyTheError(_ arguments: [String]) throws {
        let fixture = Fixture()
        for window in ["a", "b", "c"] { try fixture.save("s", window) { $0.present(route("Item")) } }
        try rawSQL(fixture.database, "UPDATE windows SET item = '{\"type\":' WHERE window = 'b'")
        let run = try fixture.run(arguments)
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stdout.isEmpty, "no half document: \(run.stdout)")
        #expect(run.stderr.contains("stored window 's' 'b' cannot be read"), "\(run.stderr)")
    }
}
