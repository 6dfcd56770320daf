import Foundation
import StateStore
import Testing

/// Usage errors (exit 64): found before anything is opened, reported as `Error:`, a usage line and
/// where to find help; and the forms a command line may take.
struct ParsingTests {
    /// Runs a command that must be a usage error, and checks the three lines and that no file appeared.
    private func expectUsageError(
        _ arguments: [String], _ message: String, command: String?, withDB: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let fixture = Fixture()
        let run = try withDB ? fixture.run(arguments) : statectl(arguments, environment: fixture.environment)
        #expect(run.status == 64, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "Error: \(message)"[...], "\(run.stderr)", sourceLocation: sourceLocation)
        let usage = command.map { "Usage: statectl \($0)" } ?? "Usage: statectl [--db <path>]"
        #expect(lines.count == 4 && lines[1].hasPrefix(usage), "\(run.stderr)", sourceLocation: sourceLocation)
        let see = command.map { "  See 'statectl \($0) --help' for more information." }
        #expect(lines.count == 4 && lines[2] == (see ?? "  See 'statectl --help' for more information.")[...])
        #expect(!fixture.exists(fixture.database), "nothing created", sourceLocation: sourceLocation)
    }

    @Test func unknownCommandSuggestsTheNearest() throws {
        try expectUsageError(["lsit"], "unknown command 'lsit'. Did you mean 'list'?", command: nil)
        try expectUsageError(["hist"], "unknown command 'hist'. Did you mean 'history'?", command: nil)
        try expectUsageError(["frobnicate"], "unknown command 'frobnicate'.", command: nil)
    }

    @Test func unknownOptionSuggestsTheNearest() throws {
        try expectUsageError(
            ["list", "--sizeclass", "regular"], "unknown option '--sizeclass'. Did you mean '--size-class'?",
            command: "list")
        try expectUsageError(
            ["list", "--size", "regular"], "unknown option '--size'. Did you mean '--size-class'?", command: "list")
        try expectUsageError(
            ["set", "s", "w", "--pusj", "A"], "unknown option '--pusj'. Did you mean '--push'?", command: "set")
        try expectUsageError(
            ["history", "s", "w", "--limt=2"], "unknown option '--limt'. Did you mean '--limit'?", command: "history")
        try expectUsageError(["--jsno", "list"], "unknown option '--jsno'.", command: nil)
        try expectUsageError(
            ["--busy-timout", "5", "list"], "unknown option '--busy-timout'. Did you mean '--busy-timeout'?",
            command: nil)
        try expectUsageError(["list", "--xyzzy"], "unknown option '--xyzzy'.", command: "list")
    }

    @Test func missingAndExtraArguments() throws {
        try expectUsageError(["show"], "missing argument '<session>'", command: "show")
        try expectUsageError(["set", "s"], "missing argument '<window>' (or '--focused')", command: "set")
        try expectUsageError(["revert", "s", "w"], "missing argument '<revision>'", command: "revert")
        try expectUsageError(["history", "s"], "missing argument '<window>'", command: "history")
        try expectUsageError(["list", "a", "b"], "unexpected argument 'b'", command: "list")
        try expectUsageError(["check", "x"], "unexpected argument 'x'", command: "check")
        try expectUsageError(["history", "s", "w", "3"], "unexpected argument '3'", command: "history")
        try expectUsageError(["--db"], "missing value for '--db <path>'", command: nil, withDB: false)
        try expectUsageError(
            ["list", "--size-class"], "missing value for '--size-class <size-class>'", command: "list")
        try expectUsageError([], "missing a command", command: nil)
    }

    @Test func valuesOutsideTheirChoicesOrNotNumbers() throws {
        let sizes = "expected one of compact, regular, unspecified"
        try expectUsageError(
            ["list", "--size-class", "huge"], "invalid value 'huge' for '--size-class <size-class>': \(sizes)",
            command: "list")
        try expectUsageError(
            ["restore", "s", "--size-class=Regular"],
            "invalid value 'Regular' for '--size-class <size-class>': \(sizes). Did you mean 'regular'?",
            command: "restore")
        try expectUsageError(
            ["set", "s", "w", "--size-class", "huge"], "invalid value 'huge' for '--size-class <size-class>': \(sizes)",
            command: "set")
        try expectUsageError(
            ["set", "s", "w", "--pop", "0"], "invalid value '0' for '--pop <n>': expected a whole number of at least 1",
            command: "set")
        try expectUsageError(
            ["set", "s", "w", "--pop", "two"],
            "invalid value 'two' for '--pop <n>': expected a whole number of at least 1",
            command: "set")
        try expectUsageError(
            ["set", "s", "w", "--policy", "keep"],
            "invalid value 'keep' for '--policy <policy>': expected one of migrate, dismiss", command: "set")
        // The choices of what a split view binds, the nearest suggested.
        try expectUsageError(
            ["set", "s", "w", "--column-visibility", "double-column"],
            "invalid value 'double-column' for '--column-visibility <visibility>': expected one of automatic, all, "
                + "doubleColumn, detailOnly. Did you mean 'doubleColumn'?", command: "set")
        try expectUsageError(
            ["set", "s", "w", "--column-visibility", "hidden"],
            "invalid value 'hidden' for '--column-visibility <visibility>': expected one of automatic, all, "
                + "doubleColumn, detailOnly", command: "set")
        try expectUsageError(
            ["set", "s", "w", "--compact-column", "sidbar"],
            "invalid value 'sidbar' for '--compact-column <column>': expected one of sidebar, content, detail, none. "
                + "Did you mean 'sidebar'?", command: "set")
        try expectUsageError(
            ["set", "s", "w", "--compact-column", "primary"],
            "invalid value 'primary' for '--compact-column <column>': expected one of sidebar, content, detail, none",
            command: "set")
        try expectUsageError(
            ["set", "s", "w", "--policy", "dismis"],
            "invalid value 'dismis' for '--policy <policy>': expected one of migrate, dismiss. Did you mean 'dismiss'?",
            command: "set")
        try expectUsageError(
            ["set", "s", "w", "--dismiss", "--expect-revision", "-1"],
            "invalid value '-1' for '--expect-revision <n>': expected a whole number, 0 or more", command: "set")
        try expectUsageError(
            ["history", "s", "w", "--limit", "0"],
            "invalid value '0' for '--limit <n>': expected a whole number of at least 1", command: "history")
        try expectUsageError(
            ["revert", "s", "w", "latest"],
            "invalid value 'latest' for '<revision>': expected a whole number of at least 1", command: "revert")
        try expectUsageError(
            ["--busy-timeout", "soon", "list"],
            "invalid value 'soon' for '--busy-timeout <ms>': expected a whole number, 0 or more", command: nil)
        // A whole number too large is named as that.
        try expectUsageError(
            ["set", "s", "w", "--pop", "99999999999999999999"],
            "invalid value '99999999999999999999' for '--pop <n>': out of range: at most 9223372036854775807",
            command: "set")
        try expectUsageError(
            ["--busy-timeout", "9223372036854775808", "list"],
            "invalid value '9223372036854775808' for '--busy-timeout <ms>': out of range: at most 9223372036854775807",
            command: nil)
        try expectUsageError(
            ["list", "--db="], "invalid value '' for '--db <path>': expected a value that is not empty",
            command: "list",
            withDB: false)
    }

    @Test func flagsTakeNoValueAndOptionsComeOnce() throws {
        try expectUsageError(["list", "--json=yes"], "option '--json' takes no value", command: "list")
        try expectUsageError(
            ["history", "s", "w", "--limit", "1", "--limit=2"], "option '--limit' given more than once",
            command: "history")
        // --db before the command (from the fixture) and after it.
        try expectUsageError(["list", "--db", "/tmp/other.db"], "option '--db' given more than once", command: "list")
    }

    @Test func setNeedsAMutation() throws {
        try expectUsageError(
            ["set", "s", "w", "--json"],
            "set needs at least one mutation: --size-class, --push, --pop, --present, --dismiss, --policy, "
                + "--navigation-path, --column-visibility, --compact-column, --tab, --no-tab",
            command: "set")
    }

    @Test func aUsageErrorWinsOverBadData() throws {
        // An empty id is bad data (65), a --pop 0 a usage error (64): the usage error is reported.
        try expectUsageError(
            ["set", "", "w", "--push", "A:", "--pop", "0"],
            "invalid value '0' for '--pop <n>': expected a whole number of at least 1", command: "set")
    }

    @Test func optionsTakeTheirValueEitherWay() throws {
        let fixture = Fixture()
        #expect(try fixture.run(["set", "s", "a", "--size-class=regular"]).status == 0)
        #expect(try fixture.run(["set", "s", "b", "--size-class", "compact"]).status == 0)
        let spaced = try fixture.run(["list", "--size-class", "regular", "--json"])
        let joined = try fixture.run(["list", "--size-class=regular", "--json"])
        #expect(spaced.stdout == joined.stdout)
        #expect(try jsonArray(joined.stdout).map { $0["window"] as? String } == ["a"])
        // A value that itself contains '=' or starts with '-' is taken whole.
        #expect(try fixture.run(["set", "s", "c", "--push=Query:\"a=b\""]).status == 0)
        #expect(try fixture.run(["set", "s", "c", "--push", "-Odd"]).status == 0)
        #expect(
            try fixture.store().window(session: "s", window: "c")?.path == [route("Query", #""a=b""#), route("-Odd")])
    }

    @Test func doubleDashEndsTheOptions() throws {
        let fixture = Fixture()
        try fixture.save("-s", "--w") { $0.push(route("Folder")) }
        let run = try fixture.run(["show", "--json", "--", "-s", "--w"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try jsonObject(run.stdout)["window"] as? String == "--w")
        // Without it, the ids read as options.
        #expect(try fixture.run(["show", "-s", "--w"]).status == 64)
        // "--" before the command ends the global options too.
        #expect(
            try statectl(["--db", fixture.database, "--", "list", "-s"], environment: fixture.environment).status == 0)
    }

    @Test func globalOptionsStandBeforeOrAfterTheCommand() throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("Folder")) }
        let env = fixture.environment
        let before = try statectl(
            ["--db", fixture.database, "--busy-timeout", "100", "list", "--json"], environment: env)
        let after = try statectl(["list", "--json", "--db", fixture.database, "--busy-timeout=100"], environment: env)
        let mixed = try statectl(
            ["--busy-timeout=100", "list", "--db=\(fixture.database)", "--json"], environment: env)
        #expect(before.status == 0)
        #expect(try jsonArray(before.stdout).count == 1)
        #expect(after.stdout == before.stdout)
        #expect(mixed.stdout == before.stdout)
        // help takes no database, so no --db after it.
        #expect(try statectl(["help", "--db", fixture.database], environment: env).status == 64)
    }

    @Test func globalsWithoutACommandAreAUsageError() throws {
        let run = try statectl(["--db", "/nonexistent/state.db"])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("Error: missing a command\n"))
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent"))
    }

    @Test func versionPrintsOnlyTheVersion() throws {
        let run = try statectl(["--db", "/nonexistent/state.db", "--version"])
        #expect(run.status == 0)
        #expect(run.stdout == (try statectl(["--version"]).stdout))
        #expect(run.stdout.hasPrefix("statectl "))
        #expect(try statectl(["list", "--version"]).status == 64)
    }

    @Test func anArgumentThatIsNotUTF8IsBadData() throws {
        let fixture = Fixture()
        let bad: [UInt8] = [0x77, 0xFF, 0x77]  // "w\xFFw"
        let db = Array(fixture.database.utf8)
        for arguments in [
            [Array("--db".utf8), db, Array("set".utf8), Array("s".utf8), bad, Array("--dismiss".utf8)],
            [Array("--db".utf8), db, Array("set".utf8), Array("s".utf8), Array("w".utf8), Array("--push".utf8), bad],
            [Array("--db".utf8), db, Array("set".utf8), Array("s".utf8), Array("w".utf8), Array("--push=".utf8) + bad],
            [Array("--db".utf8), db, Array("show".utf8), bad],
        ] {
            let run = try statectl(bytes: arguments, environment: fixture.environment)
            #expect(run.status == 65, "\(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: argument ") && run.stderr.contains("is not valid UTF-8"))
            #expect(!fixture.exists(fixture.database), "nothing written")
        }
        // The usage error on the same line wins.
        let both = try statectl(
            bytes: [
                Array("--db".utf8), db, Array("set".utf8), Array("s".utf8), bad, Array("--pop".utf8), Array("0".utf8),
            ],
            environment: fixture.environment)
        #expect(both.status == 64)
        let unknown = try statectl(bytes: [Array("--db".utf8), db, bad], environment: fixture.environment)
        #expect(unknown.status == 64)
    }
}
