extension Command {
    /// Every command, in the order `help` lists them. A new command is a file declaring it and
    /// one entry here.
    static let all: [Command] = [
        .list, .show, .restore, .set, .delete, .history, .revert, .export, .import, .watch, .backup, .prune, .migrate,
        .check, .demo, .completion, .help, .complete,
    ]
}
