import Foundation
import StateStore
import Testing

/// `statectl completion bash|zsh|fish`, run in the real shells: bash drives the generated function
/// with COMP_WORDS split as readline splits them; zsh runs its completion system on a
/// pseudo-terminal (`zpty`), recording what it offers; fish answers `complete -C`. What each
/// offers is compared with what help lists, so a new command or option is covered without a
/// word here. Ids come from the database through the hidden `statectl __complete`.
struct CompletionTests {
    @Test func bashRegistersItsFunction() throws {
        let bash = try #require(Tools.bash, "bash is not installed")
        let completion = CompletionFixture()
        let run = try runTool(
            bash, ["--norc", "--noprofile", "-c", "source <(statectl completion bash) && complete -p statectl"],
            environment: completion.environment())
        #expect(run.stdout == "complete -F _statectl statectl\n", "\(run.stderr)")
        #expect(run.stderr.isEmpty)
    }

    @Test(arguments: [
        (["completion"], "missing argument '<shell>'"),
        (["completion", "tcsh"], "invalid value 'tcsh' for '<shell>': expected one of bash, zsh, fish"),
        (["completion", "bash", "zsh"], "unexpected argument 'zsh'"),
        (["completion", "bash", "--db", "x.db"], "unknown option '--db'"),
    ])
    func aBadCommandLineIsAUsageErrorAndPrintsNoScript(_ arguments: [String], _ message: String) throws {
        let fixture = Fixture()
        let run = try statectl(arguments, environment: fixture.environment)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Error: \(message)"), "\(run.stderr)")
        #expect(run.stderr.contains("\nUsage: statectl completion <shell>\n"))
        #expect(fixture.contents(of: fixture.folder) == ["tmp"], "nothing written")
    }

    @Test func bashCompletesFromTheTable() throws {
        let completion = try CompletionFixture.populated()
        let cases = try completion.cases()
        try completion.check(cases, try completion.bash(cases.map(\.line)), shell: "bash")
    }

    @Test(.enabled(if: Tools.zsh != nil, "zsh is not installed: .ci/run installs it (apt-get install -y zsh)"))
    func zshCompletesFromTheTable() throws {
        let completion = try CompletionFixture.populated()
        let cases = try completion.cases()
        try completion.check(cases, try completion.zsh(cases.map(\.line)), shell: "zsh")
    }

    @Test(.enabled(if: Tools.zsh != nil, "zsh is not installed: .ci/run installs it (apt-get install -y zsh)"))
    func zshCompletesWhenTheScriptIsSourced() throws {
        let completion = try CompletionFixture.populated()
        let cases = try completion.cases().filter {
            ["statectl ", "statectl show mail ", "statectl -"].contains($0.line)
        }
        let offered = try completion.zsh(cases.map(\.line), sourced: true)
        try completion.check(cases, offered, shell: "zsh (sourced)")
    }

    @Test(.enabled(if: Tools.fish != nil, "fish is not installed: .ci/run installs it (apt-get install -y fish)"))
    func fishCompletesFromTheTable() throws {
        let completion = try CompletionFixture.populated()
        let cases = try completion.cases()
        try completion.check(cases, try completion.fish(cases.map(\.line)), shell: "fish")
    }

    /// No database, or one another process holds every lock of: no id, no error in the prompt,
    /// no file made, in every shell.
    @Test(arguments: ["missing", "locked"])
    func aMissingOrLockedDatabaseGivesNothingAndCreatesNothing(_ condition: String) throws {
        let completion = try CompletionFixture.populated()
        var database = completion.fixture.database
        var lock: WriteLock?
        if condition == "missing" {
            database = completion.fixture.path("missing/state.db")
        } else {
            lock = try WriteLock(database, exclusive: true)
        }
        defer { lock?.release() }
        let before = completion.fixture.contents(of: completion.fixture.folder)
        let lines = ["statectl show ", "statectl show mail ", "statectl export "]
        var results = [("bash", try completion.bash(lines, database: database))]
        if Tools.zsh != nil { results.append(("zsh", try completion.zsh(lines, database: database))) }
        if Tools.fish != nil { results.append(("fish", try completion.fish(lines, database: database))) }
        for (shell, offered) in results {
            for line in lines {
                #expect(
                    offered[line] == [],
                    "\(shell), \(condition) database, '\(line)': \(offered[line] ?? ["(no answer)"])")
            }
        }
        #expect(completion.fixture.contents(of: completion.fixture.folder) == before)
        #expect(!completion.fixture.exists(completion.fixture.path("missing")))
    }
}

/// A database to complete ids from — sessions `mail` (windows `main` and `side car`) and `notes`
/// (`n1`), and ids holding control characters, written by hand, that no completion offers —
/// another database (`other`, window `o1`), files to complete, and the cases every shell is
/// asked, each with what it must offer.
final class CompletionFixture: Sendable {
    let fixture = Fixture()
    var other: String { fixture.path("other.db") }
    var files: String { fixture.path("files") }

    /// One line to complete (at its end) and what must be offered: exactly these words, or, with
    /// `files`, these names (the last part of each path offered).
    struct Case: Sendable {
        let line: String
        let expected: Set<String>
        var files = false
    }

    static func populated() throws -> CompletionFixture {
        let completion = CompletionFixture()
        let fixture = completion.fixture
        // A home of its own, made now: fish keeps its settings there.
        try FileManager.default.createDirectory(atPath: fixture.path("home"), withIntermediateDirectories: true)
        for (session, window) in [("mail", "main"), ("mail", "side car"), ("notes", "n1")] {
            try fixture.save(session, window) { $0.push(route("A")) }
        }
        try rawSQL(
            fixture.database,
            """
            INSERT INTO windows (session, window, size_class, path, item, item_path, policy, revision, updated_at)
            VALUES ('evil' || char(27) || ']0;x' || char(7), 'w', 'compact', '[]', NULL, '[]', 'migrate', 1, 0),
                   ('mail', 'bell' || char(7), 'compact', '[]', NULL, '[]', 'migrate', 1, 0);
            """)
        try WindowStore(path: completion.other).save(WindowState(session: "other", window: "o1"))
        try FileManager.default.createDirectory(atPath: completion.files + "/sub", withIntermediateDirectories: true)
        for name in ["a.json", "b.db"] { try Data().write(to: URL(fileURLWithPath: completion.files + "/" + name)) }
        return completion
    }

    /// Every shell runs with exactly this: statectl first on PATH, the fixture's home and state
    /// folders, `database` as STATECTL_DB.
    func environment(database: String? = nil) -> [String: String] {
        var environment = fixture.environment
        let folder = URL(fileURLWithPath: statectlPath).deletingLastPathComponent().path
        environment["PATH"] = folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        environment["STATECTL_DB"] = database ?? fixture.database
        environment["TERM"] = "xterm"
        environment["LANG"] = "C.UTF-8"
        return environment
    }

    /// What each line must offer, from help, the library's types and the fixture.
    func cases() throws -> [Case] {
        let commands = try HelpText.commands()
        let sizeClasses = Set(SizeClass.allCases.map(\.rawValue))
        var cases = [
            Case(line: "statectl ", expected: Set(commands)),
            Case(line: "statectl s", expected: Set(commands.filter { $0.hasPrefix("s") })),
            Case(line: "statectl -", expected: try HelpText.options(of: nil)),
            Case(line: "statectl list --size-class ", expected: sizeClasses),
            Case(line: "statectl list --size-class=re", expected: ["regular"]),
            Case(line: "statectl restore mail main --size-class ", expected: sizeClasses),
            Case(
                line: "statectl set mail main --policy ", expected: Set(SizeChangePolicy.allCases.map(\.rawValue))),
            Case(
                line: "statectl set mail main --column-visibility ",
                expected: Set(ColumnVisibility.allCases.map(\.rawValue))),
            Case(line: "statectl set mail main --column-visibility d", expected: ["doubleColumn", "detailOnly"]),
            Case(
                line: "statectl set mail main --compact-column ",
                expected: Set(SplitViewColumn.allCases.map(\.rawValue) + ["none"])),
            Case(line: "statectl set mail main --compact-column=d", expected: ["detail"]),
            Case(line: "statectl set mail main --tab ", expected: []),
            Case(line: "statectl completion ", expected: ["bash", "zsh", "fish"]),
            Case(line: "statectl --durability ", expected: Set(WindowStore.Durability.allCases.map(\.rawValue))),
            Case(line: "statectl set mail main --durability=f", expected: ["full"]),
            Case(line: "statectl help ", expected: Set(commands)),
            Case(line: "statectl show ", expected: ["mail", "notes"]),
            Case(line: "statectl show mail ", expected: ["main", "side car"]),
            Case(line: "statectl show mail s", expected: ["side car"]),
            Case(line: "statectl history notes ", expected: ["n1"]),
            Case(line: "statectl export mail ", expected: ["mail", "notes"]),
            Case(line: "statectl show -- ", expected: ["mail", "notes"]),
            Case(line: "statectl --db=\(other) show other ", expected: ["o1"]),
            Case(line: "statectl show --db \(other) other ", expected: ["o1"]),
            Case(line: "statectl --db \(files)/b", expected: ["b.db"], files: true),
            Case(line: "statectl --db=\(files)/b", expected: ["b.db"], files: true),
            Case(line: "statectl import \(files)/", expected: ["a.json", "b.db", "sub"], files: true),
            Case(line: "statectl backup \(files)/a", expected: ["a.json"], files: true),
            Case(line: "statectl history mail main --limit ", expected: []),
            Case(line: "statectl set mail main --navigation-path ", expected: []),
        ]
        for command in commands {
            cases.append(Case(line: "statectl \(command) -", expected: try HelpText.options(of: command)))
        }
        return cases
    }

    /// Compares what `shell` offered for each case with what it must, after taking what shells
    /// add of their own away: bash's backslashes, fish's `--option=` before a value, and the
    /// folders before a file name.
    func check(_ cases: [Case], _ offered: [String: [String]], shell: String) throws {
        for testCase in cases {
            guard let answers = offered[testCase.line] else {
                Issue.record("\(shell) gave no answer for '\(testCase.line)'")
                continue
            }
            let lastWord = testCase.line.split(separator: " ", omittingEmptySubsequences: false).last ?? ""
            let normalized = answers.map { answer -> String in
                var word = answer.split(separator: "\t", maxSplits: 1).first.map(String.init) ?? ""
                if shell == "bash" { word = word.replacingOccurrences(of: "\\", with: "") }
                if lastWord.hasPrefix("--"), lastWord.contains("="), let equals = word.firstIndex(of: "="),
                    word.hasPrefix("--")
                {
                    word = String(word[word.index(after: equals)...])
                }
                if testCase.files {
                    while word.hasSuffix("/") { word.removeLast() }
                    word = String(word.split(separator: "/").last ?? "")
                }
                return word
            }
            #expect(Set(normalized) == testCase.expected, "\(shell): '\(testCase.line)' offered \(answers)")
            #expect(!normalized.contains { $0.hasPrefix("__") }, "\(shell): the hidden command is never offered")
        }
    }

    // MARK: The shells

    /// bash: the script loaded as the help says, then for each line the function called with
    /// COMP_LINE, COMP_POINT, COMP_WORDS and COMP_CWORD as readline sets them; COMPREPLY read back.
    func bash(_ lines: [String], database: String? = nil) throws -> [String: [String]] {
        let bash = try #require(Tools.bash, "bash is not installed")
        var script = "source <(statectl completion bash) || exit 3\n"
        for line in lines {
            let words = Self.readlineWords(line)
            script += """
                COMP_LINE=\(shellQuoted(line)); COMP_POINT=${#COMP_LINE}; COMP_CWORD=\(words.count - 1)
                COMP_WORDS=(\(words.map(shellQuoted).joined(separator: " "))); COMPREPLY=()
                _statectl statectl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '== %s\\n' \(shellQuoted(line)); for reply in "${COMPREPLY[@]}"; do printf '%s\\n' "$reply"; done

                """
        }
        let file = fixture.path("bash-driver.bash")
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try runTool(bash, ["--norc", "--noprofile", file], environment: environment(database: database))
        #expect(run.status == 0 && run.stderr.isEmpty, "bash: \(run.stderr)")
        return Self.blocks(run.stdout)
    }

    /// zsh: an interactive `zsh -f` on a pseudo-terminal (`zpty`), its completion system started
    /// with `compinit` and the script autoloaded from a folder on `fpath` (or sourced); each line
    /// is typed and completed by a widget that calls `complete-word`, while `compadd` records the
    /// matches it is given that fit what was typed.
    func zsh(_ lines: [String], database: String? = nil, sourced: Bool = false) throws -> [String: [String]] {
        let zsh = try #require(Tools.zsh, "zsh is not installed")
        let folder = fixture.path("zsh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let load =
            sourced
            ? "autoload -Uz compinit; compinit -u -D; source <(statectl completion zsh)"
            : "statectl completion zsh >| \(shellQuoted(folder))/_statectl; fpath=(\(shellQuoted(folder)) $fpath); autoload -Uz compinit; compinit -u -D"
        let driver = #"""
            zmodload zsh/zpty || exit 2
            capture=$1; shift
            : >| $capture
            zpty z zsh -f -i
            zpty -w z "PS1='' RPS1=''; unsetopt AUTO_LIST AUTO_MENU LIST_BEEP BEEP"
            zpty -w z \#(shellQuoted(load))
            zpty -w z 'compadd() { if (( ${@[(I)-[OAD]*]} )); then builtin compadd "$@"; return; fi; local -a hits; builtin compadd -O hits "$@"; (( $#hits )) && print -rl -- $hits >> '${(q)capture}'; builtin compadd "$@"; }'
            zpty -w z '__capture() { zle complete-word; zle -M __DO""NE__; }; zle -N __capture; bindkey "^T" __capture'
            for line in "$@"; do
                zpty -w -n z "$line"$'\x14'
                zpty -r z output '*__DONE__*' || exit 3
                print -r -- "== $line"
                [[ -s $capture ]] && print -r -- "$(<$capture)"
                : >| $capture
                zpty -w -n z $'\x15'
            done
            zpty -d z
            """#
        try driver.write(toFile: folder + "/driver.zsh", atomically: true, encoding: .utf8)
        let run = try runTool(
            zsh, ["-f", folder + "/driver.zsh", folder + "/capture"] + lines,
            environment: environment(database: database))
        #expect(run.status == 0, "zsh: \(run.stderr)")
        return Self.blocks(run.stdout)
    }

    /// fish: the script loaded as the help says, then `complete -C` for each line (a candidate,
    /// a tab and its description a line).
    func fish(_ lines: [String], database: String? = nil) throws -> [String: [String]] {
        let fish = try #require(Tools.fish, "fish is not installed")
        let file = fixture.path("fish-driver.fish")
        try """
        statectl completion fish | source; or exit 3
        for line in $argv
            echo "== $line"
            complete -C "$line"
        end

        """.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try runTool(fish, ["--no-config", file] + lines, environment: environment(database: database))
        #expect(run.status == 0 && run.stderr.isEmpty, "fish: \(run.stderr)")
        return Self.blocks(run.stdout)
    }

    /// The words readline makes of `line` for COMP_WORDS: split at blanks outside quotes, with
    /// each run of COMP_WORDBREAKS characters (`=`, `:`) a word of its own; the last word is the
    /// one at the cursor (empty after a blank).
    static func readlineWords(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inBreak = false
        for character in line {
            if let open = quote {
                current.append(character)
                if character == open { quote = nil }
                continue
            }
            if character == " " {
                if !current.isEmpty { words.append(current) }
                current = ""
                inBreak = false
                continue
            }
            let isBreak = character == "=" || character == ":"
            if isBreak != inBreak && !current.isEmpty {
                words.append(current)
                current = ""
            }
            inBreak = isBreak
            if character == "'" || character == "\"" { quote = character }
            current.append(character)
        }
        words.append(current)
        return words
    }

    /// Output in blocks: `== LINE`, then what was offered for it, a line each.
    static func blocks(_ output: String) -> [String: [String]] {
        var blocks: [String: [String]] = [:]
        var line: String?
        for text in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if text.hasPrefix("== ") {
                line = String(text.dropFirst(3))
                blocks[line!] = []
            } else if let line, !text.isEmpty {
                blocks[line]!.append(String(text))
            }
        }
        return blocks
    }
}
