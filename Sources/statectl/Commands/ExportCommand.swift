import StateStore

extension Command {
    static let export = Command(
        name: "export",
        abstract: "Write whole window states as one JSON document.",
        discussion: """
            Prints {"format": "statectl/1", "windows": [...]} of the named sessions, or of every \
            session, sorted by session then window, read from one snapshot. Always JSON (--json \
            is accepted and changes nothing). 'statectl import' reads it back. A named session \
            with no windows exits 66, and so does a missing database.

              statectl export mail > mail.json
            """,
        arguments: [ExportCommand.sessions.positional],
        options: [.json],
        run: ExportCommand.run)
}

enum ExportCommand {
    static let sessions = Argument(
        "session", as: String.self, help: "Sessions to export; without any, every session.", arity: .variadic,
        completion: .sessions)

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let sessions = invocation.arguments(sessions)
        for session in sessions { try WindowState.validate(session: session) }
        let store = try invocation.openStoreForReading(context)
        try store.export(sessions: sessions) { context.output.write($0) }
        context.output.write(byte: UInt8(ascii: "\n"))
    }
}
