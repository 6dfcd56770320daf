/// A shell `statectl completion` writes a script for.
enum Shell: String, ChoiceArgument {
    case bash, zsh, fish
}

/// The command table as the completion scripts read it: what statectl accepts before a command,
/// and for each command a user sees, its options and what each value and argument completes to.
/// Every script is made from this, so a new command or option completes without a word here.
struct CompletionTable {
    /// The listed commands, in help order.
    let commands: [Command]

    init(commands: [Command] = Command.listed) {
        self.commands = commands
    }

    /// The options accepted before a command.
    var topLevelOptions: [Option] { Option.globals + [.version, .help] }

    /// The options accepted by `command`, or before a command when `nil`.
    func options(of command: Command?) -> [Option] {
        command?.offeredOptions ?? topLevelOptions
    }

    /// What a completion resolves to once the table is known: `.commands` becomes the choice of
    /// the listed command names.
    func resolved(_ completion: ValueCompletion) -> ValueCompletion {
        completion == .commands ? .choices(commands.map(\.name)) : completion
    }

    /// The script for `shell`.
    func script(for shell: Shell) -> String {
        switch shell {
        case .bash: BashScript(table: self).text
        case .zsh: ZshScript(table: self).text
        case .fish: FishScript(table: self).text
        }
    }

    /// The first lines of every script (all three shells comment with `#`): what it is, where it
    /// came from, and how to load it.
    func header(_ shell: Shell, loading: String) -> String {
        """
        # \(shell.rawValue) completion for statectl: commands, options, option values, files, and the session
        # and window ids in the database (read without creating anything or waiting for a lock).
        # Made by 'statectl completion \(shell.rawValue)' (statectl \(Statectl.version)) from its command table.
        # \(loading)


        """
    }
}
