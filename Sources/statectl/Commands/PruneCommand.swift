import StateStore

extension Command {
    static let prune = Command(
        name: "prune",
        abstract: "Delete sessions that have not been written for a while.",
        discussion: """
            Deletes every session none of whose windows was written within DURATION (90s, 15m, \
            12h, 30d), with the windows' history and scene facts (kind, focus), in one write, and \
            prints what it removed. Scene facts of a session with no stored window go too when \
            none was focused within DURATION; they are not printed. With --dry-run, prints what \
            it would remove and removes nothing. A missing database is exit 66.

              statectl prune --older-than 30d --dry-run
            """,
        options: [PruneCommand.olderThan.option, PruneCommand.dryRun, .json],
        run: PruneCommand.run)
}

enum PruneCommand {
    static let olderThan = Option.value(
        "--older-than", "duration", as: Age.self,
        help: "How long without a write makes a session old: a number and s, m, h or d (90s, 15m, 12h, 30d).",
        required: true)
    static let dryRun = Option.flag("--dry-run", help: "Show what would be removed; remove nothing.")

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let age = invocation.required(olderThan).duration
        let dry = invocation.flag(dryRun)
        let store = try dry ? invocation.openStoreForReading(context) : invocation.openExistingStore(context)
        let pruned = try store.prune(olderThan: age, dryRun: dry)
        context.hasWritten = !dry && !pruned.isEmpty
        if invocation.flag(.json) {
            context.output.writeJSON { $0.pruned(pruned, dryRun: dry) }
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
