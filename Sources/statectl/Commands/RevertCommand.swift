import StateStore

extension Command {
    static let revert = Command(
        name: "revert",
        abstract: "Write a kept revision back as a new revision.",
        discussion: "'history' lists the kept revisions. Prints the new state.",
        arguments: [.session, .window, RevertCommand.revision],
        options: [RevertCommand.expectRevision, .json],
        run: RevertCommand.run)
}

enum RevertCommand {
    static let revision = Positional(
        name: "revision", help: "The kept revision to write back.", kind: .integer(minimum: 1))
    static let expectRevision = Option.value(
        "--expect-revision", "n", .integer(minimum: 0),
        help: "Write only if the window is at revision n; otherwise exit 1.")

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let session = invocation.argument(.session)!
        let window = invocation.argument(.window)!
        try WindowState.validate(session: session, window: window)
        let store = try invocation.openExistingStore(context)
        let state = try store.revert(
            session: session, window: window, to: invocation.integer(revision)!,
            expectedRevision: invocation.integer(expectRevision))
        context.hasWritten = true
        if invocation.flag(.json) {
            context.output.writeJSON { state.write(to: &$0) }
        } else {
            context.output.write(state.record.text(style: context.style))
        }
    }
}
