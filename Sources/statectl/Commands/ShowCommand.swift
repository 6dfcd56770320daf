import StateStore

extension Command {
    static let show = Command(
        name: "show",
        abstract: "Show the stored state of a window or of a session.",
        discussion: """
            Routes are shown as 'set' takes them: TYPE or TYPE:JSON, or {"type":...,"value":...} \
            for a type holding ':' or starting with '{'. Nothing is written; a missing database, \
            session or window exits 66.

            With --navigation-path (and a WINDOW), prints the window's path as SwiftUI's \
            NavigationPath.CodableRepresentation: a JSON array of strings, the type name then \
            the element's JSON for each element, last element first, ready for \
            NavigationPath(codable). 'set --navigation-path' takes the same form.

              statectl show mail main --navigation-path

            With --focused in place of WINDOW, shows the session's most recently focused window, \
            as its app recorded it (with --kind, the latest of that kind); the output names it. \
            A session with none, or a focused window with no stored state yet, exits 66.

              statectl show mail --focused --kind settings --json
            """,
        arguments: [Argument.session.positional, Argument.optionalAddressedWindow.positional],
        options: [Option.focused, Option.kind.option, ShowCommand.navigationPath, .json],
        validate: { invocation in
            invocation.flag(ShowCommand.navigationPath) && invocation.argument(.optionalAddressedWindow) == nil
                && !invocation.flag(.focused)
                ? "--navigation-path needs a window: statectl show <session> <window> --navigation-path" : nil
        },
        run: ShowCommand.run)
}

enum ShowCommand {
    static let navigationPath = Option.flag(
        "--navigation-path", help: "Print the window's path as a NavigationPath.CodableRepresentation JSON array.")

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let session = invocation.required(.session)
        let address = try WindowAddress(invocation, session: session)
        let store = try invocation.openStoreForReading(context)
        let json = invocation.flag(.json)
        if let window = try address.window(in: store, session: session) {
            guard let state = try store.window(session: session, window: window) else {
                throw address.missing(session: session, window: window)
            }
            if invocation.flag(navigationPath) {
                context.output.write(NavigationPathCoding.json(for: state.path) + "\n")
            } else if json {
                context.output.writeJSON { state.write(to: &$0) }
            } else {
                context.output.write(state.record.text(style: context.style))
            }
            return
        }
        let states = try store.windows(session: session)
        guard !states.isEmpty else { throw StateStoreError.notFound(.session(session)) }
        if json {
            context.output.writeJSON { $0.states(states) }
        } else {
            context.output.write(states.map { $0.record.text(style: context.style) }.joined(separator: "\n"))
        }
    }
}
