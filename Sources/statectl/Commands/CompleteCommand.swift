import StateStore

extension Command {
    /// What the completion scripts run to read ids; hidden from help, suggestions and completions.
    static let complete = Command(
        name: "__complete",
        abstract: "Print session or window ids for the shell completion scripts.",
        discussion: """
            For the scripts 'statectl completion' prints: the session ids in the database \
            (sessions), or the window ids of one session (windows SESSION), one a line. Reads the \
            database only if it exists, without migrating or writing it, waiting at most \
            \(CompleteCommand.busyTimeoutMilliseconds) ms for a lock; ids holding control \
            characters are left out. Whatever goes wrong with the database, prints nothing and \
            exits 0.
            """,
        arguments: [CompleteCommand.target.positional, CompleteCommand.session.positional],
        isHidden: true,
        validate: CompleteCommand.validate,
        run: CompleteCommand.run)
}

enum CompleteCommand {
    /// What the scripts ask for.
    enum Target: String, ChoiceArgument {
        case sessions, windows
    }

    static let target = Argument("what", as: Target.self, help: "sessions, or windows and a session.")
    static let session = Argument(
        "session", as: String.self, help: "The session whose windows to print.", arity: .optional)
    /// Long enough to read beside a writer (a WAL reader does not wait for one), short enough
    /// that a prompt never hangs on a process holding every lock.
    static let busyTimeoutMilliseconds = 100

    static func validate(_ invocation: Invocation) -> String? {
        switch (invocation.argument(target), invocation.argument(session)) {
        case (.windows, nil): "windows needs a session: statectl __complete windows <session>"
        case (.sessions, _?): "sessions takes no session"
        default: nil
        }
    }

    static func run(_ invocation: Invocation, _ context: Context) throws {
        guard let ids = try? ids(invocation, context) else { return }
        for id in ids where !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            context.output.write(id + "\n")
        }
    }

    /// The ids asked for, sorted, each once; a missing database has none.
    private static func ids(_ invocation: Invocation, _ context: Context) throws -> [String] {
        var options = WindowStore.Options()
        options.createIfMissing = false
        options.migrate = false
        options.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        options.descriptorReserve = 0
        let store: WindowStore
        do {
            store = try WindowStore(path: try invocation.databasePath(context), options: options)
        } catch StateStoreError.notFound(.file) {
            return []
        }
        if let session = invocation.argument(session) {
            return try store.windowSummaries(session: session).map(\.window)
        }
        var sessions: [String] = []
        for summary in try store.windowSummaries() where sessions.last != summary.session {
            sessions.append(summary.session)
        }
        return sessions
    }
}
