import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The program: parse the command line, run the command, turn what went wrong into a message on
/// standard error and SPEC §5's exit status.
enum Statectl {
    /// The version `statectl --version` prints.
    static let version = "0.1.0"

    static func main(_ arguments: [RawArgument]) -> Int32 {
        let context = Context()
        var status: Int32 = 0
        do {
            switch try Parser(commands: Command.all).parse(arguments) {
            case .version:
                context.output.write("statectl \(version) (schema \(StateStore.schemaVersion))\n")
            case .help(let command):
                context.output.write(Help.text(for: command))
            case .run(let invocation):
                try invocation.checkDatabaseLocation(context)
                try invocation.rejectInvalidUTF8()
                try invocation.command.run(invocation, context)
            }
        } catch let error as UsageError {
            context.output.flush()
            context.errors.write(error.report)
            status = 64
        } catch let error as StateStoreError {
            context.message("Error: \(error.description)")
            status = error.exitCode
        } catch let error as CommandFailure {
            context.message("Error: \(error.message)")
            status = error.status
        } catch {
            context.message("Error: \(error)")
            status = 74
        }
        context.output.flush()
        if let failure = context.output.failure {
            context.message("Error: cannot write to standard output: \(String(cString: strerror(failure)))")
            if status == 0 { status = 74 }
        }
        context.errors.flush()
        return status
    }
}
