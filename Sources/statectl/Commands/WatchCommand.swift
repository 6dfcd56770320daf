import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Command {
    static let watch = Command(
        name: "watch",
        abstract: "Print each change as any process commits it.",
        discussion: """
            Follows the database from now on: every write and deletion by any process (a host, \
            another statectl) is printed within a fraction of a second, a line each. With --json, \
            one object a line: {"session", "window", "revision", "state"}, 'revision' and 'state' \
            null for a deletion (deleting a session gives a line for each of its windows). Runs \
            until interrupted, until --count changes were printed, or until --timeout seconds \
            passed (exit 0 for both). When the database does not exist yet, waits for it to be \
            created and prints its changes from the start. Changes the log no longer holds (a \
            watcher more than 1,000 behind) are reported on standard error, and with --json as a \
            line {"gap": {"first", "last", "count"}}; a change whose row cannot be read is \
            reported on standard error and skipped. Neither counts towards --count.

              statectl watch mail --json
            """,
        arguments: [WatchCommand.session.positional],
        options: [WatchCommand.count.option, WatchCommand.timeout.option, .json],
        run: WatchCommand.run)
}

enum WatchCommand {
    static let session = Argument(
        "session", as: String.self, help: "Only this session's windows.", arity: .optional, completion: .sessions)
    static let count = Option.value("--count", "n", as: Count.self, help: "Exit after printing n changes.")
    static let timeout = Option.value(
        "--timeout", "seconds", as: Seconds.self, help: "Exit after this many seconds (a fraction is fine: 0.5).")
    /// How often the database is asked for changes: well inside the 250 ms a change may take.
    static let interval = Duration.milliseconds(50)

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let session = invocation.argument(session)
        if let session { try WindowState.validate(session: session) }
        let limit = invocation.value(count)?.value
        let clock = ContinuousClock()
        let deadline = invocation.value(timeout).map { clock.now + $0.duration }
        let json = invocation.flag(.json)

        var store = try invocation.openStoreIfPresent(context)
        // A database created while we wait is followed from its first change.
        let fromStart = store == nil
        if fromStart { context.message("Waiting for \(try invocation.databasePath(context)) to be created…") }
        while store == nil {
            if let deadline, clock.now >= deadline { return }
            pause(deadline.map { min(interval, $0 - clock.now) } ?? interval)
            store = try invocation.openStoreIfPresent(context)
        }
        let feed = try store!.changeFeed(session: session, after: fromStart ? 0 : nil)

        var printed = 0
        while true {
            let left = deadline.map { $0 - clock.now }
            if let left, left <= .zero { return }
            for event in try feed.wait(timeout: left, interval: interval) {
                switch event {
                case .change(let change):
                    write(change, json: json, context)
                    printed += 1
                    if printed == limit { return }
                case .gap(let gap):
                    report(gap, json: json, context)
                case .unreadable(let change):
                    // One row another program wrote must not stop the watch: say so and go on.
                    context.message(
                        "Warning: skipped change \(change.sequence) of window '\(change.session)' '\(change.window)', which cannot be read: \(change.reason)"
                    )
                }
            }
            context.output.flush()
            if context.output.failure != nil { return }  // reported on the way out
        }
    }

    /// A gap is news, not an error: the changes are gone from the log, not from the store.
    private static func report(_ gap: ChangeGap, json: Bool, _ context: Context) {
        let changes = gap.count == 1 ? "1 change" : "\(gap.count) changes"
        context.message(
            "Warning: missed \(changes) (\(gap.first)–\(gap.last)) that the change log no longer holds; "
                + "what they wrote is in the store ('statectl list' shows it)")
        guard json else { return }
        context.output.writeJSON { gap.write(to: &$0) }
    }

    private static func write(_ change: WindowChange, json: Bool, _ context: Context) {
        if json {
            context.output.writeJSON { change.write(to: &$0) }
            return
        }
        guard let state = change.state else {
            context.output.write("\(change.session) \(change.window): deleted".escapingControlCharacters + "\n")
            return
        }
        let line =
            "\(state.session) \(state.window): revision \(state.revision), \(state.sizeClass.rawValue), "
            + "path \(state.path.cell), item \(state.item?.description ?? "-"), item path \(state.itemPath.cell)"
            + " (\(state.updatedAt))"
        context.output.write(line.escapingControlCharacters + "\n")
    }

    private static func pause(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
