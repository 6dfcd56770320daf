import Foundation
import Testing

/// Colour only on a terminal and never with NO_COLOR; JSON is one document and one newline.
struct OutputTests {
    private func populated() throws -> Fixture {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("A")) }
        return fixture
    }

    @Test func headerIsBoldOnATerminal() throws {
        let fixture = try populated()
        let output = try statectlOnTerminal(["--db", fixture.database, "list"], environment: fixture.environment)
        #expect(output.contains("\u{1B}[1mSESSION"))
        #expect(output.contains("UPDATED\u{1B}[0m"))
    }

    @Test(arguments: ["1", ""])
    func noColourWithNoColorSet(_ value: String) throws {
        let fixture = try populated()
        var env = fixture.environment
        env["NO_COLOR"] = value
        let output = try statectlOnTerminal(["--db", fixture.database, "list"], environment: env)
        #expect(output.contains("SESSION"))
        #expect(!output.contains("\u{1B}"))
    }

    @Test func noColourWithADumbTerminal() throws {
        let fixture = try populated()
        var env = fixture.environment
        env["TERM"] = "dumb"
        let output = try statectlOnTerminal(["--db", fixture.database, "show", "s", "w"], environment: env)
        #expect(output.contains("session"))
        #expect(!output.contains("\u{1B}"))
    }

    @Test func jsonIsNeverColoured() throws {
        let fixture = try populated()
        let output = try statectlOnTerminal(
            ["--db", fixture.database, "list", "--json"], environment: fixture.environment)
        #expect(output.hasPrefix("[{"))
        #expect(!output.contains("\u{1B}"))
    }

    @Test(arguments: [
        ["list", "--json"], ["show", "s", "--json"], ["show", "s", "w", "--json"], ["restore", "s", "--json"],
        ["restore", "s", "w", "--json"], ["history", "s", "w", "--json"], ["set", "s", "w", "--push", "B", "--json"],
        ["revert", "s", "w", "1", "--json"], ["delete", "s", "w", "--json"], ["migrate", "--json"],
        ["migrate", "--status", "--json"], ["check", "--json"],
    ])
    func everyJSONOutputIsOneDocumentAndANewline(_ arguments: [String]) throws {
        let fixture = try populated()
        let run = try fixture.run(arguments)
        #expect(run.status == 0, "\(arguments): \(run.stderr)")
        #expect(run.stdout.hasSuffix("\n"))
        #expect(run.stdout.filter { $0 == "\n" }.count == 1)
        #expect(try json(run.stdout) is [Any] || json(run.stdout) is [String: Any])
        #expect(run.stderr.isEmpty)
    }
}
