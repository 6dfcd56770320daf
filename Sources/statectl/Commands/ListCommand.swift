import StateStore

extension Command {
    static let list = Command(
        name: "list",
        abstract: "List windows, one row each.",
        discussion: """
            DEPTH is the number of routes in the window's own path; ITEM is the presented item. \
            An unknown session lists nothing; a missing database is exit 66.
            """,
        arguments: [ListCommand.session.positional],
        options: [ListCommand.sizeClass.option, .json],
        run: ListCommand.run)
}

enum ListCommand {
    static let session = Argument(
        "session", as: String.self, help: "Only this session's windows.", arity: .optional, completion: .sessions)
    static let sizeClass = ValueOption.sizeClass(
        help: "Only windows saved in this size class: compact, regular, unspecified.")

    static func run(_ invocation: Invocation, _ context: Context) throws {
        do {
            try list(invocation, context)
        } catch {
            // A row that cannot be read stops the listing (exit 74): what is not yet written goes,
            // so a listing of up to 64 KiB leaves nothing on standard output but a larger one
            // keeps what it already wrote (its memory stays flat).
            context.output.discard()
            throw error
        }
    }

    private static func list(_ invocation: Invocation, _ context: Context) throws {
        let session = invocation.argument(session)
        if let session { try WindowState.validate(session: session) }
        let sizeClass = invocation.value(sizeClass)
        let store = try invocation.openStoreForReading(context)
        if invocation.flag(.json) {
            try streamJSON(store, session, sizeClass, context.output)
            return
        }
        let table = Table(
            [
                .init(title: "SESSION"), .init(title: "WINDOW"), .init(title: "SIZE CLASS"),
                .init(title: "DEPTH", alignment: .right), .init(title: "ITEM", maximumWidth: 48),
                .init(title: "REVISION", alignment: .right), .init(title: "UPDATED"),
            ], output: context.output, style: context.style)
        try store.forEachWindow(session: session, sizeClass: sizeClass) { window in
            table.add([
                window.session, window.window, window.sizeClass.rawValue, String(window.depth),
                window.item?.description ?? "-", String(window.revision), window.updatedAt.description,
            ])
        }
        table.finish()
        if table.rowCount == 0 { context.message("No windows.") }
    }

    /// One array, written row by row as the store reads them: memory stays flat for any count.
    private static func streamJSON(
        _ store: WindowStore, _ session: String?, _ sizeClass: SizeClass?, _ output: OutputBuffer
    ) throws {
        output.write(byte: UInt8(ascii: "["))
        var writer = JSONWriter()
        var first = true
        try store.forEachListedWindow(session: session, sizeClass: sizeClass) { window in
            writer.removeAll()
            window.write(to: &writer)
            if !first { output.write(byte: UInt8(ascii: ",")) }
            first = false
            output.write(writer.bytes)
        }
        output.write("]\n")
    }
}
