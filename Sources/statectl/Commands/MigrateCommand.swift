import StateStore

extension Command {
    static let migrate = Command(
        name: "migrate",
        abstract: "Apply pending schema migrations, or list them.",
        discussion: """
            Every other command that writes migrates on its own; this one does it on purpose, \
            and creates the database when missing. With --status nothing is changed or created: \
            a missing database is exit 66.
            """,
        options: [MigrateCommand.status, .json],
        run: MigrateCommand.run)
}

enum MigrateCommand {
    static let status = Option.flag("--status", help: "List applied and pending migrations; change nothing.")

    static func run(_ invocation: Invocation, _ context: Context) throws {
        if invocation.flag(status) {
            try report(invocation, context)
            return
        }
        let store = try invocation.openOrCreateStore(context, migrating: false)
        let applied = try store.migrate()
        context.hasWritten = !applied.isEmpty
        if invocation.flag(.json) {
            context.output.writeJSON { $0.migrated(schemaVersion: WindowStore.schemaVersion, applied: applied) }
        } else if applied.isEmpty {
            context.output.write("Up to date at schema version \(WindowStore.schemaVersion); nothing applied.\n")
        } else {
            for migration in applied { context.output.write("Applied \(migration).\n") }
            context.output.write("Now at schema version \(WindowStore.schemaVersion).\n")
        }
    }

    private static func report(_ invocation: Invocation, _ context: Context) throws {
        let status = try invocation.openStoreToInspect(context).migrationStatus()
        if invocation.flag(.json) {
            context.output.writeJSON { status.write(to: &$0) }
            return
        }
        let table = Table(
            [.init(title: "VERSION", alignment: .right), .init(title: "NAME"), .init(title: "STATUS")],
            output: context.output, style: context.style)
        for migration in status.applied { table.add([String(migration.version), migration.name, "applied"]) }
        for migration in status.pending { table.add([String(migration.version), migration.name, "pending"]) }
        table.finish()
        let summary =
            status.pending.isEmpty
            ? "up to date" : "\(status.pending.count) pending: run 'statectl migrate' (or any command that writes)"
        context.output.write("\nSchema version \(status.schemaVersion) of \(status.latestVersion): \(summary).\n")
    }
}
