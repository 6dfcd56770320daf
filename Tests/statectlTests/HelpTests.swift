import Foundation
import Testing

/// The statectl commands whose help these tests check.
let allCommands = [
    "list", "show", "restore", "set", "delete", "history", "revert", "export", "import", "watch", "backup", "prune",
    "migrate", "check", "demo", "completion", "help",
]

struct HelpTests {
    @Test func bareStatectlPrintsTheHelp() throws {
        let run = try statectl([])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        for section in [
            "OVERVIEW:", "USAGE: statectl", "OPTIONS:", "SUBCOMMANDS:", "--db <path>", "--busy-timeout <ms>",
        ] {
            #expect(run.stdout.contains(section), "\(section)")
        }
        // Every command the help lists, in its order, is one these tests check, and no other.
        let listed = run.stdout.components(separatedBy: "SUBCOMMANDS:\n").last!.split(separator: "\n")
            .prefix { !$0.isEmpty }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .map { String($0.dropFirst(2).prefix { $0 != " " }) }
            .filter { $0.first?.isLowercase == true }  // not the closing "See 'statectl help …'"
        #expect(listed == allCommands)
        #expect(try statectl(["--help"]).stdout == run.stdout)
        #expect(try statectl(["-h"]).stdout == run.stdout)
        #expect(try statectl(["help"]).stdout == run.stdout)
    }

    @Test(arguments: allCommands)
    func everyCommandHasHelp(_ command: String) throws {
        let run = try statectl(["help", command])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.hasPrefix("OVERVIEW: "))
        #expect(run.stdout.contains("\nUSAGE: statectl \(command)"))
        #expect(run.stdout.contains("\nOPTIONS:\n"))
        #expect(run.stdout.contains("-h, --help"))
        for form in [[command, "--help"], [command, "-h"], ["--db", "/nonexistent/x.db", command, "--help"]] {
            let other = try statectl(form)
            #expect(other.status == 0, "\(form)")
            #expect(other.stdout == run.stdout, "\(form) prints the same help")
        }
        // Help wins over anything else wrong on the line, and opens nothing.
        let messy = try statectl([command, "--no-such-option", "--help", "extra", "arguments"])
        #expect(messy.status == 0)
        #expect(messy.stdout == run.stdout)
    }

    @Test func helpNamesArgumentsAndOptionsOfACommand() throws {
        let set = try statectl(["help", "set"]).stdout
        #expect(set.contains("USAGE: statectl set <session> (<window> | --focused) <mutation> ..."))
        #expect(set.contains("ARGUMENTS:\n  <session>"))
        #expect(set.contains("MUTATIONS:"))
        for option in [
            "--size-class <size-class>", "--push <route>", "--pop <n>", "--present <route>", "--dismiss",
            "--policy <policy>", "--expect-revision <n>", "--json", "--db <path>", "--busy-timeout <ms>",
        ] {
            #expect(set.contains("  \(option)"), "\(option)")
        }
        let list = try statectl(["list", "--help"]).stdout
        #expect(list.contains("USAGE: statectl list [<session>] [--size-class <size-class>] [--json]"))
        // help takes no database options: they are not offered.
        #expect(!(try statectl(["help", "help"]).stdout.contains("--db")))
    }

    @Test func helpLinesFitEightyColumns() throws {
        for command in allCommands + [""] {
            let text = try statectl(command.isEmpty ? ["help"] : ["help", command]).stdout
            for line in text.split(separator: "\n") {
                #expect(line.count <= 80, "\(command): \(line)")
            }
        }
    }

    @Test func helpForAnUnknownCommandSuggestsOne() throws {
        let run = try statectl(["help", "lsit"])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Error: unknown command 'lsit'. Did you mean 'list'?\n"))
        #expect(run.stderr.contains("\nUsage: statectl help [<subcommand>] [--man]\n"))
        #expect(run.stderr.contains("See 'statectl help --help'"))
        #expect(try statectl(["help", "list", "show"]).status == 64)
    }
}
