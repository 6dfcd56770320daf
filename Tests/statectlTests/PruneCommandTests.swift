import Foundation
import StateStore
import Testing

struct PruneCommandTests {
    /// Sessions written long ago (through the library with an old clock) and just now.
    private func populate(_ fixture: Fixture) throws {
        var options = WindowStore.Options()
        options.clock = { Timestamp(millisecondsSince1970: Timestamp.now().millisecondsSince1970 - 40 * 86_400_000) }
        let old = try WindowStore(path: fixture.database, options: options)
        try old.save(WindowState(session: "old", window: "a"))
        try old.save(WindowState(session: "old", window: "b"))
        try old.save(WindowState(session: "mixed", window: "old"))
        try fixture.save("mixed", "new") { $0.push(route("A")) }
        try fixture.save("fresh", "w") { $0.push(route("A")) }
    }

    @Test func dryRunReportsThenPruneRemoves() throws {
        let fixture = Fixture()
        try populate(fixture)
        let before = try fixture.dump()
        let dry = try fixture.run(["prune", "--older-than", "30d", "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let report = try jsonObject(dry.stdout)
        #expect(report["dryRun"] as? Bool == true)
        let sessions = try #require(report["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["session"] as? String } == ["old"])
        #expect(sessions.first?["windows"] as? [String] == ["a", "b"])
        #expect(try fixture.dump() == before, "a dry run removes nothing")

        let run = try fixture.run(["prune", "--older-than=30d"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("SESSION"))
        #expect(run.stdout.contains("old"))
        #expect(run.stderr == "Removed 1 session.\n")
        #expect(try fixture.store().windowSummaries().map(\.session) == ["fresh", "mixed", "mixed"])
        #expect(try fixture.run(["prune", "--older-than", "41d"]).stderr == "Removed 0 sessions.\n")
    }

    @Test(arguments: [
        ["prune"], ["prune", "--older-than", "30"], ["prune", "--older-than", "5w"], ["prune", "--older-than", "-1d"],
    ])
    func badDurationsAreUsageErrors(_ arguments: [String]) throws {
        let fixture = Fixture()
        let run = try fixture.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains("--older-than"))
    }

    /// A whole number too large for the duration is named as that, not as something that is not
    /// a number; the largest that fits is taken (an age older than any write).
    @Test(arguments: [
        ("9223372036854775807d", "106751991167300d"), ("106751991167301d", "106751991167300d"),
        ("99999999999999999999s", "9223372036854775807s"), ("153722867280912931m", "153722867280912930m"),
    ])
    func aDurationOutOfRangeSaysSo(_ age: String, _ largest: String) throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("A")) }
        let run = try fixture.run(["prune", "--older-than", age])
        #expect(run.status == 64)
        #expect(
            run.stderr.hasPrefix(
                "Error: invalid value '\(age)' for '--older-than <duration>': out of range: at most \(largest)\n"),
            "\(run.stderr)")
        let most = try fixture.run(["prune", "--older-than", largest])
        #expect(most.status == 0, "\(most.stderr)")
        #expect(most.stderr == "Removed 0 sessions.\n")
    }

    @Test func aMissingDatabaseIsNotFoundAndStaysMissing() throws {
        let fixture = Fixture()
        for dryRun in [[], ["--dry-run"]] {
            let run = try fixture.run(["prune", "--older-than", "1s", "--json"] + dryRun)
            #expect(run.status == 66)
            #expect(run.stderr == "Error: no database at \(fixture.database)\n")
            #expect(run.stdout.isEmpty)
        }
        #expect(!fixture.exists(fixture.database))
    }
}
