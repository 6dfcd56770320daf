/// mailhost's command line.
struct Options {
    /// The database, when `--db` names it (else statectl's rule: `$STATECTL_DB`, XDG).
    var database: String?
    var window = "main"
    /// The narrowest terminal, in columns, laid out as regular.
    var regularWidth = 100
    /// How long a size-class change must hold before it is written and the policy applied.
    var settleMilliseconds = 500
    var help = false

    /// The session every mailhost window belongs to.
    static let session = "mailhost"

    static let usage = "mailhost [--db PATH] [--window NAME] [--regular-width COLUMNS] [--settle MS]"

    static let helpText = """
        OVERVIEW: A terminal mail client whose window state lives in statectl's database: its
        width is its size class, so the presented message is a sheet in a narrow terminal and
        pushed onto the breadcrumbs in a wide one.

        USAGE: \(usage)

        OPTIONS:
          --db PATH                The database (default: $STATECTL_DB, else on Linux
                                   $XDG_STATE_HOME/statectl/state.db, else
                                   ~/.local/state/statectl/state.db, on macOS
                                   ~/Library/Application Support/StateStore/state.db), as
                                   statectl finds it.
          --window NAME            The window to show, in session 'mailhost' (default: main).
          --regular-width COLUMNS  The narrowest terminal laid out as regular; narrower is
                                   compact (default: 100).
          --settle MS              How long, in milliseconds, a size change must hold before it
                                   is saved and the policy applied (default: 500).
          -h, --help               Show this help.

        KEYS:
          up, down (k, j)          Move the selection.
          enter, right             Open the selected row: a message or a compose is presented,
                                   anything else pushed.
          backspace, esc, left     Go back one.
          c                        Compose a new message.
          p                        Switch the window's policy between migrate and dismiss.
          q                        Quit (^C too). ^Z suspends; fg resumes.

        From another terminal:
          statectl list mailhost
          statectl set mailhost main --present 'mailhost.MailRoute:{"message":{"_0":11}}'

        """

    /// The options of `arguments`; `--help` anywhere wins over any mistake.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) {
            options.help = true
            return options
        }
        var seen: Set<String> = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else { throw UsageError("unexpected argument '\(argument)'") }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard ["--db", "--window", "--regular-width", "--settle"].contains(name) else {
                throw UsageError("unknown option '\(name)'")
            }
            guard seen.insert(name).inserted else { throw UsageError("\(name) given twice") }
            if value == nil {
                guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                value = arguments[index]
                index += 1
            }
            let text = value!
            switch name {
            case "--db":
                guard !text.isEmpty else { throw UsageError("--db needs a path") }
                options.database = text
            case "--window": options.window = text
            case "--regular-width": options.regularWidth = try number(text, for: name, in: 1...10_000)
            default: options.settleMilliseconds = try number(text, for: name, in: 0...3_600_000)
            }
        }
        return options
    }

    private static func number(_ text: String, for name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }
}

/// A mistake on the command line: exit 64 before anything is opened.
struct UsageError: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
