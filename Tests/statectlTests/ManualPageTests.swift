import Foundation
import Testing

/// `statectl help --man`: the manual page statectl(1), rendered by groff and man as a user's
/// `man` would, without a warning, and covering everything help lists.
struct ManualPageTests {
    /// The exit statuses statectl promises (the table in Documentation/statectl.md).
    static let promisedStatuses = [0, 1, 3, 64, 65, 66, 73, 74, 75, 78]
    /// The environment variables statectl reads (Documentation/statectl.md names each).
    static let variables = [
        "STATECTL_DB", "STATECTL_DURABILITY", "XDG_STATE_HOME", "HOME", "NO_COLOR", "TERM", "TMPDIR",
    ]

    static func page() throws -> String {
        let run = try statectl(["help", "--man"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        return run.stdout
    }

    /// The page as `MANWIDTH=80 man -l -` shows it.
    static func rendered(_ page: String) throws -> Run {
        let man = try #require(Tools.man, "man is not installed: .ci/run installs man-db")
        return try runTool(
            man, ["-l", "-"],
            environment: [
                "PATH": "/usr/bin:/bin", "MANWIDTH": "80", "LANG": "C.UTF-8", "HOME": NSTemporaryDirectory(),
            ],
            stdin: Data(page.utf8))
    }

    @Test(.enabled(if: Tools.groff != nil, "groff is not installed: .ci/run installs groff-base"))
    func groffRendersItWithoutAWarning() throws {
        let page = try Self.page()
        for device in ["utf8", "ascii"] {
            // -ww: every warning groff has; -z: format, print nothing.
            let run = try runTool(
                Tools.groff!, ["-man", "-T\(device)", "-ww", "-z"], environment: ["PATH": "/usr/bin:/bin"],
                stdin: Data(page.utf8))
            #expect(run.status == 0)
            #expect(run.stderr.isEmpty, "groff -T\(device): \(run.stderr)")
        }
    }

    @Test(.enabled(if: Tools.man != nil, "man is not installed: .ci/run installs man-db"))
    func manRendersItWithoutAWarning() throws {
        let run = try Self.rendered(try Self.page())
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        for section in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "DATABASE", "ENVIRONMENT", "FILES",
            "EXIT STATUS", "SEE ALSO",
        ] {
            #expect(run.stdout.contains("\n\(section)\n"), "\(section)")
        }
        #expect(run.stdout.hasPrefix("STATECTL(1)"))
        let version = try statectl(["--version"]).stdout.split(separator: " ")[1]
        #expect(run.stdout.contains("statectl \(version)"), "the page names the version it documents")
    }

    @Test(.enabled(if: Tools.man != nil, "man is not installed: .ci/run installs man-db"))
    func itCoversEveryCommandOptionVariableAndExitStatus() throws {
        let text = try Self.rendered(try Self.page()).stdout
        let commands = try HelpText.commands()
        #expect(!commands.isEmpty)
        for command in commands {
            #expect(text.contains("\n   \(command)\n"), "a section for \(command)")
            let usage = try statectl([command, "--help"]).stdout.split(separator: "\n").first {
                $0.hasPrefix("USAGE: ")
            }
            #expect(usage != nil)
            for option in try HelpText.options(of: command) {
                #expect(text.contains(option), "\(command) \(option)")
            }
        }
        for option in try HelpText.options(of: nil) { #expect(text.contains(option), "\(option)") }
        let environment = try #require(Self.section("ENVIRONMENT", of: text))
        for variable in Self.variables {
            #expect(environment.contains("\n       \(variable)"), "\(variable)")
        }
        let database = try #require(Self.section("DATABASE", of: text))
        for rule in [
            "--db", "$STATECTL_DB", "$XDG_STATE_HOME/statectl/state.db", "$HOME/.local/state/statectl/state.db",
        ] {
            #expect(database.contains(rule), "\(rule)")
        }
        let statuses = try #require(Self.section("EXIT STATUS", of: text))
        let listed = statuses.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("       "), let first = line.split(separator: " ").first else { return nil }
            return Int(first)
        }
        for status in Self.promisedStatuses { #expect(listed.contains(status), "exit status \(status)") }
        // Help's one sentence lists the same statuses, from the same table.
        let help = try statectl(["help"]).stdout.replacingOccurrences(of: "\n", with: " ")
        for status in listed { #expect(help.contains(" \(status) "), "help names exit status \(status)") }
    }

    @Test func aCommandWithManIsAUsageError() throws {
        let run = try statectl(["help", "list", "--man"])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Error: --man prints the whole manual page; leave out 'list'\n"), "\(run.stderr)")
    }

    /// The lines of a section of the rendered page, up to the next heading.
    static func section(_ name: String, of text: String) -> String? {
        guard let start = text.range(of: "\n\(name)\n") else { return nil }
        let rest = text[start.upperBound...]
        let end = rest.firstMatch(of: /\n[A-Z][A-Z ]+\n/)?.range.lowerBound ?? rest.endIndex
        return "\n" + rest[..<end]
    }
}
