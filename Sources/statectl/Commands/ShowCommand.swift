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
            """,
        arguments: [Argument.session.positional, Argument.optionalWindow.positional],
        options: [ShowCommand.navigationPath, .json],
        validate: { invocation in
            invocation.flag(ShowCommand.navigationPath) && invocation.argument(.optionalWindow) == nil
                ? "--navigation-path needs a window: statectl show <session> <window> --navigation-path" : nil
        },
        run: ShowCommand.run)
}

enum ShowCommand {
    static let navigationPath = Option.flag(
        "--navigation-path", help: "Print the window's path as a NavigationPath.CodableRepresentation JSON array.")

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let session = invocation.required(.session)
        let window = invocation.argument(.optionalWindow)
        try WindowState.validate(session: session, window: window)
        let store = try invocation.openExistingStore(context)
        let json = invocation.flag(.json)
        if let window {
            guard let state = try store.window(session: session, window: window) else {
                throw StateStoreError.notFound(.window(session: session, window: window))
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
