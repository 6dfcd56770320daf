/// The zsh completion script: `_arguments` specs made from the command table, for `compinit`
/// (autoloaded from a folder on `fpath` as `_statectl`) or sourced after `compinit`.
struct ZshScript {
    let table: CompletionTable

    var text: String {
        "#compdef statectl\n"
            + table.header(
                .zsh, loading: #"Save it as _statectl in a folder on $fpath, or: source <(statectl completion zsh)"#)
            + Self.helpers + "\n" + commandsFunction + "\n" + mainFunction + "\n" + Self.footer
    }

    /// `__statectl_commands`: the command names with their abstracts.
    private var commandsFunction: String {
        let entries = table.commands.map { "        " + Self.quoted(Self.escapeColons($0.name) + ":" + $0.abstract) }
        return """
            __statectl_commands() {
                local -a commands
                commands=(
            \(entries.joined(separator: "\n"))
                )
                _describe -t commands 'statectl command' commands
            }

            """
    }

    /// `_statectl`: statectl's own options and the command, then (`(-)`: none of statectl's own
    /// options from there on, so the command's own `--db` is its) the command's specs.
    private var mainFunction: String {
        let topLevel = specs(for: table.topLevelOptions, arguments: [])
        var arms: [String] = []
        for command in table.commands {
            let specs = specs(for: command.offeredOptions, arguments: command.arguments)
            arms.append(
                "        (\(Self.quoted(command.name)))\n            _arguments -S \\\n"
                    + specs.map { "                \($0)" }.joined(separator: " \\\n") + " && ret=0\n            ;;")
        }
        return """
            _statectl() {
                local curcontext=$curcontext state state_descr line ret=1
                local -a __statectl_line
                typeset -A opt_args
                __statectl_line=("${words[@]}")
                _arguments -C -S \\
            \((topLevel + ["'(-)1: :__statectl_commands'", "'(-)*:: :->command'"]).map { "        \($0)" }.joined(separator: " \\\n")) && ret=0
                if [[ $state == command ]]; then
                    curcontext=${curcontext%:*:*}:statectl-$words[1]:
                    case $words[1] in
            \(arms.joined(separator: "\n"))
                    esac
                fi
                return ret
            }

            """
    }

    /// The `_arguments` specs of `options` and `arguments`, each a quoted word.
    private func specs(for options: [Option], arguments: [Positional]) -> [String] {
        var specs: [String] = []
        for option in options {
            let description = "[" + Self.escapeDescription(option.help) + "]"
            // --help and --version stand alone: nothing else is offered after them.
            let exclusive = option == .help || option == .version ? "(- *)" : ""
            let repeats = option.repeats ? "*" : ""
            for name in option.names {
                var spec = exclusive + repeats + name
                if let valueName = option.valueName {
                    // `=`: the value may follow in the same word (--db=PATH) or the next.
                    spec +=
                        (name.hasPrefix("--") ? "=" : "") + description + ":" + Self.escapeColons(valueName)
                        + ":" + action(for: option.completion)
                } else {
                    spec += description
                }
                specs.append(Self.quoted(spec))
            }
        }
        for (index, argument) in arguments.enumerated() {
            let position =
                switch argument.arity {
                case .required: "\(index + 1):"
                case .optional: "\(index + 1)::"
                case .variadic: "*:"
                }
            specs.append(
                Self.quoted(position + Self.escapeColons(argument.name) + ":" + action(for: argument.completion)))
        }
        return specs
    }

    /// The `_arguments` action that completes a value.
    private func action(for completion: ValueCompletion) -> String {
        switch table.resolved(completion) {
        case .none, .commands: " "  // no completion, the message shown
        case .files: "_files"
        case .sessions: "__statectl_sessions"
        case .windows(let index): "{__statectl_windows \(index + 1)}"
        case .choices(let words): "(" + words.map(Self.escapeChoice).joined(separator: " ") + ")"
        }
    }

    /// `text` in single quotes.
    static func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    private static func escapeColons(_ text: String) -> String {
        text.replacing("\\", with: #"\\"#).replacing(":", with: #"\:"#)
    }

    private static func escapeDescription(_ text: String) -> String {
        escapeColons(text).replacing("[", with: #"\["#).replacing("]", with: #"\]"#)
    }

    private static func escapeChoice(_ word: String) -> String {
        var escaped = ""
        for character in word {
            if !(character.isLetter || character.isNumber || "-_./".contains(character)) { escaped += "\\" }
            escaped.append(character)
        }
        return escaped
    }

    private static let helpers = #"""
        # Prints the session ids (sessions) or a session's window ids (windows SESSION) in the
        # database the line names, one a line; nothing at all when there is no database, it is
        # locked, or anything else goes wrong. statectl creates nothing and waits only a moment.
        __statectl_ids() {
            local program=${(Q)__statectl_line[1]} db= word i
            local -a database
            for (( i = 2; i < $#__statectl_line; i++ )); do
                word=$__statectl_line[i]
                case $word in
                    (--) break ;;
                    (--db=*) db=${word#--db=} ;;
                    (--db) db=$__statectl_line[i+1] ;;
                esac
            done
            [[ $program == '~'(|/*) ]] && program=$HOME${program#'~'}
            if [[ -n $db ]]; then
                db=${(Q)db}
                [[ $db == '~'(|/*) ]] && db=$HOME${db#'~'}
                database=(--db "$db")
            fi
            "$program" $database __complete -- "$@" </dev/null 2>/dev/null
        }

        __statectl_sessions() {
            local -a ids expl
            ids=(${(f)"$(__statectl_ids sessions)"})
            _wanted sessions expl 'session id' compadd -a ids
        }

        # $1: where the session stands among the command's arguments ($line), from 1.
        __statectl_windows() {
            local -a ids expl
            (( $#line >= $1 )) || return 1
            ids=(${(f)"$(__statectl_ids windows "${(Q)line[$1]}")"})
            _wanted windows expl 'window id' compadd -a ids
        }

        """#

    private static let footer = #"""
        # Autoloaded from $fpath, this file is the body of _statectl: complete now. Sourced: register.
        if [[ $funcstack[1] == _statectl ]]; then
            _statectl "$@"
        else
            compdef _statectl statectl
        fi

        """#
}
