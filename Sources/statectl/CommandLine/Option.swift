/// An option (`--limit <n>`) or a flag (`--json`) as a command declares it.
struct Option: Sendable, Equatable {
    /// The long name with its dashes: `--size-class`.
    let name: String
    /// A one-letter alias with its dash, such as `-h`.
    var shortName: String? = nil
    /// The placeholder of the value (`size-class` for `<size-class>`); `nil` for a flag.
    var valueName: String? = nil
    var kind: ValueKind = .text
    let help: String
    /// Whether it may be given more than once; each occurrence is kept in command-line order.
    var repeats = false
    /// Whether the command cannot run without it (shown without brackets in the usage line).
    var required = false
    /// The help section it is listed under; `nil` for `OPTIONS:`.
    var section: OptionSection? = nil

    var isFlag: Bool { valueName == nil }

    /// A flag: present or not.
    static func flag(_ name: String, help: String, repeats: Bool = false, section: OptionSection? = nil) -> Option {
        Option(name: name, help: help, repeats: repeats, section: section)
    }

    /// An option that takes a value.
    static func value(
        _ name: String, _ valueName: String, _ kind: ValueKind = .text, help: String, repeats: Bool = false,
        required: Bool = false, section: OptionSection? = nil
    ) -> Option {
        Option(
            name: name, valueName: valueName, kind: kind, help: help, repeats: repeats, required: required,
            section: section)
    }

    /// How the option is written in help and errors: `--size-class <size-class>`.
    var synopsis: String {
        let names = [shortName, name].compactMap { $0 }.joined(separator: ", ")
        return valueName.map { "\(names) <\($0)>" } ?? names
    }
}

/// A group of options listed under its own title in help, and summarized in the usage line by
/// one placeholder (`set`'s mutations: `MUTATIONS:` and `<mutation> ...`).
struct OptionSection: Sendable, Equatable {
    let title: String
    let placeholder: String
}

extension Option {
    static let database = Option.value(
        "--db", "path", .nonEmptyText,
        help:
            "The database file (default: $STATECTL_DB, else $XDG_STATE_HOME/statectl/state.db, else ~/.local/state/statectl/state.db)."
    )
    static let busyTimeout = Option.value(
        "--busy-timeout", "ms", .integer(minimum: 0),
        help: "How long to wait for another process's lock before giving up with exit 75 (default: 5000).")
    static let help = Option(name: "--help", shortName: "-h", help: "Show help information.")
    static let version = Option.flag("--version", help: "Show the version.")
    static let json = Option.flag("--json", help: "Print one JSON document instead of text for people.")

    /// The options that may stand before or after any command that uses a database.
    static let globals: [Option] = [.database, .busyTimeout]
}
