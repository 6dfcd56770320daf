import Foundation
import StateStore
import Testing

/// Rows another program wrote — a revision at the top of its range, a window deleted without its
/// history — give a clear error and exit 74 with nothing written, or are written over (a window
/// deleted and written again starts at revision 1, its leftover history gone): never a crash, never
/// a raw constraint error.
struct StoredValuesCommandTests {
    @Test func aRevisionAtTheLargestIntegerIsDamageForSetRevertAndImport() throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("A")) }
        try rawSQL(fixture.database, "UPDATE windows SET revision = 9223372036854775807")
        let before = try fixture.dump()
        let document = Data(#"{"format":"statectl/1","windows":[{"session":"s","window":"w"}]}"#.utf8)
        for arguments in [["set", "s", "w", "--push", "B"], ["revert", "s", "w", "1"], ["import", "-"]] {
            let run = try fixture.run(arguments, stdin: document)
            #expect(run.status == 74, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: window 's' 'w' is damaged"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("9223372036854775807"), "\(arguments)")
            #expect(run.stdout.isEmpty, "\(arguments)")
        }
        #expect(try fixture.dump() == before, "nothing written")
        let shown = try fixture.run(["show", "s", "w", "--json"])
        #expect(shown.status == 0)
        #expect(try jsonObject(shown.stdout)["revision"] as? Int == Int.max, "read as stored")
        let missing = try fixture.run(["revert", "s", "w", "7"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("kept: 1–1"), "\(missing.stderr)")
    }

    @Test(arguments: [Int64.min, Int64.max])
    func timeStampsAtTheEndsOfTheirRangeAreShown(_ milliseconds: Int64) throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("A")) }
        try rawSQL(fixture.database, "UPDATE windows SET updated_at = \(milliseconds)")
        for arguments in [["show", "s", "w"], ["list"], ["list", "--json"], ["history", "s", "w"], ["export"]] {
            let run = try fixture.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(run.stdout.contains("Z"), "\(arguments)")
        }
    }

    @Test func aRevisionThatIsTextIsDamageNamingTheWindow() throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("A")) }
        try rawSQL(fixture.database, "UPDATE windows SET revision = 'abc'")
        let before = try fixture.dump()
        for arguments in [["set", "s", "w", "--push", "B"], ["show", "s", "w"], ["list"]] {
            let run = try fixture.run(arguments)
            #expect(run.status == 74, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("'s' 'w' has revision 'abc'"), "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments)")
        }
        #expect(try fixture.dump() == before)
    }

    @Test func aWindowDeletedByHandIsWrittenAgainFromRevisionOne() throws {
        let fixture = Fixture()
        for name in ["A", "B", "C"] { #expect(try fixture.run(["set", "s", "w", "--push", name]).status == 0) }
        try rawSQL(fixture.database, "DELETE FROM windows")
        let set = try fixture.run(["set", "s", "w", "--push", "New", "--json"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try jsonObject(set.stdout)["revision"] as? Int == 1)
        let history = try jsonArray(try fixture.run(["history", "s", "w", "--json"]).stdout)
        #expect(history.map { $0["revision"] as? Int } == [1], "the leftover history is gone")

        try rawSQL(fixture.database, "DELETE FROM windows")
        let document = Data(#"{"format":"statectl/1","windows":[{"session":"s","window":"w"}]}"#.utf8)
        let imported = try fixture.run(["import", "-", "--json"], stdin: document)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try jsonArray(imported.stdout).map { $0["revision"] as? Int } == [1])
        #expect(try fixture.run(["check"]).status == 0)
    }
    /// A path damaged by hand stops SQLite's count of routes for the whole listing: `list` says
    /// which window, exits 74 and prints no row, in tables and in JSON, whole or narrowed.
    @Test func aListingOverADamagedPathNamesItsWindowAndPrintsNothing() throws {
        let fixture = Fixture()
        try fixture.save("a", "w") { $0.push(route("A")) }
        try fixture.save("s", "w") {
            $0.sizeClass = .regular
            $0.push(route("A"))
        }
        try rawSQL(fixture.database, #"UPDATE windows SET path = '[{"type":"A",' WHERE session = 's'"#)
        for arguments in [
            ["list"], ["list", "--json"], ["list", "s"], ["list", "--size-class", "regular", "--json"],
        ] {
            let run = try fixture.run(arguments)
            #expect(run.status == 74, "\(arguments): \(run.status) \(run.stderr)")
            #expect(
                run.stderr.hasPrefix("Error: stored window 's' 'w' has a path that cannot be read: "),
                "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments)")
        }
        let other = try fixture.run(["list", "a", "--json"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(try jsonArray(other.stdout).count == 1)
    }
}
