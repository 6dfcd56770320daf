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
    /// A check across arguments that the declarations cannot express (`set` needs a mutation),
    /// run after parsing and before anything is opened: the message of a usage error, or `nil`.
    var validate: (@Sendable (Invocation) -> String?)? = nil
    /// Does the work: reads what was parsed, makes its StateStore call, renders.
    let run: @Sendable (Invocation, Context) throws -> Void

    /// Every option the parser accepts after the command name, in help order.
    var acceptedOptions: [Option] {
        options + (usesDatabase ? Option.globals : []) + [.help]
    }
}

/// A positional argument, shown as `<name>` in usage lines.
struct Positional: Sendable, Equatable {
    enum Arity: Sendable, Equatable {
        case required
        case optional
        /// Zero or more: takes every remaining argument.
        case variadic
    }

    let name: String
    let help: String
    var arity: Arity = .required
    var kind: ValueKind = .text
}

/// What a value on the command line must look like. The parser checks it, so a value of the wrong
/// shape is a usage error (exit 64) found before anything is opened.
enum ValueKind: Sendable, Equatable {
    /// Any text (checked later as data, such as an id or a route).
    case text
    /// Any text but the empty string (a path).
    case nonEmptyText
    /// One of a fixed set of words.
    case choice([String])
    /// A whole number of at least `minimum`.
    case integer(minimum: Int)
    /// A number of seconds, 0 or more, possibly with a fraction: `2`, `0.5`.
    case seconds
    /// An age: a whole number and a unit, `90s`, `15m`, `12h` or `30d`.
    case age

    /// Why `value` does not fit, or `nil` when it does.
    func problem(with value: String) -> String? {
        switch self {
        case .text:
            return nil
        case .nonEmptyText:
            return value.isEmpty ? "expected a value that is not empty" : nil
        case .choice(let choices):
            return choices.contains(value) ? nil : "expected one of \(choices.joined(separator: ", "))"
        case .integer(let minimum):
            guard let number = Int(value), number >= minimum else {
                return minimum == 0
                    ? "expected a whole number, 0 or more" : "expected a whole number of at least \(minimum)"
            }
            return nil
        case .seconds:
            return Self.seconds(value) == nil ? "expected a number of seconds, such as 2 or 0.5" : nil
        case .age:
            return Self.age(value) == nil ? "expected a whole number and a unit: 90s, 15m, 12h or 30d" : nil
        }
    }

    /// The duration of a ``seconds`` value.
    static func seconds(_ value: String) -> Duration? {
        let parts = value.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !value.isEmpty, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }), !(parts.first?.isEmpty ?? true),
            parts.count == 1 || !parts[1].isEmpty, let whole = Int64(parts[0]), whole <= 315_360_000
        else { return nil }
        let fraction = parts.count == 2 ? String(parts[1].prefix(9)) : ""
        let nanoseconds = Int64(fraction.padding(toLength: 9, withPad: "0")) ?? 0
        return .seconds(whole) + .nanoseconds(nanoseconds)
    }

    /// The duration of an ``age`` value.
    static func age(_ value: String) -> Duration? {
        guard let unit = value.last, let count = Int64(value.dropLast()), count >= 0, value.first?.isASCIIDigit == true
        else { return nil }
        let seconds: Int64
        switch unit {
        case "s": seconds = 1
        case "m": seconds = 60
        case "h": seconds = 3600
        case "d": seconds = 86_400
        default: return nil
        }
        let (total, overflow) = count.multipliedReportingOverflow(by: seconds)
        return overflow ? nil : .seconds(total)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    /// Pads with `pad` on the right to `length` characters (never shortens).
    fileprivate func padding(toLength length: Int, withPad pad: Character) -> String {
        count >= length ? self : self + String(repeating: pad, count: length - count)
    }
}
