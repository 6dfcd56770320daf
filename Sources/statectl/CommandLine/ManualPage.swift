/// The manual page `statectl(1)` in roff (`man -l` renders it), made from the same declarations
/// as help: every listed command with its arguments and options, and the tables of database
/// location rules, environment variables and exit statuses.
enum ManualPage {
    /// Where the database is, and which commands create it: the DATABASE section.
    static let databaseLocation = """
        The database is the file --db names, else $STATECTL_DB (empty counts as unset), else on \
        Linux $XDG_STATE_HOME/statectl/state.db, else, when XDG_STATE_HOME is unset, empty or not \
        an absolute path, $HOME/.local/state/statectl/state.db; on macOS \
        $HOME/Library/Application Support/StateStore/state.db, the store of command-line tools \
        with no bundle identifier (statectl, a terminal host; without HOME, the account's home \
        folder). A variable that names the database and is not UTF-8 exits 65, as --db does: \
        decoded, it would name another file. demo uses --db only, and a temporary database \
        without it.

        An app keeps its store in Library/Application Support/StateStore/state.db inside its \
        container (Library/Caches/StateStore/state.db on tvOS, where the system may empty Caches), \
        or inside an App Group's container, which it shares with its extensions. --simulator \
        BUNDLE opens that of the app BUNDLE in the booted simulator, and --simulator BUNDLE:GROUP \
        that of its App Group GROUP (the container 'xcrun simctl get_app_container UDID BUNDLE \
        data|GROUP' names). With several simulators booted, name one by its UDID: --simulator \
        UDID/BUNDLE[:GROUP] ('xcrun simctl list devices' shows them; statectl lists the booted ones \
        and exits 64 when it cannot choose). Without GROUP, when the app's container holds no \
        store, or one with no window, while one of its App Groups holds one, statectl says so on \
        standard error with the spelling that reaches it. After a write, statectl posts the \
        store's Darwin notification inside the simulator too ('xcrun simctl spawn UDID notifyutil \
        -p NAME'), since a Simulator app does not hear the Mac's. Each xcrun call may take \
        $STATECTL_XCRUN_TIMEOUT seconds (30 by default) and print 1 MiB; past either it is \
        stopped, with what it started, and statectl exits 74 naming it.

        On macOS, --container BUNDLE opens the store of the sandboxed app BUNDLE, in \
        ~/Library/Containers/BUNDLE/Data; --app BUNDLE that of the app BUNDLE that is not \
        sandboxed, ~/Library/Application Support/BUNDLE/StateStore/state.db (each such app has a \
        folder of its own); --group GROUP the one in the App Group GROUP's container, \
        ~/Library/Group Containers/GROUP (a group's container belongs to no one app, so GROUP \
        alone names it). --db, --simulator, --container, --app and --group exclude each other. \
        BUNDLE and GROUP are identifiers: letters, digits, '-' and '.'; GROUP after --simulator \
        begins with 'group.'. No booted simulator, an app or group not installed, or no container \
        exit 66; no xcrun, or a container the system will not let statectl read (macOS asks the \
        user before a tool reads another app's data), exit 74.

        set, migrate and demo --db create the file and its folder when missing; import does only \
        after the whole document was read and checked. No other command creates anything, and \
        each of them exits 66 on a missing file (a mistyped path is not an empty store): list, \
        show, restore, history, export, backup, prune (with --dry-run too), check, migrate \
        --status, delete, revert, set --focused. watch waits for the file to be created.

        A command that only reads works where it may not write: a store in a folder of another \
        user's is read through the -wal and -shm a writer keeps beside it, or, with neither there \
        (none can be made, so no process has it open), as the file is on disk, its state checked \
        before and after each read: exit 75 if another process wrote it meanwhile. A database \
        path is always a file: --db :memory: is a usage error (a file of that name is \
        ./:memory:). Many processes share one file, hosts and statectl at once. SQLite keeps the \
        latest commits in a -wal file beside the database, found by name: never copy, move or \
        replace the file of a live store; 'statectl backup' makes a consistent copy.
        """

    /// The whole page.
    static func text(commands: [Command] = Command.listed) -> String {
        var page = """
            .\\" statectl(1), made by 'statectl help --man' from statectl's command table.
            .TH STATECTL 1 "" "statectl \(Statectl.version)" "User Commands"
            .\\" Ids, paths and options are copied from the page: no hyphenation, no stretched lines.
            .nh
            .ad l
            .SH NAME
            statectl \\- \(escape(lowercasingFirst(Help.overview.dropLast())))
            .SH SYNOPSIS
            \(synopsis(Help.usageParts(of: nil)))
            .SH DESCRIPTION

            """
        page += paragraphs(
            Help.discussion + "\n\n"
                + "Global options may stand before or after any command that uses a database. --opt value and "
                + "--opt=value both work; after -- everything is an argument (for an id that starts with '-'). "
                + "'statectl help COMMAND' and 'statectl COMMAND --help' describe a command, and "
                + "'statectl completion' prints a shell completion script.")
        page += ".SH OPTIONS\n"
        for option in Option.globals + [.version, .help] { page += entry(option) }
        page += ".SH COMMANDS\n"
        for command in commands { page += section(command) }
        page += ".SH DATABASE\n" + paragraphs(databaseLocation)
        page += ".SH ENVIRONMENT\n"
        for variable in EnvironmentVariable.allCases {
            page += ".TP\n\\&\\fB\(escape(variable.rawValue))\\fR\n" + line(variable.meaning)
        }
        page += """
            .SH FILES
            .TP
            \\&\\fI$XDG_STATE_HOME/statectl/state.db\\fR, \\fI~/.local/state/statectl/state.db\\fR
            \\&On Linux, the database when neither \\-\\-db nor STATECTL_DB names one, with SQLite's \\-wal and \\-shm files beside it.
            .TP
            \\&\\fI~/Library/Application Support/StateStore/state.db\\fR
            \\&On macOS, the same: the store of command-line tools with no bundle identifier.
            .TP
            \\&\\fI~/Library/Application Support/BUNDLE/StateStore/state.db\\fR
            \\&On macOS, the store of the app BUNDLE when it is not sandboxed (\\-\\-app BUNDLE).
            .SH EXIT STATUS

            """
        for (status, _, meaning) in ExitStatus.table {
            page += ".TP\n\\&\\fB\(status)\\fR\n" + line(meaning)
        }
        page += ".SH SEE ALSO\n\\&\\fBsqlite3\\fR(1)\n"
        return page
    }

    /// One command: its usage, abstract, discussion, arguments and own options.
    private static func section(_ command: Command) -> String {
        var text = ".SS \(command.name)\n" + synopsis(Help.usageParts(of: command))
        text += ".PP\n" + line(command.abstract)
        if !command.discussion.isEmpty { text += paragraphs(command.discussion) }
        if !command.arguments.isEmpty {
            text += ".PP\n\\&Arguments:\n"
            for argument in command.arguments {
                text += ".TP\n\\&\\fI\(escape(argument.name))\\fR\n" + line(argument.help)
            }
        }
        var titles: [OptionSection?] = []
        for option in command.options where !titles.contains(option.section) { titles.append(option.section) }
        for title in titles {
            let name = title.map { $0.title.prefix(1) + $0.title.dropFirst().lowercased() } ?? "Options"
            text += ".PP\n\\&\(escape(name)):\n"
            for option in command.options where option.section == title { text += entry(option) }
        }
        return text
    }

    /// A tagged paragraph: the option's synopsis, then its help.
    private static func entry(_ option: Option) -> String {
        var tag = option.names.map { "\\fB\(escape($0))\\fR" }.joined(separator: ", ")
        if let valueName = option.valueName { tag += " \\fI\(escape(valueName))\\fR" }
        return ".TP\n\\&\(tag)\n" + line(option.help)
    }

    /// A usage line, its words bold (literals) or italic (`<placeholders>`), each bracketed or
    /// parenthesized group kept on one line.
    private static func synopsis(_ parts: [String]) -> String {
        let words = parts.map { part in
            part.split(separator: " ").map { token -> String in
                var word = Substring(token)
                var opening = ""
                var closing = ""
                while let first = word.first, first == "[" || first == "(" {
                    opening.append(first)
                    word = word.dropFirst()
                }
                while let last = word.last, last == "]" || last == ")" {
                    closing = String(last) + closing
                    word = word.dropLast()
                }
                let body =
                    if word == "..." || word == "|" {
                        String(word)
                    } else if word.hasPrefix("<") && word.hasSuffix(">") {
                        "\\fI\(escape(String(word.dropFirst().dropLast())))\\fR"
                    } else {
                        "\\fB\(escape(String(word)))\\fR"
                    }
                return opening + body + closing
            }.joined(separator: "\\ ")
        }
        return ".PP\n\\&" + words.joined(separator: " ") + "\n"
    }

    /// Text as help writes it: paragraphs, and indented example lines kept as they are.
    private static func paragraphs(_ text: String) -> String {
        var output = ""
        var example: [Substring] = []
        func endExample() {
            guard !example.isEmpty else { return }
            let indent = example.map { $0.prefix { $0 == " " }.count }.min() ?? 0
            output += ".PP\n.RS 4\n.nf\n" + example.map { "\\&" + escape(String($0.dropFirst(indent))) + "\n" }.joined()
            output += ".fi\n.RE\n"
            example = []
        }
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if paragraph.hasPrefix(" ") {
                example.append(paragraph)
                continue
            }
            endExample()
            if !paragraph.isEmpty { output += ".PP\n" + line(String(paragraph)) }
        }
        endExample()
        return output
    }

    /// A line of text, never read as a request (`\&` first) and ending the line.
    private static func line(_ text: String) -> String {
        "\\&" + escape(text) + "\n"
    }

    /// `text` for roff: a backslash is `\e`, a hyphen-minus `\-` (so that options copy as typed),
    /// and any other character beyond ASCII its Unicode escape.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return escaped
    }

    private static func lowercasingFirst(_ text: Substring) -> String {
        text.prefix(1).lowercased() + text.dropFirst()
    }
}
