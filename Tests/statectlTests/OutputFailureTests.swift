import Foundation
import StateStore
import Testing

/// The exit status tells the truth about what was written when standard output fails — full,
/// closed, or a pipe whose reader has gone: 3 when the change was committed (a script must not
/// retry it), 74 when nothing was written.
struct OutputFailureTests {
    /// s/w at revision 2, s/other at 1, a session "old" not written for 40 days, and an import
    /// document beside the database.
    private static func populate(_ fixture: Fixture) throws {
        try fixture.save("s", "w") { $0.push(route("A")) }
        try fixture.save("s", "w") { $0.push(route("B")) }
        try fixture.save("s", "other") { $0.push(route("A")) }
        var options = WindowStore.Options()
        options.clock = { Timestamp(millisecondsSince1970: Timestamp.now().millisecondsSince1970 - 40 * 86_400_000) }
        try WindowStore(path: fixture.database, options: options).save(WindowState(session: "old", window: "a"))
        let document = #"{"format":"statectl/1","windows":[{"session":"imported","window":"w"}]}"#
        try Data(document.utf8).write(to: URL(fileURLWithPath: fixture.path("doc.json")))
    }

    struct Writing: Sendable, CustomTestStringConvertible {
        let name: String
        var populated = true
        let arguments: @Sendable (Fixture) -> [String]
        /// Whether the command's change is in the database.
        let committed: @Sendable (Fixture) throws -> Bool
        var testDescription: String { name }
    }

    static let writing: [Writing] = [
        Writing(name: "set", arguments: { _ in ["set", "s", "w", "--dismiss"] }) {
            try $0.store().window(session: "s", window: "w")?.revision == 3
        },
        Writing(name: "set --json", arguments: { _ in ["set", "s", "w", "--pop", "1", "--json"] }) {
            try $0.store().window(session: "s", window: "w")?.path == [route("A")]
        },
        Writing(name: "delete", arguments: { _ in ["delete", "s", "other"] }) {
            try $0.store().window(session: "s", window: "other") == nil
        },
        Writing(name: "revert", arguments: { _ in ["revert", "s", "w", "1"] }) {
            try $0.store().window(session: "s", window: "w")?.revision == 3
        },
        Writing(name: "import", arguments: { ["import", $0.path("doc.json")] }) {
            try $0.store().window(session: "imported", window: "w") != nil
        },
        Writing(name: "prune", arguments: { _ in ["prune", "--older-than", "30d"] }) {
            try $0.store().windows(session: "old").isEmpty
        },
        Writing(name: "migrate", populated: false, arguments: { _ in ["migrate"] }) {
            try $0.exists($0.database)
                && rawQuery($0.database, "PRAGMA user_version") == [String(WindowStore.schemaVersion)]
        },
        Writing(name: "demo --db", arguments: { _ in ["demo"] }) {
            try $0.store().windows(session: "demo").count == 2
        },
        Writing(name: "backup", arguments: { ["backup", $0.path("copy.db")] }) {
            $0.exists($0.path("copy.db"))
        },
    ]

    @Test(arguments: writing, SpawnedOutput.failing)
    func aCommittedChangeWhoseOutputFailsExits3(_ command: Writing, _ output: SpawnedOutput) throws {
        let fixture = Fixture()
        if command.populated { try Self.populate(fixture) }
        #expect(try !command.committed(fixture), "not done before the run")
        let run = try fixture.spawn(command.arguments(fixture), stdout: output)
        #expect(run.status == 3, "\(run.stderr)")
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 1 && errors[0].hasPrefix("Error: cannot write to standard output: "), "\(run.stderr)")
        #expect(run.stderr.contains("the change was committed: do not run the command again"), "\(run.stderr)")
        #expect(try command.committed(fixture))
    }

    static let readOnly: [[String]] = [
        ["list"], ["list", "--json"], ["show", "s", "w"], ["show", "s", "--json"], ["restore", "s", "w"],
        ["history", "s", "w"], ["export"], ["check"], ["migrate", "--status"], ["migrate"],
        ["prune", "--older-than", "30d", "--dry-run"], ["prune", "--older-than", "1000d", "--json"],
        ["show", "s", "w", "--navigation-path"],
        ["help"], ["--version"],
    ]

    @Test(arguments: readOnly, SpawnedOutput.failing)
    func aCommandThatWroteNothingExits74(_ arguments: [String], _ output: SpawnedOutput) throws {
        let fixture = Fixture()
        try Self.populate(fixture)
        let before = try fixture.dump()
        let run = try fixture.spawn(arguments, stdout: output)
        #expect(run.status == 74, "\(run.stderr)")
        // Messages such as prune's "Would remove" may come first; the one error is the output's.
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 1 && errors[0].hasPrefix("Error: cannot write to standard output: "), "\(run.stderr)")
        #expect(!run.stderr.contains("committed"))
        #expect(try fixture.dump() == before)
    }

    @Test func aBrokenPipeIsReportedNotDeathBySIGPIPE() throws {
        let fixture = Fixture()
        try Self.populate(fixture)
        let run = try fixture.spawn(["list"], stdout: .brokenPipe)
        #expect(run.status == 74, "not 141 (killed by SIGPIPE): \(run.stderr)")
        #expect(run.stderr == "Error: cannot write to standard output: Broken pipe\n")
    }

    @Test func aClosedStandardOutputReceivesNoFileTheCommandOpens() throws {
        // With descriptor 1 closed, the next file opened would take it and receive the output.
        let fixture = Fixture()
        try Self.populate(fixture)
        let document = try #require(contents(fixture.path("doc.json")))
        let run = try fixture.spawn(["import", fixture.path("doc.json")], stdout: .closed)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("Bad file descriptor"), "\(run.stderr)")
        #expect(contents(fixture.path("doc.json")) == document)
        #expect(try fixture.store().check().isOK)
    }
}
