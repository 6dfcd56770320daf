import StateStore

/// A parsed command line: the command, its positional arguments and every option occurrence in
/// command-line order (global options included), ready for the command to read.
struct Invocation: Sendable {
    /// One option as given: `--push X` is `(push, "X")`, `--dismiss` is `(dismiss, nil)`.
    struct Occurrence: Sendable {
        let option: Option
        let value: String?
    }

    let command: Command
    /// Positional arguments, in order.
    let positionals: [String]
    /// Options and flags, in command-line order.
    let occurrences: [Occurrence]
    /// 1-based positions in argv of the arguments used here that are not valid UTF-8.
    let invalidUTF8Positions: [Int]

    /// The value of a declared positional argument, or `nil` when it was not given.
    func argument(_ positional: Positional) -> String? {
        arguments(positional).first
    }

    /// Every value of a declared (variadic) positional argument.
    func arguments(_ positional: Positional) -> [String] {
        guard let index = command.arguments.firstIndex(of: positional), index < positionals.count else { return [] }
        return positional.arity == .variadic ? Array(positionals[index...]) : [positionals[index]]
    }

    func flag(_ option: Option) -> Bool {
        occurrences.contains { $0.option == option }
    }

    /// The value of a single-valued option, or `nil` when it was not given.
    func value(_ option: Option) -> String? {
        occurrences.last { $0.option == option }?.value
    }

    /// The value of an option declared with ``ValueKind/integer(minimum:)`` (already checked).
    func integer(_ option: Option) -> Int? {
        value(option).flatMap { Int($0) }
    }

    /// The value of an integer positional argument (already checked).
    func integer(_ positional: Positional) -> Int? {
        argument(positional).flatMap { Int($0) }
    }

    /// The value of an option declared with the size classes as its choices.
    func sizeClass(_ option: Option) -> SizeClass? {
        value(option).flatMap { SizeClass(rawValue: $0) }
    }

    /// Refuses arguments that are not valid UTF-8: bad data, found after parsing so that a usage
    /// error anywhere on the line wins.
    func rejectInvalidUTF8() throws(StateStoreError) {
        guard let position = invalidUTF8Positions.first else { return }
        throw .invalidInput("argument \(position) is not valid UTF-8")
    }
}

extension Option {
    /// `--size-class C` as commands that filter or restore by size class declare it.
    static func sizeClass(help: String, section: OptionSection? = nil, repeats: Bool = false) -> Option {
        .value(
            "--size-class", "size-class", .choice(SizeClass.allCases.map(\.rawValue)), help: help, repeats: repeats,
            section: section)
    }
}

extension Positional {
    static let session = Positional(name: "session", help: "The session id.")
    static let window = Positional(name: "window", help: "The window id.")
}
