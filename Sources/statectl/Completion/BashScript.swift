/// The bash completion script: a function for `complete -F`, with the command table as `case`
/// arms. It needs bash 4.4 or later and nothing else (not the bash-completion package).
struct BashScript {
    let table: CompletionTable

    var text: String {
        table.header(.bash, loading: "Load it with: source <(statectl completion bash)")
            + commandsFunction + "\n" + specFunction + "\n" + valueFunction + "\n" + Self.body
    }

    /// `__statectl_commands`: the command names, in help order.
    private var commandsFunction: String {
        """
        # The commands, in help order.
        __statectl_commands() {
            echo \(table.commands.map { Self.word($0.name) }.joined(separator: " "))
        }

        """
    }

    /// `__statectl_spec COMMAND`: the options the command accepts, those of them that take a
    /// value, and how its arguments complete.
    private var specFunction: String {
        var arms = [arm("''", options: table.topLevelOptions, arguments: [], variadic: false)]
        for command in table.commands {
            arms.append(
                arm(
                    Self.word(command.name), options: command.offeredOptions, arguments: command.arguments,
                    variadic: command.arguments.last?.arity == .variadic))
        }
        arms.append("    *) options=() valued=() arguments=() ;;")
        return """
            # What command $1 accepts ('' for statectl before a command): its options, those of them that
            # take a value, and how each argument completes (the last one again when variadic is set).
            __statectl_spec() {
                variadic=
                case $1 in
            \(arms.joined(separator: "\n"))
                esac
            }

            """
    }

    private func arm(_ pattern: String, options: [Option], arguments: [Positional], variadic: Bool) -> String {
        let names = options.flatMap(\.names).map(Self.word).joined(separator: " ")
        let valued = options.filter { !$0.isFlag }.flatMap(\.names).map(Self.word).joined(separator: " ")
        let kinds = arguments.map { Self.word(kind(table.resolved($0.completion))) }.joined(separator: " ")
        return "    \(pattern)) options=(\(names)) valued=(\(valued)) arguments=(\(kinds))"
            + (variadic ? " variadic=1" : "") + " ;;"
    }

    /// `__statectl_value COMMAND OPTION`: how the option's value completes, one arm per kind.
    private var valueFunction: String {
        var patterns: [(kind: String, patterns: [String])] = []
        func add(_ command: Command?, _ option: Option) {
            let kind = kind(table.resolved(option.completion))
            guard !option.isFlag, kind != "none" else { return }
            let found = option.names.map { Self.word("\(command?.name ?? "")/\($0)") }
            if let index = patterns.firstIndex(where: { $0.kind == kind }) {
                patterns[index].patterns += found
            } else {
                patterns.append((kind, found))
            }
        }
        for option in table.topLevelOptions { add(nil, option) }
        for command in table.commands {
            for option in command.offeredOptions { add(command, option) }
        }
        let arms = patterns.map { "    \($0.patterns.joined(separator: " | ")) ) REPLY=\(Self.word($0.kind)) ;;" }
        return """
            # How the value of option $2 of command $1 completes.
            __statectl_value() {
                case $1/$2 in
            \(arms.joined(separator: "\n"))
                *) REPLY=none ;;
                esac
            }

            """
    }

    /// A completion as the script's functions read it: `none`, `files`, `sessions`,
    /// `windows INDEX`, or `choices WORD...`.
    private func kind(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none, .commands: "none"
        case .files: "files"
        case .sessions: "sessions"
        case .windows(let index): "windows \(index)"
        case .choices(let words): (["choices"] + words).joined(separator: " ")
        }
    }

    /// `text` as one bash word: as it is when it holds nothing bash treats specially, else in
    /// single quotes.
    static func word(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || "0123456789_-./=".unicodeScalars.contains($0)
            }
        return plain ? text : "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// What does not depend on the table: reading the line, and answering.
    private static let body = #"""
        # Sets words to the words of the line up to the cursor as statectl will get them, joining
        # what readline split at COMP_WORDBREAKS (--db=PATH and Type:JSON are one word each), cword
        # to the index of the last one, and rlword to the part of it that readline replaces.
        __statectl_words() {
            local line=${COMP_LINE:0:COMP_POINT} rest word i
            words=() cword=-1 rlword=
            for ((i = 0; i <= COMP_CWORD; i++)); do
                rest=${line#"${line%%[![:space:]]*}"}
                word=${COMP_WORDS[i]}
                ((i == COMP_CWORD)) && word=$rest
                if ((i > 0 && ${#rest} == ${#line})); then
                    words[cword]+=$word
                else
                    words+=("$word")
                    cword=$((${#words[@]} - 1))
                fi
                line=${rest:${#word}}
            done
            rlword=$word
            [[ -z ${rlword//[=:]/} ]] && rlword=
        }

        # Sets REPLY to word $1 without its quotes and backslashes, and a leading ~ as $HOME: enough
        # for a path or an id, and never an expansion that could run anything. Sets quote to the
        # quote left open at the end ('' when none) and opened to where it was opened.
        __statectl_dequote() {
            local word=$1 out= c i
            quote= opened=
            for ((i = 0; i < ${#word}; i++)); do
                c=${word:i:1}
                if [[ $quote == "'" ]]; then
                    [[ $c == "'" ]] && quote= || out+=$c
                elif [[ $c == '\' && $quote == '"' && ${word:i+1:1} != [\$\`\"\\] ]]; then
                    out+=$c
                elif [[ $c == '\' ]]; then
                    ((i++))
                    out+=${word:i:1}
                elif [[ $c == '"' ]]; then
                    [[ $quote == '"' ]] && quote= || { quote=$c opened=$i; }
                elif [[ $c == "'" && -z $quote ]]; then
                    quote=$c opened=$i
                else
                    out+=$c
                fi
            done
            [[ $word == '~' || $word == '~/'* ]] && out=$HOME${out:1}
            REPLY=$out
        }

        __statectl_has() {
            local wanted=$1 item
            shift
            for item; do [[ $item == "$wanted" ]] && return 0; done
            return 1
        }

        # Prints the session ids (sessions) or a session's window ids (windows SESSION) in the
        # database the line names, one a line; nothing at all when there is no database, it is
        # locked, or anything else goes wrong. statectl creates nothing and waits only a moment.
        __statectl_ids() {
            local program
            local -a database=()
            __statectl_dequote "${words[0]}"
            program=$REPLY
            if [[ -n $db ]]; then
                __statectl_dequote "$db"
                database=(--db "$REPLY")
            fi
            "$program" "${database[@]}" __complete -- "$@" </dev/null 2>/dev/null
        }

        # Sets REPLY to $1 as it must be written inside an open quote $2 (' or "), which readline
        # closes after a single match: in single quotes ' is '\''; in double quotes \ " $ ` take a
        # backslash, and ! (history expansion, which double quotes do not stop) is '!' between
        # the quotes closed and opened again.
        __statectl_quoted() {
            local text=$1
            if [[ $2 == "'" ]]; then
                text=${text//"'"/"'\\''"}
            else
                text=${text//'\'/'\\'}
                text=${text//'"'/'\"'}
                text=${text//'$'/'\$'}
                text=${text//'`'/'\`'}
                text=${text//'!'/'"'"'!'"'"'}
            fi
            REPLY=$text
        }

        # Fills COMPREPLY with the candidates of kind $1 that start with the value typed so far, $3
        # (after $2, the option's --name=, when the value is in the option's word), each written
        # for the line: escaped, or quoted for the quote the user opened, less what readline keeps
        # of the word at the cursor. With $4 set (an argument, before any --), an id that begins
        # with - comes after --, so that statectl does not take it for an option.
        __statectl_reply() {
            local -a kind candidates=()
            local value candidate text before keep=${words[cword]} quote opened
            read -ra kind <<<"$1"
            keep=${keep:0:${#keep}-${#rlword}}
            __statectl_dequote "$3"
            value=$REPLY
            case ${kind[0]} in
            choices) candidates=("${kind[@]:1}") ;;
            sessions) mapfile -t candidates < <(__statectl_ids sessions) ;;
            windows)
                ((${#given[@]} > kind[1])) || return 0
                __statectl_dequote "${given[kind[1]]}"
                mapfile -t candidates < <(__statectl_ids windows "$REPLY")
                ;;
            files)
                compopt -o filenames 2>/dev/null
                mapfile -t candidates < <(compgen -f -- "$value")
                for candidate in "${candidates[@]}"; do
                    text=$2$candidate
                    [[ $text == "$keep"* ]] && COMPREPLY+=("${text:${#keep}}")
                done
                return 0
                ;;
            *) return 0 ;;
            esac
            __statectl_dequote "$3"
            if [[ -n $quote ]]; then
                # Readline replaces what follows the open quote: the candidate less what stands
                # before the quote.
                __statectl_dequote "${3:0:opened}"
                before=$REPLY
                __statectl_dequote "$3"
            fi
            local -a quoted=()
            for candidate in "${candidates[@]}"; do
                [[ -n $candidate && $candidate == "$value"* ]] || continue
                if [[ -n $quote ]]; then
                    __statectl_quoted "${candidate:${#before}}" "$quote"
                    text=$REPLY
                    [[ -n $4 && $candidate == -* && -z $before && opened -eq 0 ]] && text="$quote-- $quote$text"
                    # Text that begins with the quote replaces the user's (readline does not
                    # double an opening quote): that quote goes first again.
                    [[ $text == "$quote"* ]] && text=$quote$text
                    quoted+=("$text")
                    continue
                fi
                printf -v text %q "$candidate"
                [[ -n $4 && $candidate == -* ]] && text="-- $text"
                text=$2$text
                [[ $text == "$keep"* ]] && COMPREPLY+=("${text:${#keep}}")
            done
            # A single match is closed here: readline closes the quote only when the text does
            # not already end in that quote character, which an escaped one can.
            ((${#quoted[@]} == 1)) && quoted[0]+=$quote
            COMPREPLY+=("${quoted[@]}")
            return 0
        }

        _statectl() {
            local -a words options valued arguments given=()
            local cword rlword variadic REPLY command= db= expecting= ended= word i
            COMPREPLY=()
            __statectl_words
            __statectl_spec ''
            for ((i = 1; i < cword; i++)); do
                word=${words[i]}
                if [[ -n $expecting ]]; then
                    [[ $expecting == --db ]] && db=$word
                    expecting=
                elif [[ -z $ended && $word == -- ]]; then
                    ended=1
                elif [[ -z $ended && $word == -?* ]]; then
                    if [[ $word == --db=* ]]; then
                        db=${word#--db=}
                    elif [[ $word != *=* ]] && __statectl_has "$word" "${valued[@]}"; then
                        expecting=$word
                    fi
                elif [[ -z $command ]]; then
                    command=$word
                    __statectl_spec "$command"
                else
                    given+=("$word")
                fi
            done
            local cur=${words[cword]} kind=none before= argument=none dash=
            if ((${#given[@]} < ${#arguments[@]})); then
                argument=${arguments[${#given[@]}]}
            elif [[ -n $variadic ]] && ((${#arguments[@]})); then
                argument=${arguments[-1]}
            fi
            [[ -z $ended && $argument == sessions* || -z $ended && $argument == windows* ]] && dash=1
            if [[ -n $expecting ]]; then
                __statectl_value "$command" "$expecting"
                kind=$REPLY
            elif [[ -z $ended && $cur == --*=* ]]; then
                before=${cur%%=*}=
                __statectl_value "$command" "${cur%%=*}"
                kind=$REPLY
                cur=${cur#*=}
            elif [[ -z $ended && $cur == -* ]]; then
                kind="choices ${options[*]}"
                # Besides the options, an id that begins with what was typed, after --.
                [[ -n $command && -n $dash ]] && __statectl_reply "$argument" "" "$cur" 1
                dash=
            elif [[ -z $command ]]; then
                kind="choices $(__statectl_commands)"
                dash=
            else
                kind=$argument
            fi
            [[ -n $expecting || -n $before ]] && dash=
            __statectl_reply "$kind" "$before" "$cur" "$dash"
        }

        complete -F _statectl statectl

        """#
}
