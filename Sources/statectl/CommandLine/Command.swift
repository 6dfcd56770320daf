/// One `statectl` command, declared once: its name, help text, arguments and options. Parsing,
/// `help`, usage lines and usage errors are all derived from this declaration.
struct Command: Sendable {
    /// The word that selects the command: `statectl list`.
    let name: String
    /// One line for `OVERVIEW:` and the command list.
    let abstract: String
    /// Paragraphs shown after the overview in the command's help, if any.
    var discussion: String = ""
    /// Positional arguments, in order: required ones, then optional ones, then at most one variadic.
    var arguments: [Positional] = []
    /// The command's own options and flags (the global ones are added when ``usesDatabase``).
    var options: [Option] = []
    /// Whether the command works on a database, so `--db` and `--busy-timeout` may follow it.
    var usesDatabase = true
    /// Whether, without `--db`, it works on `$STATECTL_DB` or the default location (`demo` makes
    /// a temporary database of its own instead).
    var usesDefaultDatabase = true
    /// Whether help, the manual page, suggestions and completions leave it out: a command only the
    /// completion scripts call (`__complete`).
    var isHidden = false
    /// A check across arguments that the declarations cannot express (`set` needs a mutation),
    /// run after parsing and before anything is opened: the message of a usage error, or `nil`.
    var validate: (@Sendable (Invocation) -> String?)? = nil
    /// Does the work: reads what was parsed, makes its WindowStore call, renders.
    let run: @Sendable (Invocation, Context) throws -> Void

    /// Every option the parser accepts after the command name, in help order.
    var acceptedOptions: [Option] {
        options + (usesDatabase ? Option.globals : []) + [.help]
    }

    /// The options help and the completions offer: the accepted ones but, for a command that
    /// takes `--db` only (``usesDefaultDatabase`` false), the other ways of naming a store, which
    /// the parser reads only to say they are not for it.
    var offeredOptions: [Option] {
        guard !usesDefaultDatabase else { return acceptedOptions }
        let appStores = [Option.simulator.option, Option.container.option, Option.app.option, Option.group.option]
        return acceptedOptions.filter { !appStores.contains($0) }
    }
}

/// A positional argument, shown as `<name>` in usage lines, and how its value is read (see
/// ``Argument``). Two are the same when their names are.
struct Positional: Sendable {
    enum Arity: Sendable, Equatable {
        case required
        case optional
        /// Zero or more: takes every remaining argument.
        case variadic
    }

    let name: String
    let help: String
    var arity: Arity = .required
    /// What a shell completes the argument to.
    var completion: ValueCompletion = .none
    /// The long name of a flag that may stand in its place (`--focused` for `<window>`): given,
    /// the argument is not, and a required one is no longer missing.
    var standIn: String? = nil
    /// Reads a value into the argument's type.
    let read: @Sendable (String) throws(ValueProblem) -> any Sendable
}

extension Positional: Equatable {
    static func == (lhs: Positional, rhs: Positional) -> Bool { lhs.name == rhs.name }
}

/// A positional argument whose value is a `Value`: what a command declares, and reads the value
/// through (``Invocation/argument(_:)``), already in its type.
struct Argument<Value: ArgumentValue>: Sendable {
    /// The declaration the parser and help see.
    let positional: Positional

    /// An argument named `<name>`, read as a `Value`, completed as `completion` says (by default,
    /// as the type says).
    init(
        _ name: String, as type: Value.Type = Value.self, help: String, arity: Positional.Arity = .required,
        completion: ValueCompletion? = nil, standIn: String? = nil
    ) {
        positional = Positional(
            name: name, help: help, arity: arity, completion: completion ?? Value.completion, standIn: standIn,
            read: { text throws(ValueProblem) in try Value(argument: text) })
    }
}

extension Argument<String> {
    static let session = Argument("session", help: "The session id.", completion: .sessions)
    static let window = Argument("window", help: "The window id.", completion: .windows(sessionArgument: 0))
    /// The window of `show`, `restore` and `delete`, which act on the whole session without it.
    static let optionalWindow = Argument(
        "window", help: "The window id; without it, every window of the session.", arity: .optional,
        completion: .windows(sessionArgument: 0))
}

extension Command {
    /// The commands a user sees: in help, the manual page, suggestions and completions.
    static var listed: [Command] { all.filter { !$0.isHidden } }
}
