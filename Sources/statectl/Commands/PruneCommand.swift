import StateStore

extension Command {
    static let prune = Command(
        name: "prune",
        abstract: "Delete sessions that have not been written for a while.",
        discussion: """
            Deletes every session none of whose windows was written within DURATION (90s, 15m, \
            12h, 30d), with the windows' history, in one write, and prints what it removed. With \
            --dry-run, prints what it would remove and removes nothing. A missing database \
            removes nothing.

              statectl prune --older-than 30d --dry-run
            """,
        options: [PruneCommand.olderThan, PruneCommand.dryRun, .json],
        run: PruneCommand.run)
}

enum PruneCommand {
    static let olderThan = Option.value(
        "--older-than", "duration", .age,
        help: "How long without a write makes a session old: a number and s, m, h or d (90s, 15m, 12h, 30d).",
        required: true)
    static let dryRun = Option.flag("--dry-run", help: "Show what would be removed; remove nothing.")

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let age = ValueKind.age(invocation.value(olderThan)!)!
        let dry = invocation.flag(dryRun)
        let pruned = try invocation.openStoreIfPresent(context)?.prune(olderThan: age, dryRun: dry) ?? []
        context.hasWritten = !dry && !pruned.isEmpty
        if invocation.flag(.json) {
            context.output.writeJSON { writer in
                writer.beginObject()
                writer.key("dryRun")
                writer.bool(dry)
                writer.key("sessions")
                writer.beginArray()
                for session in pruned {
                    writer.beginObject()
                    writer.key("session")
                    writer.string(session.session)
                    writer.key("windows")
                    writer.strings(session.windows)
                    writer.key("lastWrite")
                    writer.timestamp(session.lastWrite)
                    writer.endObject()
                }
                writer.endArray()
                writer.endObject()
            }
            return
        }
        let table = Table(
            [.init(title: "SESSION"), .init(title: "WINDOWS", alignment: .right), .init(title: "LAST WRITE")],
            output: context.output, style: context.style)
        for session in pruned {
            table.add([session.session, String(session.windows.count), session.lastWrite.description])
        }
        table.finish()
        let count = pruned.count
        let sessions = "\(count) session\(count == 1 ? "" : "s")"
        context.message(dry ? "Would remove \(sessions); removed nothing (--dry-run)." : "Removed \(sessions).")
    }
}
