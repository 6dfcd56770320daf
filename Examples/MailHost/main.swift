import Dispatch
import Foundation
import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// mailhost: a terminal mail app over StateStoreHost (README, "mailhost").

// Before anything can start a thread: the handled signals are blocked in every thread, so that
// only the signal sources see them.
MailHost.blockSignals()

/// Writes `Error: message` (then the usage) to standard error and exits with `status`.
func refuse(_ message: String, status: Int32, usage: Bool = false) -> Never {
    var text = "Error: \(Canvas.escapingControlCharacters(message))\n"
    if usage { text += "Usage: \(Options.usage)\nSee 'mailhost --help'.\n" }
    writeToStandardError(text)
    exit(status)
}

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    refuse(error.message, status: 64, usage: true)
}
if options.help {
    print(Options.helpText, terminator: "")
    exit(0)
}
let environment = ProcessInfo.processInfo.environment
guard let databasePath = DatabaseLocation.path(option: options.database, environment: { environment[$0] }) else {
    refuse("no database location: pass --db, or set STATECTL_DB or HOME", status: 64, usage: true)
}
guard databasePath != ":memory:" else {
    refuse(
        "':memory:' would be a database in memory, which keeps nothing; for a file of that name, write ./:memory:",
        status: 64, usage: true)
}
guard isatty(STDOUT_FILENO) == 1 else {
    refuse(
        "standard output is not a terminal: mailhost draws a full-screen interface; run it in a terminal", status: 64)
}
guard isatty(STDIN_FILENO) == 1 else {
    refuse("standard input is not a terminal: mailhost reads its keys there; run it in a terminal", status: 64)
}
do {
    try WindowState.validate(session: Options.session, window: options.window)
} catch {
    refuse(error.description, status: error.exitStatus)
}

let app = MailHost(options: options, databasePath: databasePath, color: environment["NO_COLOR"] == nil)
app.start()
dispatchMain()
