import StateStore

extension Command {
    static let delete = Command(
        name: "delete",
        abstract: "Delete a window, or a session with all its windows.",
        discussion: """
            Prints each deleted window (with --json: {"session": ..., "windows": [...]}). A \
            missing database, session or window exits 66.
            """,
        arguments: [Argument.session.positional, Argument.optionalWindow.positional],
        options: [.json],
        run: DeleteCommand.run)
}

enum DeleteCommand {
    static func run(_ invocation: Invocation, _ context: Context) throws {
        let session = invocation.required(.session)
        let window = invocation.argument(.optionalWindow)
        try WindowState.validate(session: session, window: window)
        let store = try invocation.openExistingStore(context)
        let deleted: [String]
        if let window {
            guard try store.deleteWindow(session: session, window: window) else {
                throw StateStoreError.notFound(.window(session: session, window: window))
            }
            deleted = [window]
        } else {
            deleted = try store.deleteSession(session)
            guard !deleted.isEmpty else { throw StateStoreError.notFound(.session(session)) }
        }
        context.hasWritten = true
        if invocation.flag(.json) {
            context.output.writeJSON { $0.deleted(session: session, windows: deleted) }
        } else {
            for window in deleted {
                context.output.write("Deleted window '\(session)' '\(window)'.".escapingControlCharacters + "\n")
            }
        }
    }
}
