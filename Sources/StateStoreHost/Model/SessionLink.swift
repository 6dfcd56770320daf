import StateStore

/// What a model knows of its session: the session itself, weakly (the session owns its models),
/// and what a model needs when it has none — a preview, a model kept in memory for a mistake, a
/// discarded window: the session's id, its settings and its clock.
@MainActor
struct SessionLink {
    weak var session: WindowSession?
    let sessionID: String
    let options: WindowSession.Options
    let time: TimeSource

    init(session: WindowSession) {
        self.session = session
        sessionID = session.session
        options = session.options
        time = session.time
    }

    init(sessionID: String, options: WindowSession.Options) {
        self.sessionID = sessionID
        self.options = options
        time = TimeSource(options.clock)
    }
}
