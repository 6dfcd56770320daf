import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a running command writes to: data to standard output (buffered), messages to standard
/// error, and the style for the data.
final class Context {
    /// Data: tables, records, JSON.
    let output = OutputBuffer(descriptor: 1)
    /// Messages: errors, notes.
    let errors = OutputBuffer(descriptor: 2, capacity: 4096)
    /// Colour for standard output, decided on first use.
    lazy var style = Style.forDescriptor(1)
    /// Set by a command once its change is committed: an output failure after that is exit 3
    /// ("committed, do not retry"), never 74 ("nothing written").
    var hasWritten = false
    /// The database path once the command line's was worked out: `--simulator` asks `xcrun` for
    /// it, once a run.
    var databasePath: String?
    /// The UDID of the simulator `--simulator` resolved to, for the post after a write.
    var simulatorDevice: String?

    /// Writes a line to standard error at once, after the data written so far; control
    /// characters it quotes (an id from the database, an argument) are shown escaped.
    func message(_ text: String) {
        output.flush()
        errors.write(text.escapingControlCharacters(keepingNewlines: true) + "\n")
        errors.flush()
    }

    /// An environment variable, or `nil` when unset; one that names a path is refused when it is
    /// not UTF-8 (``EnvironmentVariable/path()``).
    func environment(_ variable: EnvironmentVariable) throws(StateStoreError) -> String? {
        variable.isPath ? try variable.path() : variable.value
    }
}

/// A failure a command has already explained in its output (`check` finding damage): the
/// message for `Error: …` and the exit status.
struct CommandFailure: Error {
    let status: Int32
    let message: String
}
