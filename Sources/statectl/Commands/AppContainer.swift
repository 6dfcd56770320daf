import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--simulator BUNDLE[:GROUP]` and `--container BUNDLE`: the store an app keeps in its container
/// (``StoreLocation/pathInContainer``), found the way a developer would find it by hand.
///
/// - `--simulator`: the booted iOS Simulator's data container of the app, or with `:GROUP` the
///   App Group's container, as `xcrun simctl get_app_container booted BUNDLE data|GROUP` prints it.
/// - `--container`: a sandboxed Mac app's container, `~/Library/Containers/BUNDLE/Data`.
///
/// Each failure names what went wrong: no `xcrun`, no booted simulator, an app or group not
/// installed (66), a container the system will not let statectl read (macOS asks the user before
/// a tool reads another app's data: 74).
enum AppContainer: Sendable, Equatable {
    case simulator(bundle: String, group: String?)
    case container(bundle: String)

    /// The option that asked for it, for messages.
    var option: String {
        switch self {
        case .simulator(let bundle, let group): "--simulator \(bundle)" + (group.map { ":" + $0 } ?? "")
        case .container(let bundle): "--container \(bundle)"
        }
    }

    /// The App Group whose identifier prefixes the store's Darwin notification, if any.
    var notificationPrefix: String? {
        if case .simulator(_, let group) = self { group } else { nil }
    }

    /// The store's path in the container. Nothing is created: the command decides that.
    func databasePath(home: String?) throws(CommandFailure) -> String {
        let folder: String
        switch self {
        case .simulator(let bundle, let group):
            folder = try Self.simulatorContainer(bundle: bundle, group: group)
        case .container(let bundle):
            guard let home, !home.isEmpty else {
                throw CommandFailure(
                    status: ExitStatus.notFound, message: "\(option): no home folder (HOME is not set)")
            }
            folder = (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/Library/Containers/\(bundle)/Data"
        }
        try checkReadable(folder)
        return StoreLocation.path(inContainer: folder)
    }

    /// After a write into a Simulator app's store: posts the store's Darwin notification inside the
    /// simulator too (`xcrun simctl spawn booted notifyutil -p NAME`), since its processes do not
    /// hear the Mac's; a message when it cannot. The app's kqueue watch of the `-wal` sees the
    /// write in any case (the simulator's processes run on the Mac's kernel and files), so this
    /// only makes the news quicker and the same as for the app's own writers.
    func postIntoSimulator(databasePath path: String, _ context: Context) {
        guard case .simulator(_, let group) = self else { return }
        for name in CommitNotice.names(forResolvedPath: ChangeSignal.resolved(path), prefix: group) {
            let run = ShellCommand.run(["xcrun", "simctl", "spawn", "booted", "notifyutil", "-p", name])
            if run.status != 0 {
                context.message(
                    "note: could not post \(name) in the simulator (\(Self.firstLine(run.output))); the app's "
                        + "watch of the store's -wal still sees the change")
                return
            }
        }
    }

    /// The container `xcrun simctl get_app_container` prints for the booted simulator.
    private static func simulatorContainer(bundle: String, group: String?) throws(CommandFailure) -> String {
        let option = AppContainer.simulator(bundle: bundle, group: group).option
        let run = ShellCommand.run(["xcrun", "simctl", "get_app_container", "booted", bundle, group ?? "data"])
        if run.status == 127 {
            throw CommandFailure(
                status: ExitStatus.ioError,
                message: "\(option): xcrun not found on PATH: the iOS Simulator needs Xcode (xcode-select --install "
                    + "for its command-line tools)")
        }
        let output = run.output
        guard run.status == 0 else {
            let said = firstLine(output)
            if output.contains("No devices are booted") || output.contains("current state: Shutdown") {
                throw CommandFailure(
                    status: ExitStatus.notFound,
                    message: "\(option): no simulator is booted (open Simulator, or xcrun simctl boot DEVICE): \(said)")
            }
            if output.contains("code=2") || output.contains("No such file") || output.contains("not installed") {
                let what =
                    group.map { "the App Group \($0) was not found for \(bundle) (is it in the app's entitlements?)" }
                    ?? "\(bundle) is not installed in the booted simulator"
                throw CommandFailure(status: ExitStatus.notFound, message: "\(option): \(what): \(said)")
            }
            throw CommandFailure(
                status: ExitStatus.ioError,
                message: "\(option): xcrun simctl get_app_container failed (exit \(run.status)): \(said)")
        }
        let path = firstLine(output)
        guard path.hasPrefix("/") else {
            throw CommandFailure(
                status: ExitStatus.ioError,
                message: "\(option): xcrun simctl get_app_container printed no container path: \(path)")
        }
        return path
    }

    /// Fails unless `folder` exists and its names can be read.
    private func checkReadable(_ folder: String) throws(CommandFailure) {
        guard let directory = opendir(folder) else {
            let code = errno
            throw CommandFailure(
                status: code == ENOENT || code == ENOTDIR ? ExitStatus.notFound : ExitStatus.ioError,
                message: Self.unreadable(folder, option: option, errno: code, isMac: isMacContainer))
        }
        closedir(directory)
    }

    private var isMacContainer: Bool {
        if case .container = self { true } else { false }
    }

    /// Why `folder` cannot be used, for an `opendir` failure with `code`.
    static func unreadable(_ folder: String, option: String, errno code: Int32, isMac: Bool) -> String {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOENT, ENOTDIR:
            return isMac
                ? "\(option): no container at \(folder): is the app installed, sandboxed, and has it run once? (\(reason))"
                : "\(option): the container \(folder) does not exist (\(reason))"
        case EPERM, EACCES:
            return "\(option): cannot read \(folder) (\(reason)): macOS asks before a tool reads another app's data; "
                + "allow your terminal when it asks, or in System Settings › Privacy & Security (App Management, or "
                + "Full Disk Access), then run the command again"
        default:
            return "\(option): cannot read \(folder) (\(reason))"
        }
    }

    private static func firstLine(_ text: String) -> String {
        let line = text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        return line.isEmpty ? "no output" : line
    }
}

/// A bundle identifier, or with `:GROUP` an App Group identifier after it: `--simulator`'s value.
struct SimulatorTarget: ArgumentValue {
    let bundle: String
    let group: String?

    init(argument text: String) throws(ValueProblem) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let bundle = parts.first, BundleIdentifier.isValid(bundle), parts.count == 1 || !parts[1].isEmpty
        else {
            throw ValueProblem(
                expected: "expected a bundle identifier, or BUNDLE:GROUP (com.example.app:group.com.example)")
        }
        self.bundle = bundle
        group = parts.count == 2 ? parts[1] : nil
    }
}

/// A bundle identifier: `--container`'s value.
struct BundleIdentifier: ArgumentValue {
    let value: String

    init(argument text: String) throws(ValueProblem) {
        guard Self.isValid(text) else { throw ValueProblem(expected: "expected a bundle identifier (com.example.app)") }
        value = text
    }

    /// Not empty, no `/` (it names a folder), no control characters, and not `.` or `..`.
    static func isValid(_ text: String) -> Bool {
        !text.isEmpty && text != "." && text != ".." && !text.contains("/")
            && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

/// Runs a command through `/bin/sh` (`popen`, the same call on Linux and Apple platforms), its
/// arguments quoted, standard error joined to standard output.
enum ShellCommand {
    struct Run {
        /// The exit status; 127 when the program was not found.
        var status: Int32
        var output: String
    }

    static func run(_ arguments: [String]) -> Run {
        let command = "exec " + arguments.map(quoted).joined(separator: " ") + " 2>&1 </dev/null"
        guard let pipe = popen(command, "r") else {
            return Run(status: 126, output: "cannot run /bin/sh: " + String(cString: strerror(errno)))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, pipe)
            if count > 0 { bytes += chunk[..<count] }
            if count < chunk.count { break }
        }
        let status = pclose(pipe)
        // A wait status: exited (low 7 bits zero) with the high byte, or killed by a signal.
        let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Run(status: status < 0 ? 126 : code, output: String(decoding: bytes, as: UTF8.self))
    }

    /// `text` in single quotes for /bin/sh, each `'` written `'\''`.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingQuotes() + "'"
    }
}

extension String {
    fileprivate func replacingQuotes() -> String {
        var result = ""
        for character in self {
            if character == "'" { result += "'\\''" } else { result.append(character) }
        }
        return result
    }
}
