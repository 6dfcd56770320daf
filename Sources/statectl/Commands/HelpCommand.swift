extension Command {
    static let help = Command(
        name: "help",
        abstract: "Show help for statectl or one of its commands.",
        arguments: [HelpCommand.command.positional],
        usesDatabase: false,
        validate: HelpCommand.validate,
        run: HelpCommand.run)
}

enum HelpCommand {
    static let command = Argument("subcommand", as: String.self, help: "The command to describe.", arity: .optional)

    /// An unknown command name is a usage error, with the nearest one suggested.
    static func validate(_ invocation: Invocation) -> String? {
        guard let name = invocation.argument(command), !Command.all.contains(where: { $0.name == name }) else {
            return nil
        }
        return "unknown command '\(name)'.\(Suggestion.sentence(for: name, among: Command.all.map(\.name)))"
    }

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let name = invocation.argument(command)
        context.output.write(Help.text(for: Command.all.first { $0.name == name }))
    }
}
