/// The fish completion script: one `complete` line per command, option and argument of the
/// command table, conditioned on the command line read by a few functions.
struct FishScript {
    let table: CompletionTable

    var text: String {
        var lines = [
            table.header(
                .fish,
                loading: "Save it as ~/.config/fish/completions/statectl.fish, or: statectl completion fish | source"),
            Self.helpers, valuedFunction,
            "# Nothing completes to a file unless it says so.",
            "complete -c statectl -f",
            "",
            "# The commands.",
        ]
        for command in table.commands {
            lines.append(
                "complete -c statectl -n '__statectl_argument \"\" 0' -a \(Self.quoted(command.name)) -d \(Self.quoted(command.abstract))"
            )
        }
        lines.append("")
        lines.append("# statectl's own options, before a command.")
        lines += table.topLevelOptions.map { optionLine($0, condition: "__statectl_using \"\"") }
        for command in table.commands {
            lines.append("")
            lines.append("# \(command.name)")
            let condition = "__statectl_using \(Self.quoted(command.name))"
            lines += command.offeredOptions.map { optionLine($0, condition: condition) }
            for (index, argument) in command.arguments.enumerated() {
                let rest = argument.arity == .variadic ? " rest" : ""
                let condition = "__statectl_argument \(Self.quoted(command.name)) \(index)\(rest)"
                if argument.completion == .commands {
                    // Each command with its abstract, as in the list of commands.
                    for named in table.commands {
                        lines.append(
                            "complete -c statectl -n \(Self.quoted(condition)) -x -a \(Self.quoted(named.name)) -d \(Self.quoted(named.abstract))"
                        )
                    }
                    continue
                }
                lines.append(
                    "complete -c statectl -n \(Self.quoted(condition)) \(arguments(for: argument.completion)) -d \(Self.quoted(argument.help))"
                )
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `__statectl_valued COMMAND`: the options of the command that take a value.
    private var valuedFunction: String {
        func arm(_ pattern: String, _ options: [Option]) -> String {
            let names = options.filter { !$0.isFlag }.flatMap(\.names).map(Self.quoted).joined(separator: " ")
            return "        case \(pattern)" + (names.isEmpty ? "" : "\n            printf '%s\\n' \(names)")
        }
        var arms = [arm("''", table.topLevelOptions)]
        for command in table.commands { arms.append(arm(Self.quoted(command.name), command.offeredOptions)) }
        return """
            # The options of command $argv[1] ('' before a command) that take a value.
            function __statectl_valued
                switch "$argv[1]"
            \(arms.joined(separator: "\n"))
                end
            end

            """
    }

    private func optionLine(_ option: Option, condition: String) -> String {
        var line = "complete -c statectl -n \(Self.quoted(condition))"
        if let short = option.shortName { line += " -s \(short.dropFirst())" }
        line += " -l \(option.name.dropFirst(2))"
        if !option.isFlag { line += " " + arguments(for: option.completion) }
        return line + " -d \(Self.quoted(option.help))"
    }

    /// The `complete` flags that offer what a value completes to.
    private func arguments(for completion: ValueCompletion) -> String {
        switch table.resolved(completion) {
        case .none, .commands: "-x"
        case .files: "-r -F"
        case .sessions: "-x -a '(__statectl_ids sessions)'"
        case .windows(let index): "-x -a '(__statectl_ids windows (__statectl_given \(index)))'"
        case .choices(let words): "-x -a " + Self.quoted(words.joined(separator: " "))
        }
    }

    /// `text` in single quotes, as fish reads them (only `\` and `'` are escaped).
    static func quoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: #"\\"#).replacing("'", with: #"\'"#) + "'"
    }

    private static let helpers = #"""
        # What the line holds before the cursor: 'value' when the word at the cursor is an option's
        # value, else 'free'; then 'command:' and the command; then the command's arguments so far,
        # one a line. Options and their values are skipped, as statectl skips them.
        function __statectl_state
            set -l tokens (commandline -opc)
            set -e tokens[1]
            set -l command
            set -l valued (__statectl_valued '')
            set -l expecting 0
            set -l ended 0
            set -l arguments
            for token in $tokens
                if test $expecting = 1
                    set expecting 0
                else if test $ended = 0; and test "$token" = --
                    set ended 1
                else if test $ended = 0; and string match -qr -- '^-.' "$token"
                    if not string match -q -- '*=*' "$token"; and contains -- "$token" $valued
                        set expecting 1
                    end
                else if test -z "$command"
                    set command $token
                    set valued (__statectl_valued $command)
                else
                    set -a arguments $token
                end
            end
            if test $expecting = 1
                echo value
            else
                echo free
            end
            echo "command:$command"
            set -q arguments[1]; and printf '%s\n' $arguments
        end

        # Whether the command on the line is $argv[1] ('' before a command).
        function __statectl_using
            set -l state (__statectl_state)
            test "$state[2]" = "command:$argv[1]"
        end

        # Whether the word at the cursor is argument $argv[2] (from 0; with 'rest', that one or any
        # after it) of command $argv[1] ('' for the command itself).
        function __statectl_argument
            set -l state (__statectl_state)
            test "$state[1]" = free; and test "$state[2]" = "command:$argv[1]"; or return 1
            set -l given (math (count $state) - 2)
            if set -q argv[3]
                test $given -ge $argv[2]
            else
                test $given -eq $argv[2]
            end
        end

        # Prints argument $argv[1] (from 0) of the command on the line.
        function __statectl_given
            set -l state (__statectl_state)
            set -l at (math $argv[1] + 3)
            set -q state[$at]; and printf '%s\n' $state[$at]
        end

        # Prints path $argv[1] with a leading ~ as $HOME.
        function __statectl_home
            if string match -q -- '~' $argv[1]; or string match -q -- '~/*' $argv[1]
                printf '%s\n' "$HOME"(string sub -s 2 -- $argv[1])
            else
                printf '%s\n' $argv[1]
            end
        end

        # Prints the session ids (sessions) or a session's window ids (windows SESSION) in the
        # database the line names, one a line; nothing at all when there is no database, it is
        # locked, or anything else goes wrong. statectl creates nothing and waits only a moment.
        function __statectl_ids
            set -l tokens (commandline -opc)
            set -l program (__statectl_home $tokens[1])
            set -l database
            set -l index 2
            while test $index -le (count $tokens)
                set -l token $tokens[$index]
                set -l next (math $index + 1)
                if test "$token" = --
                    break
                else if string match -q -- '--db=*' $token
                    set database --db (__statectl_home (string sub -s 6 -- $token))
                else if test "$token" = --db; and set -q tokens[$next]
                    set database --db (__statectl_home $tokens[$next])
                end
                set index $next
            end
            command $program $database __complete -- $argv </dev/null 2>/dev/null
        end

        """#
}
