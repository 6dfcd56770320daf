extension Command {
    static let help = Command(
        name: "help",
        abstract: "Show help for statectl or one of its commands.",
        discussion: """
            With --man, prints the manual page statectl(1) in roff, made from the same table as \
            this help: every command and option, where the database is, the environment and the \
            exit statuses.

              statectl help --man | man -l -
            """,
        arguments: [HelpCommand.command.positional],
        options: [HelpCommand.manualPage],
        usesDatabase: false,
        validate: HelpCommand.validate,
        run: HelpCommand.run)
}

enum HelpCommand {
    static let command = Argument(
        "subcommand", as: String.self, help: "The command to describe.", arity: .optional, completion: .commands)
    static let manualPage = Option.flag("--man", help: "Print the manual page statectl(1), in roff, for man -l.")

    /// An unknown command name is a usage error, with the nearest one suggested; the manual page
    /// is the whole of statectl, not one command.
    static func validate(_ invocation: Invocation) -> String? {
        let name = invocation.argument(command)
        if invocation.flag(manualPage), let name {
            return "--man prints the whole manual page; leave out '\(name)'"
        }
        guard let name, !Command.all.contains(where: { $0.name == name }) else {
            return nil
        }
        return "unknown command '\(name)'.\(Suggestion.sentence(for: name, among: Command.listed.map(\.name)))"
    }

    static func run(_ invocation: Invocation, _ context: Context) throws {
        if invocation.flag(manualPage) {
            context.output.write(ManualPage.text())
            return
        }
        let name = invocation.argument(command)
        context.output.write(Help.text(for: Command.all.first { $0.name == name }))
    }
}
