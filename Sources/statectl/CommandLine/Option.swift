import StateStore

/// An option (`--limit <n>`) or a flag (`--json`) as a command declares it: names, help, and,
/// for an option, how its value is read (see ``ValueOption``). Two options are the same when
/// their names are.
struct Option: Sendable {
    /// The long name with its dashes: `--size-class`.
    let name: String
    /// A one-letter alias with its dash, such as `-h`.
    var shortName: String? = nil
    /// The placeholder of the value (`size-class` for `<size-class>`); `nil` for a flag.
    var valueName: String? = nil
    let help: String
    /// Whether it may be given more than once; each occurrence is kept in command-line order.
    var repeats = false
    /// Whether the command cannot run without it (shown without brackets in the usage line).
    var required = false
    /// The help section it is listed under; `nil` for `OPTIONS:`.
    var section: OptionSection? = nil
    /// What a shell completes its value to (`.none` for a flag).
    var completion: ValueCompletion = .none
    /// The long name of an option this one means nothing without (`--kind` needs `--focused`):
    /// given alone, it is a usage error.
    var requires: String? = nil
    /// Reads a value into the option's type (`nil` for a flag).
    var read: (@Sendable (String) throws(ValueProblem) -> any Sendable)? = nil

    var isFlag: Bool { valueName == nil }

    /// A flag: present or not.
    static func flag(_ name: String, help: String, repeats: Bool = false, section: OptionSection? = nil) -> Option {
        Option(name: name, help: help, repeats: repeats, section: section)
    }

    /// An option that takes a value of type `Value`, read from its text by the parser, and
    /// completed as `completion` says (by default, as the type says).
    static func value<Value: ArgumentValue>(
        _ name: String, _ valueName: String, as type: Value.Type, help: String, repeats: Bool = false,
        required: Bool = false, section: OptionSection? = nil, completion: ValueCompletion? = nil,
        requires: String? = nil
    ) -> ValueOption<Value> {
        ValueOption(
            option: Option(
                name: name, valueName: valueName, help: help, repeats: repeats, required: required, section: section,
                completion: completion ?? Value.completion, requires: requires,
                read: { text throws(ValueProblem) in try Value(argument: text) }))
    }

    /// Its names, the short one first: `-h --help`.
    var names: [String] { [shortName, name].compactMap { $0 } }

    /// How the option is written in help and errors: `--size-class <size-class>`.
    var synopsis: String {
        let names = [shortName, name].compactMap { $0 }.joined(separator: ", ")
        return valueName.map { "\(names) <\($0)>" } ?? names
    }
}

extension Option: Equatable {
    static func == (lhs: Option, rhs: Option) -> Bool {
        lhs.name == rhs.name && lhs.shortName == rhs.shortName
    }
}

/// An option whose value is a `Value`: what a command declares, and reads the value through
/// (``Invocation/value(_:)``), already in its type.
struct ValueOption<Value: ArgumentValue>: Sendable {
    /// The declaration the parser and help see.
    let option: Option
}

/// A group of options listed under its own title in help, and summarized in the usage line by
/// one placeholder (`set`'s mutations: `MUTATIONS:` and `<mutation> ...`).
struct OptionSection: Sendable, Equatable {
    let title: String
    let placeholder: String
}

extension Option {
    static let database = Option.value(
        "--db", "path", as: PathArgument.self,
        help:
            "The database file (default: $STATECTL_DB, else on Linux $XDG_STATE_HOME/statectl/state.db or "
            + "~/.local/state/statectl/state.db, on macOS ~/Library/Application Support/StateStore/state.db).")
    /// The store of an app in a booted simulator (or of an App Group there).
    static let simulator = Option.value(
        "--simulator", "[udid/]bundle[:group]", as: SimulatorTarget.self,
        help:
            "The store of the app BUNDLE in the booted simulator (the one with UDID, when several are booted), or of "
            + "its App Group GROUP: Library/Application Support/StateStore/state.db (Library/Caches on tvOS) in the "
            + "container 'xcrun simctl get_app_container' names.")
    /// The store of a sandboxed Mac app.
    static let container = Option.value(
        "--container", "bundle", as: BundleIdentifier.self,
        help:
            "The store of the sandboxed Mac app BUNDLE: ~/Library/Containers/BUNDLE/Data/Library/Application "
            + "Support/StateStore/state.db.")
    /// The store of a Mac app that is not sandboxed.
    static let app = Option.value(
        "--app", "bundle", as: BundleIdentifier.self,
        help:
            "The store of the Mac app BUNDLE that is not sandboxed: ~/Library/Application "
            + "Support/BUNDLE/StateStore/state.db.")
    /// The store in a macOS App Group's container.
    static let group = Option.value(
        "--group", "group", as: GroupIdentifier.self,
        help:
            "The store in the macOS App Group GROUP's container, which its apps and extensions share: "
            + "~/Library/Group Containers/GROUP/Library/Application Support/StateStore/state.db.")
    static let busyTimeout = Option.value(
        "--busy-timeout", "ms", as: WholeNumber.self,
        help: "How long to wait for another process's lock before giving up with exit 75 (default: 5000).")
    static let durability = Option.value(
        "--durability", "durability", as: WindowStore.Durability.self,
        help:
            "How hard a write works to survive a power cut: normal (the default: a commit survives a crash of any "
            + "process, but a power cut while a host has the file open may undo the last ones) or full (each commit "
            + "is on the disk before statectl says it was written). Default: $STATECTL_DURABILITY, else normal.")
    static let help = Option(name: "--help", shortName: "-h", help: "Show help information.")
    static let version = Option.flag("--version", help: "Show the version.")
    static let json = Option.flag("--json", help: "Print one JSON document instead of text for people.")
    /// `set`'s and `revert`'s condition on the window's revision.
    static let expectRevision = Option.value(
        "--expect-revision", "n", as: WholeNumber.self,
        help: "Write only if the window is at revision n (a window that does not exist is at 0); otherwise exit 1.")

    /// The options that may stand before or after any command that uses a database.
    static let globals: [Option] = [
        database.option, simulator.option, container.option, app.option, group.option, busyTimeout.option,
        durability.option,
    ]
}

extension ValueOption<SizeClass> {
    /// `--size-class C` as commands that filter or restore by size class declare it.
    static func sizeClass(help: String, section: OptionSection? = nil, repeats: Bool = false) -> Self {
        Option.value(
            "--size-class", "size-class", as: SizeClass.self, help: help, repeats: repeats, section: section)
    }
}
