#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Terminal styling: on only when the output is a terminal, `NO_COLOR` is not set (to anything,
/// even empty) and `TERM` is not `dumb`; otherwise every method returns its text unchanged.
struct Style: Sendable {
    let usesColour: Bool

    /// The style for what goes to `descriptor`.
    static func forDescriptor(_ descriptor: Int32) -> Style {
        guard isatty(descriptor) == 1, EnvironmentVariable.noColor.value == nil else { return Style(usesColour: false) }
        if EnvironmentVariable.terminal.value == "dumb" { return Style(usesColour: false) }
        return Style(usesColour: true)
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String {
        usesColour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
