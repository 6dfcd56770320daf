extension Command {
    static let completion = Command(
        name: "completion",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            The script completes commands, options (statectl's own too), the values of options \
            with choices, files for --db, import and backup, and the session and window ids in \
            the database that --db or the environment names. To read the ids it runs statectl, \
            which opens the database only if it exists, never migrates or writes it, waits at most \
            \(CompleteCommand.busyTimeoutMilliseconds) ms for a lock, and prints nothing at all when \
            anything goes wrong.

            Load it for the running shell, or save it where the shell looks:

              source <(statectl completion bash)                        # bash, in ~/.bashrc
              statectl completion bash > ~/.local/share/bash-completion/completions/statectl
              statectl completion zsh > "${fpath[1]}/_statectl"         # zsh, then compinit
              statectl completion fish > ~/.config/fish/completions/statectl.fish

            An install from source (Scripts/install.sh) puts all three in place, with the binary \
            and the manual page.
            """,
        arguments: [CompletionCommand.shell.positional],
        usesDatabase: false,
        run: CompletionCommand.run)
}

enum CompletionCommand {
    static let shell = Argument("shell", as: Shell.self, help: "The shell: bash, zsh or fish.")

    static func run(_ invocation: Invocation, _ context: Context) throws {
        context.output.write(CompletionTable().script(for: invocation.required(shell)))
    }
}
