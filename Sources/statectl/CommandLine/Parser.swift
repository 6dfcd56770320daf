/// What a command line asks for.
enum ParseResult: Sendable {
    /// Help for a command, or for `statectl` itself when `nil`.
    case help(Command?)
    case version
    case run(Invocation)
}

/// Reads a command line against the command table: global options, the command, then the
/// command's arguments and options (the global ones may come there too). `--opt value`,
/// `--opt=value` and `--` (everything after it is an argument) all work. Every problem is a
/// ``UsageError``, found before any command runs.
struct Parser {
    let commands: [Command]

    func parse(_ arguments: [RawArgument]) throws(UsageError) -> ParseResult {
        if arguments.isEmpty { return .help(nil) }
        var state = State()

        // Before the command: global options, --help, --version.
        var index = 0
        while index < arguments.count, !state.endOfOptions {
            let argument = arguments[index]
            if argument.text == "--" {
                state.endOfOptions = true
                index += 1
            } else if argument.looksLikeOption {
                let topLevel = Option.globals + [.version, .help]
                let occurrence = try readOption(at: &index, of: arguments, accepting: topLevel, for: nil, into: &state)
                if occurrence.option == .help { return .help(nil) }
                if occurrence.option == .version { return .version }
            } else {
                break
            }
        }
        guard index < arguments.count else {
            throw UsageError("missing a command", command: nil)
        }
        let name = arguments[index].text
        guard let command = commands.first(where: { $0.name == name }) else {
            let suggestion = Suggestion.sentence(for: name, among: commands.filter { !$0.isHidden }.map(\.name))
            throw UsageError("unknown command '\(name)'.\(suggestion)", command: nil)
        }
        index += 1

        // --help anywhere among the command's options wins over everything else.
        if !state.endOfOptions,
            arguments[index...].prefix(while: { $0.text != "--" }).contains(where: {
                $0.text == "--help" || $0.text == "-h"
            })
        {
            return .help(command)
        }

        var positionals: [String] = []
        while index < arguments.count {
            let argument = arguments[index]
            if !state.endOfOptions && argument.text == "--" {
                state.endOfOptions = true
                index += 1
            } else if !state.endOfOptions && argument.looksLikeOption {
                _ = try readOption(
                    at: &index, of: arguments, accepting: command.acceptedOptions, for: command, into: &state)
            } else {
                if !argument.isValidUTF8 { state.invalidUTF8Positions.append(index + 1) }
                positionals.append(argument.text)
                index += 1
            }
        }
        let values = try read(positionals, against: command, given: state.occurrences)
        for option in command.options
        where option.required && !state.occurrences.contains(where: { $0.option == option }) {
            throw UsageError("missing option '\(option.synopsis)'", command: command)
        }
        for occurrence in state.occurrences {
            guard let needed = occurrence.option.requires,
                !state.occurrences.contains(where: { $0.option.name == needed })
            else { continue }
            throw UsageError("option '\(occurrence.option.name)' needs '\(needed)'", command: command)
        }

        let invocation = Invocation(
            command: command, positionals: positionals, positionalValues: values, occurrences: state.occurrences,
            invalidUTF8Positions: state.invalidUTF8Positions.sorted())
        if let problem = command.validate?(invocation) {
            throw UsageError(problem, command: command)
        }
        return .run(invocation)
    }

    private struct State {
        var occurrences: [Invocation.Occurrence] = []
        var invalidUTF8Positions: [Int] = []
        var endOfOptions = false
    }

    /// Reads the option at `index` (and its value), advancing past them.
    private func readOption(
        at index: inout Int, of arguments: [RawArgument], accepting accepted: [Option], for command: Command?,
        into state: inout State
    ) throws(UsageError) -> Invocation.Occurrence {
        let argument = arguments[index]
        var name = argument.text
        var inlineValue: String?
        if name.hasPrefix("--"), let equals = name.firstIndex(of: "=") {
            inlineValue = String(name[name.index(after: equals)...])
            name = String(name[..<equals])
        }
        guard let option = accepted.first(where: { $0.name == name || $0.shortName == name }) else {
            let names = accepted.map(\.name)
            throw UsageError(
                "unknown option '\(name)'.\(Suggestion.sentence(for: name, among: names))", command: command)
        }
        if !option.repeats, state.occurrences.contains(where: { $0.option == option }) {
            throw UsageError("option '\(option.name)' given more than once", command: command)
        }
        var value: String?
        if option.isFlag {
            guard inlineValue == nil else {
                throw UsageError("option '\(option.name)' takes no value", command: command)
            }
            index += 1
        } else if let inlineValue {
            value = inlineValue
            if !argument.isValidUTF8 { state.invalidUTF8Positions.append(index + 1) }
            index += 1
        } else {
            guard index + 1 < arguments.count else {
                throw UsageError("missing value for '\(option.synopsis)'", command: command)
            }
            value = arguments[index + 1].text
            if !arguments[index + 1].isValidUTF8 { state.invalidUTF8Positions.append(index + 2) }
            index += 2
        }
        do throws(ValueProblem) {
            let occurrence = try Invocation.Occurrence(option: option, text: value)
            state.occurrences.append(occurrence)
            return occurrence
        } catch {
            throw UsageError(
                "invalid value '\(value ?? "")' for '\(option.synopsis)': \(error.expected)", command: command)
        }
    }

    /// Missing and extra positional arguments, and one given with the flag that stands in its
    /// place; the values of the others, read into their types.
    private func read(
        _ positionals: [String], against command: Command, given occurrences: [Invocation.Occurrence]
    ) throws(UsageError) -> [any Sendable] {
        let declared = command.arguments
        func isStoodIn(_ positional: Positional) -> Bool {
            positional.standIn.map { name in occurrences.contains { $0.option.name == name } } ?? false
        }
        for (index, positional) in declared.enumerated() where isStoodIn(positional) && index < positionals.count {
            throw UsageError(
                "give '<\(positional.name)>' or '\(positional.standIn ?? "")', not both "
                    + "(unexpected argument '\(positionals[index])')",
                command: command)
        }
        let required = declared.count { $0.arity == .required && !isStoodIn($0) }
        if positionals.count < required {
            let missing = declared[positionals.count]
            throw UsageError(
                "missing argument '<\(missing.name)>'" + (missing.standIn.map { " (or '\($0)')" } ?? ""),
                command: command)
        }
        if declared.last?.arity != .variadic, positionals.count > declared.count {
            throw UsageError("unexpected argument '\(positionals[declared.count])'", command: command)
        }
        var values: [any Sendable] = []
        for (offset, text) in positionals.enumerated() {
            let positional = declared[min(offset, declared.count - 1)]
            do throws(ValueProblem) {
                values.append(try positional.read(text))
            } catch {
                throw UsageError(
                    "invalid value '\(text)' for '<\(positional.name)>': \(error.expected)", command: command)
            }
        }
        return values
    }
}

extension RawArgument {
    /// `-x` or `--x`; a lone `-` is an argument (standard input, by convention).
    var looksLikeOption: Bool { text.hasPrefix("-") && text != "-" }
}
