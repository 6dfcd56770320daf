import Foundation
import StateStore
import Testing

/// `statectl check` exits 74 for what the issue found it calling ok — a dropped trigger, a dropped
/// change log, a row whose JSON does not parse, `revision = 'abc'` — naming each problem, and
/// changes nothing and takes no write lock while it looks.
struct CheckCommandTests {
    static let cases: [(sql: String, key: String, problem: String)] = [
        ("DROP TRIGGER windows_log_update", "schemaProblems", "trigger windows_log_update is missing"),
        ("DROP TABLE changes", "schemaProblems", "table changes is missing"),
        (
            #"UPDATE windows SET item = '{"type":"T","value":' WHERE window = 'w'"#, "rowProblems",
            "window 's' 'w': item is not a route"
        ),
        (
            "UPDATE windows SET revision = 'abc'", "rowProblems",
            "window 's' 'w': revision is 'abc', not a whole number ≥ 1"
        ),
    ]

    @Test(arguments: cases.indices)
    func eachProblemIsNamedWithExit74(_ index: Int) throws {
        let (sql, key, problem) = Self.cases[index]
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.present(route("T", "1")) }
        #expect(try fixture.run(["check"]).status == 0)
        try rawSQL(fixture.database, sql)
        let before = try fixture.dump()
        let lock = try WriteLock(fixture.database)
        defer { lock.release() }

        let run = try fixture.run(["--busy-timeout", "0", "check", "--json"])
        #expect(run.status == 74, "\(sql): \(run.stderr)")
        #expect(run.stderr.hasPrefix("Error: \(fixture.database) is damaged: "), "\(sql): \(run.stderr)")
        let report = try jsonObject(run.stdout)
        #expect(report["ok"] as? Bool == false)
        #expect(report["integrity"] as? [String] == ["ok"])
        let problems = try #require(report[key] as? [String], "\(sql): \(report)")
        #expect(problems.contains { $0.contains(problem) }, "\(sql): \(problems)")

        let text = try fixture.run(["--busy-timeout", "0", "check"])
        #expect(text.status == 74)
        #expect(text.stdout.contains(problem), "\(sql): \(text.stdout)")
        #expect(text.stdout.contains("result     DAMAGED"))
        lock.release()
        #expect(try fixture.dump() == before, "\(sql): check changed nothing")
    }

    @Test func aCleanStoreIsOKWithEveryKey() throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.present(route("T", "1")) }
        #expect(try fixture.run(["delete", "s", "w"]).status == 0)
        try fixture.save("s", "x") { $0.push(route("A")) }
        let run = try fixture.run(["check", "--json"])
        #expect(run.status == 0, "\(run.stderr) \(run.stdout)")
        let report = try jsonObject(run.stdout)
        #expect(report["ok"] as? Bool == true)
        #expect(report["rowProblems"] as? [String] == [])
        #expect(report["schemaProblems"] as? [String] == [])
        let text = try fixture.run(["check"])
        #expect(text.stdout.contains("bad rows   (none)\n"), "\(text.stdout)")
        #expect(text.stdout.contains("result     ok\n"))
    }

    /// `check` says how much of the file is free pages, in pages and bytes: none for a store the
    /// library wrote (it gives space back), what a delete by hand left otherwise.
    @Test func freeSpaceIsReportedInPagesAndBytes() throws {
        let fixture = Fixture()
        let big = route("Big", "\"" + String(repeating: "x", count: 60_000) + "\"")
        try fixture.save("s", "w") { $0.path = Array(repeating: big, count: 8) }
        try fixture.save("s", "small") { $0.push(route("A")) }
        #expect(try fixture.run(["delete", "s", "w"]).status == 0)
        let clean = try jsonObject(try fixture.run(["check", "--json"]).stdout)
        #expect(clean["freePages"] as? Int == 0, "\(clean)")
        #expect(clean["freeBytes"] as? Int == 0, "\(clean)")

        try fixture.save("s", "w") { $0.path = Array(repeating: big, count: 8) }
        try rawSQL(fixture.database, "DELETE FROM window_history; DELETE FROM changes")
        let run = try fixture.run(["check", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try jsonObject(run.stdout)
        let pages = try #require(report["freePages"] as? Int, "\(report)")
        let pageSize = try #require(try rawQuery(fixture.database, "PRAGMA page_size").first.flatMap { Int($0) })
        #expect(pages > 100, "\(report)")
        #expect(report["freeBytes"] as? Int == pages * pageSize)
        let text = try fixture.run(["check"])
        #expect(text.stdout.contains("free       \(pages) pages (\(pages * pageSize) bytes)\n"), "\(text.stdout)")
    }
}
