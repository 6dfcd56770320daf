import StateStore

/// A type a value on the command line is read into, once, by the parser, as swift-argument-parser's
/// `ExpressibleByArgument` is: a value of the wrong shape is a usage error (exit 64) found before
/// anything is opened, and a command reads the value already in its type.
protocol ArgumentValue: Sendable {
    /// The value `text` spells; a ``ValueProblem`` says what was expected instead.
    init(argument text: String) throws(ValueProblem)
    /// What a shell completes a value of this type to, unless its declaration says otherwise.
    static var completion: ValueCompletion { get }
}

extension ArgumentValue {
    static var completion: ValueCompletion { .none }
}

/// What a value on the command line completes to in a shell (`statectl completion`): declared
/// with the value, so the scripts follow the table.
enum ValueCompletion: Sendable, Equatable {
    /// Free text (a route, a number, JSON): nothing is offered.
    case none
    /// One of these words.
    case choices([String])
    /// A file or folder name.
    case files
    /// One of statectl's commands (`help <subcommand>`).
    case commands
    /// A session id read from the database.
    case sessions
    /// A window id of the session given as the command's argument at this index.
    case windows(sessionArgument: Int)
}

/// Why a value on the command line does not fit: the end of `invalid value 'x' for '--opt': …`.
struct ValueProblem: Error, Sendable {
    let expected: String
}

extension String: ArgumentValue {
    /// Any text: ids and routes are checked as data later (bad data is exit 65, not 64).
    init(argument text: String) {
        self = text
    }
}

/// A path: any text but the empty string.
struct PathArgument: ArgumentValue {
    static let completion = ValueCompletion.files
    let path: String

    init(argument text: String) throws(ValueProblem) {
        guard !text.isEmpty else { throw ValueProblem(expected: "expected a value that is not empty") }
        path = text
    }
}

/// A whole number, at least 1: a count (`--pop`, `--limit`, `--count`) or a revision.
struct Count: ArgumentValue {
    let value: Int

    init(argument text: String) throws(ValueProblem) {
        value = try wholeNumber(text, atLeast: 1)
    }
}

/// A whole number, 0 or more (`--expect-revision`, `--busy-timeout`).
struct WholeNumber: ArgumentValue {
    let value: Int

    init(argument text: String) throws(ValueProblem) {
        value = try wholeNumber(text, atLeast: 0)
    }
}

/// The whole number `text` spells, if it is `minimum` or more.
private func wholeNumber(_ text: String, atLeast minimum: Int) throws(ValueProblem) -> Int {
    if Int(text) == nil, !text.isEmpty, text.allSatisfy(\.isASCIIDigit) {
        throw ValueProblem(expected: "out of range: at most \(Int.max)")
    }
    guard let number = Int(text), number >= minimum else {
        throw ValueProblem(
            expected: minimum == 0
                ? "expected a whole number, 0 or more" : "expected a whole number of at least \(minimum)")
    }
    return number
}

/// A number of seconds, 0 or more, possibly with a fraction: `2`, `0.5`.
struct Seconds: ArgumentValue {
    let duration: Duration

    init(argument text: String) throws(ValueProblem) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !text.isEmpty, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }), !(parts.first?.isEmpty ?? true),
            parts.count == 1 || !parts[1].isEmpty, let whole = Int64(parts[0]), whole <= 315_360_000
        else { throw ValueProblem(expected: "expected a number of seconds, such as 2 or 0.5") }
        let fraction = parts.count == 2 ? String(parts[1].prefix(9)) : ""
        let nanoseconds = Int64(fraction.padding(toLength: 9, withPad: "0")) ?? 0
        duration = .seconds(whole) + .nanoseconds(nanoseconds)
    }
}

/// An age: a whole number and a unit, `90s`, `15m`, `12h` or `30d`.
struct Age: ArgumentValue {
    let duration: Duration

    init(argument text: String) throws(ValueProblem) {
        let problem = ValueProblem(expected: "expected a whole number and a unit: 90s, 15m, 12h or 30d")
        let digits = text.dropLast()
        guard let unit = text.last, !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { throw problem }
        let seconds: Int64
        switch unit {
        case "s": seconds = 1
        case "m": seconds = 60
        case "h": seconds = 3600
        case "d": seconds = 86_400
        default: throw problem
        }
        // A whole number, but more seconds than a duration holds: said as that.
        guard let count = Int64(digits), case (let total, false) = count.multipliedReportingOverflow(by: seconds)
        else { throw ValueProblem(expected: "out of range: at most \(Int64.max / seconds)\(unit)") }
        duration = .seconds(total)
    }
}

/// A value that is one of a fixed set of words: the type's raw values.
protocol ChoiceArgument: ArgumentValue, CaseIterable, RawRepresentable<String> {}

extension ChoiceArgument {
    init(argument text: String) throws(ValueProblem) {
        guard let value = Self(rawValue: text) else { throw .choice(text, among: Self.allCases.map(\.rawValue)) }
        self = value
    }

    /// The words, for help and messages: `compact, regular, unspecified`.
    static var choices: String { allCases.map(\.rawValue).joined(separator: ", ") }

    static var completion: ValueCompletion { .choices(allCases.map(\.rawValue)) }
}

extension SizeClass: ChoiceArgument {}
extension SizeChangePolicy: ChoiceArgument {}
extension ColumnVisibility: ChoiceArgument {}
extension WindowStore.Durability: ChoiceArgument {}

/// `--compact-column`'s value: a split view column, or `none`, no preference (the view chooses).
struct CompactColumnChoice: ArgumentValue {
    static let words = SplitViewColumn.allCases.map(\.rawValue) + ["none"]
    static let completion = ValueCompletion.choices(words)
    /// The column; `nil` for `none`.
    let column: SplitViewColumn?

    init(argument text: String) throws(ValueProblem) {
        if text == "none" {
            column = nil
        } else if let column = SplitViewColumn(rawValue: text) {
            self.column = column
        } else {
            throw .choice(text, among: Self.words)
        }
    }
}

extension ValueProblem {
    /// `text` is none of `words`: they are listed, and the nearest suggested
    /// (`expected one of a, b. Did you mean 'b'?`).
    static func choice(_ text: String, among words: [String]) -> ValueProblem {
        let suggestion = Suggestion.sentence(for: text, among: words)
        return ValueProblem(
            expected: "expected one of \(words.joined(separator: ", "))" + (suggestion.isEmpty ? "" : "." + suggestion))
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
