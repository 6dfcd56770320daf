import StateStore

extension Command {
    static let revert = Command(
        name: "revert",
        abstract: "Write a kept revision back as a new revision.",
        discussion: "'history' lists the kept revisions. Prints the new state.",
        arguments: [Argument.session.positional, Argument.window.positional, RevertCommand.revision.positional],
        options: [Option.expectRevision.option, .json],
        run: RevertCommand.run)
}

enum RevertCommand {
    static let revision = Argument("revision", as: Count.self, help: "The kept revision to write back.")

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let session = invocation.required(.session)
        let window = invocation.required(.window)
        try WindowState.validate(session: session, window: window)
        let store = try invocation.openExistingStore(context)
        let state = try store.revert(
            session: session, window: window, to: invocation.required(revision).value,
            expectedRevision: invocation.value(Option.expectRevision)?.value)
        context.hasWritten = true
        if invocation.flag(.json) {
            context.output.writeJSON { state.write(to: &$0) }
        } else {
            context.output.write(state.record.text(style: context.style))
        }
    }
}
