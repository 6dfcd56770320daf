import StateStore

extension Command {
    static let restore = Command(
        name: "restore",
        abstract: "Show what a host restoring a window would present.",
        discussion: """
            The adaptive rule is applied for the size class the window comes back in: a \
            presented item is pushed onto the window's stack when regular, and shown as a sheet \
            with its own stack when compact or unspecified. Under the dismiss policy, a change \
            between regular and the others clears the item.

            With --focused in place of WINDOW, restores the session's most recently focused \
            window, as its app recorded it (with --kind, the latest of that kind); the output \
            names it. A session with none, or a focused window with no stored state yet, exits 66.
            """,
        arguments: [Argument.session.positional, Argument.optionalAddressedWindow.positional],
        options: [Option.focused, Option.kind.option, RestoreCommand.sizeClass.option, .json],
        run: RestoreCommand.run)
}

enum RestoreCommand {
    static let sizeClass = ValueOption.sizeClass(
        help: "The size class to restore into: compact, regular, unspecified (default: the saved one).")

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let session = invocation.required(.session)
        let address = try WindowAddress(invocation, session: session)
        let sizeClass = invocation.value(sizeClass)
        let store = try invocation.openStoreForReading(context)
        let window = try address.window(in: store, session: session)
        let restorations: [Restoration]
        if let window {
            guard let restoration = try store.restore(session: session, window: window, into: sizeClass) else {
                throw address.missing(session: session, window: window)
            }
            restorations = [restoration]
        } else {
            restorations = try store.restore(session: session, into: sizeClass)
            guard !restorations.isEmpty else { throw StateStoreError.notFound(.session(session)) }
        }
        if invocation.flag(.json) {
            context.output.writeJSON { writer in
                if window != nil { restorations[0].write(to: &writer) } else { writer.restorations(restorations) }
            }
        } else {
            context.output.write(restorations.map { $0.record.text(style: context.style) }.joined(separator: "\n"))
        }
    }
}
