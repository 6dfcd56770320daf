import Foundation
import StateStore
import Testing

/// `--durability normal|full` and `STATECTL_DURABILITY`: how hard statectl's commits work to
/// survive a power cut (`full`: a commit is on the disk before statectl says it was written).
/// The option stands before or after the command like `--db`, wins over the variable, and a
/// value that is neither is a usage error found before anything is opened.
struct DurabilityOptionTests {
    @Test(arguments: [
        (["--durability", "full", "set", "s", "w", "--push", "A"], [String: String]()),
        (["set", "s", "w", "--push", "A", "--durability=normal"], [:]),
        (["set", "s", "w", "--push", "A"], ["STATECTL_DURABILITY": "full"]),
        (["--durability", "full", "set", "s", "w", "--push", "A"], ["STATECTL_DURABILITY": "fast"]),
        (["set", "s", "w", "--push", "A"], ["STATECTL_DURABILITY": ""]),
    ])
    func eitherSpellingIsTaken(_ arguments: [String], _ environment: [String: String]) throws {
        let fixture = Fixture()
        let run = try fixture.run(arguments, environment: environment)
        #expect(run.status == 0, "\(arguments) \(environment): \(run.stderr)")
        #expect(try fixture.store().window(session: "s", window: "w")?.revision == 1)
    }

    @Test func aValueThatIsNeitherIsAUsageErrorAndOpensNothing() throws {
        let fixture = Fixture()
        let option = try fixture.run(["--durability", "fast", "set", "s", "w", "--push", "A"])
        #expect(option.status == 64)
        #expect(
            option.stderr.hasPrefix(
                "Error: invalid value 'fast' for '--durability <durability>': expected one of normal, full\n"),
            "\(option.stderr)")
        let variable = try fixture.run(["set", "s", "w", "--push", "A"], environment: ["STATECTL_DURABILITY": "FULL"])
        #expect(variable.status == 64)
        #expect(
            variable.stderr.hasPrefix("Error: STATECTL_DURABILITY=FULL: expected one of normal, full\n"),
            "\(variable.stderr)")
        #expect(!fixture.exists(fixture.database), "nothing created")
    }

    @Test func helpAndTheManualPageDescribeIt() throws {
        let help = try statectl(["help"]).stdout
        #expect(help.contains("--durability <durability>"), "\(help)")
        #expect(try statectl(["set", "--help"]).stdout.contains("--durability <durability>"))
        let page = try statectl(["help", "--man"]).stdout
        #expect(page.contains("STATECTL_DURABILITY"))
    }
}
