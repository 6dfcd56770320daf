import StateStore

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

            Between changes it sleeps: file notifications (inotify) on the database's folder wake \
            it within milliseconds of a commit, and it polls every 2 seconds as a safety net. \
            Where there are none (another platform, a network or FUSE file system, a limit of \
            inotify reached) or with --poll, it polls every 50 ms. --verbose says which on \
            standard error, with the folder watched or the reason for polling.

              statectl watch mail --json
              statectl watch --verbose --poll
            """,
        arguments: [WatchCommand.session.positional],
        options: [
            WatchCommand.count.option, WatchCommand.timeout.option, WatchCommand.poll, WatchCommand.verbose, .json,
        ],
        run: WatchCommand.run)
}

enum WatchCommand {
    static let session = Argument(
        "session", as: String.self, help: "Only this session's windows.", arity: .optional, completion: .sessions)
    static let count = Option.value("--count", "n", as: Count.self, help: "Exit after printing n changes.")
    static let timeout = Option.value(
        "--timeout", "seconds", as: Seconds.self, help: "Exit after this many seconds (a fraction is fine: 0.5).")
    static let poll = Option.flag(
        "--poll", help: "Poll the database every 50 ms instead of waiting for file notifications.")
    static let verbose = Option.flag(
        "--verbose", help: "Say on standard error how changes are learnt of: the folder watched, or why it polls.")

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let session = invocation.argument(session)
        if let session { try WindowState.validate(session: session) }
        let limit = invocation.value(count)?.value
        let clock = ContinuousClock()
        let deadline = invocation.value(timeout).map { clock.now + $0.duration }
        let json = invocation.flag(.json)
        let verbose = invocation.flag(verbose)

        // A database created while we wait is followed from its first change.
        let feed = try invocation.openChangeFeed(context, session: session, polling: invocation.flag(poll))
        if feed.awaitsDatabase {
            context.message("Waiting for \(try invocation.databasePath(context)) to be created…")
        }
        var shown = feed.notification
        if verbose { context.message(describe(shown)) }

        var printed = 0
        while true {
            let left = deadline.map { $0 - clock.now }
            if let left, left <= .zero { return }
            let events = try feed.wait(timeout: left)
            // A folder that appeared, or notifications that failed: --verbose says what is used now.
            if verbose, feed.notification != shown {
                shown = feed.notification
                context.message(describe(shown))
            }
            for event in events {
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

    /// The line `--verbose` prints for a mechanism.
    private static func describe(_ notification: ChangeNotification) -> String {
        switch notification {
        case .notifications(let folder):
            "Watching for changes: file notifications on \(folder), and a poll every 2 s as a safety net"
        case .polling(let reason):
            "Watching for changes: polling every 50 ms, because \(reason)"
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
        // What a split view and a tab view bind, only where the window has it: most windows have
        // neither, and their lines stay short.
        var extras = ""
        if state.columnVisibility != .automatic { extras += ", columns \(state.columnVisibility.rawValue)" }
        if let column = state.preferredCompactColumn { extras += ", compact column \(column.rawValue)" }
        if let tab = state.selectedTab { extras += ", tab \(tab)" }
        let line =
            "\(state.session) \(state.window): revision \(state.revision), \(state.sizeClass.rawValue), "
            + "path \(state.path.cell), item \(state.item?.description ?? "-"), item path \(state.itemPath.cell)"
            + extras + " (\(state.updatedAt))"
        context.output.write(line.escapingControlCharacters + "\n")
    }
}
