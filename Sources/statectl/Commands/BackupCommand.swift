import StateStore

extension Command {
    static let backup = Command(
        name: "backup",
        abstract: "Write a consistent copy of the whole store to a new file.",
        discussion: """
            Copies every window, its history and the change log from one snapshot, while hosts \
            and other statectl commands go on writing. Never overwrites: an existing file (or a \
            -wal or -journal beside it) exits 73 untouched; a failed copy leaves nothing behind. \
            A name SQLite would take for a file it keeps beside some database (ending in \
            -journal, -wal or -shm) exits 65: the next connection to that database would delete \
            the copy. A missing database exits 66. With --json: {"path", "windows", "bytes"}.

            The copy is written as FILE.partial-HEX, then linked to FILE. Interrupted (^C, \
            SIGTERM, SIGHUP), statectl removes the partial copy and ends by that signal; one a \
            killed backup left is removed by the next backup to FILE once it has not changed for \
            a minute and no process holds it.

            This is the safe way to copy a live store. Do not copy its file with cp, nor put a \
            copy in its place with mv while anything has it open: SQLite keeps recent commits in \
            a -wal file found by name, which would be lost, or replayed onto the other file. To \
            bring a copy's windows back into a live store, import its export:

              statectl backup state-2026-11-30.db
              statectl --db state-2026-11-30.db export | statectl import
            """,
        arguments: [BackupCommand.file.positional],
        options: [.json],
        run: BackupCommand.run)
}

enum BackupCommand {
    static let file = Argument("file", as: PathArgument.self, help: "The copy to create; must not exist.")

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let target = invocation.required(file).path
        // A name SQLite would take for some database's journal or WAL is bad data, whatever the store.
        try WindowStore.validateBackupTarget(target)
        let store = try invocation.openStoreForReading(context)
        // ^C, or a SIGTERM, midway: the partial copy is removed, then statectl ends by the signal.
        let report = try Interruption.run(interrupting: store, context) { try store.backup(to: target) }
        context.hasWritten = true  // the copy exists: a failed print must not invite a second one
        if invocation.flag(.json) {
            context.output.writeJSON { report.write(to: &$0) }
        } else {
            let windows = "\(report.windows) window\(report.windows == 1 ? "" : "s")"
            context.output.write("Backed up \(windows) to \(report.path) (\(report.bytes) bytes).\n")
        }
    }
}
