import StateStore

/// A parsed command line: the command, its positional arguments and every option occurrence in
/// command-line order (global options included), each value already read into its type.
struct Invocation: Sendable {
    /// One option as given: `--push X` is `(push, "X")`, `--dismiss` is `(dismiss, nil)`.
    struct Occurrence: Sendable {
        let option: Option
        /// The value as written; `nil` for a flag.
        let text: String?
        /// The value in the option's type; `nil` for a flag.
        let value: (any Sendable)?

        /// `option` given with `text`, its value read as the option declares (a flag takes none).
        init(option: Option, text: String?) throws(ValueProblem) {
            self.option = option
            self.text = text
            if let text, let read = option.read {
                value = try read(text)
            } else {
                value = nil
            }
        }
    }

    let command: Command
    /// Positional arguments as written, in order.
    let positionals: [String]
    /// The same, each read into its declared type.
    let positionalValues: [any Sendable]
    /// Options and flags, in command-line order.
    let occurrences: [Occurrence]
    /// 1-based positions in argv of the arguments used here that are not valid UTF-8.
    let invalidUTF8Positions: [Int]

    /// The value of a declared positional argument, or `nil` when it was not given.
    func argument<Value>(_ argument: Argument<Value>) -> Value? {
        arguments(argument).first
    }

    /// The value of a required positional argument, which the parser made sure is there.
    func required<Value>(_ argument: Argument<Value>) -> Value {
        guard let value = self.argument(argument) else {
            preconditionFailure("the parser lets no command run without <\(argument.positional.name)>")
        }
        return value
    }

    /// Every value of a declared (variadic) positional argument.
    func arguments<Value>(_ argument: Argument<Value>) -> [Value] {
        guard let index = command.arguments.firstIndex(of: argument.positional), index < positionalValues.count
        else { return [] }
        let values = argument.positional.arity == .variadic ? positionalValues[index...] : [positionalValues[index]]
        return values.compactMap { $0 as? Value }
    }

    /// Whether a flag was given.
    func flag(_ option: Option) -> Bool {
        occurrences.contains { $0.option == option }
    }

    /// The value of a single-valued option, or `nil` when it was not given.
    func value<Value>(_ option: ValueOption<Value>) -> Value? {
        occurrences.last { $0.option == option.option }?.value as? Value
    }

    /// The value of a required option, which the parser made sure is there.
    func required<Value>(_ option: ValueOption<Value>) -> Value {
        guard let value = value(option) else {
            preconditionFailure("the parser lets no command run without \(option.option.name)")
        }
        return value
    }

    /// Refuses arguments that are not valid UTF-8: bad data, found after parsing so that a usage
    /// error anywhere on the line wins.
    func rejectInvalidUTF8() throws(StateStoreError) {
        guard let position = invalidUTF8Positions.first else { return }
        throw .invalidInput("argument \(position) is not valid UTF-8")
    }
}
