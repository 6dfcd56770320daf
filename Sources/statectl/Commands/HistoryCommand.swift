import StateStore

extension Command {
    static let history = Command(
        name: "history",
        abstract: "List a window's kept revisions, newest first.",
        discussion: """
            The store keeps the last 100 revisions of each window. Any of them can be written \
            back with 'revert'.
            """,
        arguments: [Argument.session.positional, Argument.window.positional],
        options: [HistoryCommand.limit.option, .json],
        run: HistoryCommand.run)
}

enum HistoryCommand {
    static let limit = Option.value("--limit", "n", as: Count.self, help: "Show at most the n newest revisions.")

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let session = invocation.required(.session)
        let window = invocation.required(.window)
        try WindowState.validate(session: session, window: window)
        let store = try invocation.openStoreForReading(context)
        let states = try store.history(session: session, window: window, limit: invocation.value(limit)?.value)
        guard !states.isEmpty else { throw StateStoreError.notFound(.window(session: session, window: window)) }
        if invocation.flag(.json) {
            context.output.writeJSON { $0.history(states) }
            return
        }
        let table = Table(
            [
                .init(title: "REVISION", alignment: .right), .init(title: "UPDATED"), .init(title: "SIZE CLASS"),
                .init(title: "PATH", maximumWidth: 40), .init(title: "ITEM", maximumWidth: 40),
                .init(title: "ITEM PATH", maximumWidth: 40), .init(title: "POLICY"), .init(title: "COLUMNS"),
                .init(title: "COMPACT"), .init(title: "TAB", maximumWidth: 40),
            ], output: context.output, style: context.style)
        for state in states {
            table.add([
                String(state.revision), state.updatedAt.description, state.sizeClass.rawValue, state.path.cell,
                state.item?.description ?? "-", state.itemPath.cell, state.policy.rawValue,
                state.columnVisibility.rawValue, state.preferredCompactColumn?.rawValue ?? "-",
                state.selectedTab ?? "-",
            ])
        }
        table.finish()
    }
}
