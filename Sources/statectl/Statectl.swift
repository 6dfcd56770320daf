import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The program: parse the command line, run the command, turn what went wrong into a message on
/// standard error and its exit status (``ExitStatus``).
enum Statectl {
    /// The version `statectl --version` prints.
    static let version = "0.3.0"

    static func main(_ arguments: [RawArgument]) -> Int32 {
        let context = Context()
        var status: Int32 = 0
        do {
            switch try Parser(commands: Command.all).parse(arguments) {
            case .version:
                context.output.write("statectl \(version) (schema \(WindowStore.schemaVersion))\n")
            case .help(let command):
                context.output.write(Help.text(for: command))
            case .run(let invocation):
                try invocation.checkDatabaseLocation(context)
                try invocation.rejectInvalidUTF8()
                try invocation.command.run(invocation, context)
                if context.hasWritten, let container = invocation.appContainer {
                    container.postIntoSimulator(databasePath: try invocation.databasePath(context), context)
                }
            }
        } catch let error as UsageError {
            context.output.flush()
            context.errors.write(error.report.escapingControlCharacters(keepingNewlines: true))
            status = ExitStatus.usage
        } catch let error as StateStoreError {
            context.message("Error: \(error.description)")
            status = error.exitCode
        } catch let error as CommandFailure {
            context.message("Error: \(error.message)")
            status = error.status
        } catch {
            context.message("Error: \(error)")
            status = ExitStatus.ioError
        }
        context.output.flush()
        if let failure = context.output.failure {
            let reason = "Error: cannot write to standard output: \(String(cString: strerror(failure)))"
            if status == 0 && context.hasWritten {
                // A script must not push the same change twice because its output pipe broke.
                context.message(reason + "; the change was committed: do not run the command again")
                status = ExitStatus.committedButNotPrinted
            } else {
                context.message(reason)
                if status == 0 { status = ExitStatus.ioError }
            }
        }
        context.errors.flush()
        return status
    }

    /// Makes the process safe to write from: a reader that has gone is `EPIPE` from `write(2)`,
    /// reported with the right exit status, not death by `SIGPIPE`; and descriptors 0–2, when
    /// the caller closed them, are held by `/dev/null` opened the wrong way round, so they stay
    /// "closed" (`EBADF`) while no file this process opens can take their place and receive
    /// the output meant for the terminal.
    static func prepareProcess() {
        signal(SIGPIPE, SIG_IGN)
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
            let placeholder = open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
            if placeholder >= 0 && placeholder != descriptor {
                dup2(placeholder, descriptor)
                close(placeholder)
            }
        }
    }
}

/// statectl's exit statuses, which scripts rely on (sysexits.h values where one fits); `statectl
/// help` lists them.
enum ExitStatus {
    /// Done.
    static let success: Int32 = 0
    /// `--expect-revision` did not match: nothing written.
    static let conflict: Int32 = 1
    /// The change was committed, but its result could not be written to standard output.
    static let committedButNotPrinted: Int32 = 3
    /// A bad command line (EX_USAGE).
    static let usage: Int32 = 64
    /// Bad data (EX_DATAERR).
    static let badData: Int32 = 65
    /// A session, window, revision or file that does not exist (EX_NOINPUT).
    static let notFound: Int32 = 66
    /// statectl used the library wrongly: a bug (EX_SOFTWARE).
    static let software: Int32 = 70
    /// A file to be created exists (EX_CANTCREAT).
    static let cannotCreate: Int32 = 73
    /// Not a database, damaged, or an I/O error (EX_IOERR).
    static let ioError: Int32 = 74
    /// The database stayed locked: retry (EX_TEMPFAIL).
    static let busy: Int32 = 75
    /// The database's schema is newer than this build (EX_CONFIG).
    static let newerSchema: Int32 = 78

    /// Every status statectl exits with, in order, and what it says: `summary` for the help's one
    /// sentence, `meaning` for the manual page. Help and the manual page are made from this table.
    static let table: [(status: Int32, summary: String, meaning: String)] = [
        (success, "done", "Done."),
        (
            conflict, "revision conflict",
            "--expect-revision did not match the window's revision: nothing was written."
        ),
        (
            committedButNotPrinted,
            "the change was committed but its result could not be written to standard output (do not retry)",
            "The change was committed, but its result could not be written to standard output (full, closed, "
                + "or a pipe whose reader has gone): do not run the command again."
        ),
        (
            usage, "usage error",
            "A bad command line: an unknown command or option (the nearest is suggested), a missing or extra "
                + "argument, a value not among an option's choices or not a number where one is needed; "
                + "--simulator without a UDID while several simulators are booted. Found before anything is opened; "
                + "nothing was written."
        ),
        (
            badData, "bad data",
            "Bad data: a route, JSON, an id, a limit exceeded, an over-pop, an import document, an argument or an "
                + "environment variable naming the database that is not UTF-8, a SQLite file that is not a store. "
                + "Nothing was written."
        ),
        (notFound, "not found", "No such session, window, revision, database file or input file. Nothing was written."),
        (software, "a bug in statectl", "A bug in statectl: it made a call the library refuses. Nothing was written."),
        (
            cannotCreate, "backup target exists",
            "backup: the target file, or a -wal or -journal beside it, exists. Nothing was written."
        ),
        (
            ioError, "damaged file or I/O error (nothing written)",
            "Not a database, damaged (check), or an I/O error, standard output included when nothing was "
                + "written; no xcrun, or one that did not finish in time or printed too much. Nothing was written."
        ),
        (
            busy, "database busy (retry)",
            "The database stayed locked past --busy-timeout, or a reader that cannot write its folder found it "
                + "written while it read: retry. Nothing was written."
        ),
        (
            newerSchema, "schema newer than this build",
            "The database's schema is newer than this build. Nothing was written."
        ),
    ]
}

extension StateStoreError {
    /// The exit status for this error: the library's cases, sorted into statectl's statuses.
    var exitCode: Int32 {
        switch self {
        case .conflict: ExitStatus.conflict
        case .invalidInput, .notOurs: ExitStatus.badData
        case .notFound: ExitStatus.notFound
        case .alreadyExists: ExitStatus.cannotCreate
        case .notADatabase, .damaged, .io, .replaced: ExitStatus.ioError
        case .busy: ExitStatus.busy
        case .newerSchema: ExitStatus.newerSchema
        case .reentrantCall: ExitStatus.software
        }
    }
}
