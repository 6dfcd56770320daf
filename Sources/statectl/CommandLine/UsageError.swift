/// A bad command line (exit 64): printed as `Error: …`, the usage line of the command (or of
/// `statectl` itself) and where to find its help.
struct UsageError: Error, Sendable {
    let message: String
    /// The command whose usage to show; `nil` for `statectl` itself.
    let command: Command?

    init(_ message: String, command: Command?) {
        self.message = message
        self.command = command
    }

    /// The three lines written to standard error.
    var report: String {
        let name = command.map { "statectl \($0.name)" } ?? "statectl"
        return """
            Error: \(message)
            Usage: \(Help.usage(of: command))
              See '\(name) --help' for more information.

            """
    }
}
