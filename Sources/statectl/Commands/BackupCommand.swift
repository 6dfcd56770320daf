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
        try StateStore.validateBackupTarget(target)
        let report = try invocation.openStoreForReading(context).backup(to: target)
        context.hasWritten = true  // the copy exists: a failed print must not invite a second one
        if invocation.flag(.json) {
            context.output.writeJSON { report.write(to: &$0) }
        } else {
            let windows = "\(report.windows) window\(report.windows == 1 ? "" : "s")"
            context.output.write("Backed up \(windows) to \(report.path) (\(report.bytes) bytes).\n")
        }
    }
}
