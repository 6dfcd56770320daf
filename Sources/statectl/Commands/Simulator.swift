import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--simulator [UDID/]BUNDLE[:GROUP]`: the simulator the command line names, found once a run.
/// Without a UDID the one booted simulator is used; several booted is an error that lists them
/// (64), since `simctl`'s own `booted` picks any of them, and could pick another for each call.
/// Every call names the device by its UDID.
struct Simulator {
    /// A simulator, as `xcrun simctl list devices -j` describes it.
    struct Device: Equatable {
        let udid: String
        let name: String
        let state: String
        /// The runtime's identifier: `com.apple.CoreSimulator.SimRuntime.iOS-17-0`.
        let runtime: String

        /// `iOS 17.0`, from the runtime's identifier.
        var runtimeName: String {
            let name = runtime.split(separator: ".").last.map(String.init) ?? runtime
            guard let dash = name.firstIndex(of: "-") else { return name }
            return name[..<dash] + " " + name[name.index(after: dash)...].replacingDashes
        }

        /// Where its apps keep their store: tvOS's in `Caches`.
        var system: StoreLocation.AppleSystem {
            runtime.contains("SimRuntime.tvOS") ? .tvOS : .iOS
        }

        /// `iPhone 15 (iOS 17.0, UDID)`.
        var described: String { "\(name) (\(runtimeName), \(udid))" }
    }

    let target: SimulatorTarget
    let device: Device
    private let option: String

    /// Lists the simulators and picks the one `target` names, or the one booted.
    init(_ target: SimulatorTarget, _ context: Context) throws {
        self.target = target
        option = "--simulator \(target.text)"
        let devices = try Self.devices(option: option, context)
        if let udid = target.device {
            guard let device = devices.first(where: { $0.udid.uppercased() == udid }) else {
                throw CommandFailure(
                    status: ExitStatus.notFound,
                    message: "\(option): no simulator has the UDID \(udid) ('xcrun simctl list devices' lists them)")
            }
            guard device.state == "Booted" else {
                throw CommandFailure(
                    status: ExitStatus.notFound,
                    message: "\(option): the simulator \(device.described) is not booted (\(device.state)): "
                        + "xcrun simctl boot \(device.udid), or open it in Simulator")
            }
            self.device = device
            return
        }
        let booted = devices.filter { $0.state == "Booted" }
        guard let device = booted.first else {
            throw CommandFailure(
                status: ExitStatus.notFound,
                message: "\(option): no simulator is booted (open Simulator, or xcrun simctl boot DEVICE)")
        }
        guard booted.count == 1 else {
            let example = "--simulator \(booted[0].udid)/\(target.text)"
            throw CommandFailure(
                status: ExitStatus.usage,
                message: "\(option): \(booted.count) simulators are booted; name one by its UDID, as \(example):\n"
                    + booted.map { "  \($0.described)" }.joined(separator: "\n"))
        }
        self.device = device
    }

    /// The store in the app's container, or its App Group's, on this device. Without a group, an
    /// app container whose store is missing or holds no window, while a group container of the
    /// app holds one, is noted on standard error with the spelling that reaches it: the store an
    /// app shares with its extensions is in its App Group.
    func databasePath(_ context: Context) throws -> String {
        let folder = try container(target.group ?? "data", context)
        let path = StoreLocation.path(inContainer: folder, on: device.system)
        if target.group == nil, Self.holdsNoWindow(path) {
            let others = groupsHoldingAStore(context)
            if !others.isEmpty {
                let device = target.device.map { $0 + "/" } ?? ""
                let spellings = others.map { "--simulator \(device)\(target.bundle):\($0)" }
                context.message(
                    "note: \(option): the app's container "
                        + (Self.exists(path) ? "has a store with no window" : "has no store")
                        + ", but its App Group\(others.count == 1 ? "" : "s") "
                        + others.joined(separator: ", ") + " \(others.count == 1 ? "has one" : "have one each"): "
                        + spellings.joined(separator: " or "))
            }
        }
        return path
    }

    /// The container `xcrun simctl get_app_container UDID BUNDLE KIND` prints (`data` or a group).
    private func container(_ kind: String, _ context: Context) throws -> String {
        let call = ["simctl", "get_app_container", device.udid, target.bundle, kind]
        let run = try Xcrun.run(call, option: option, context)
        guard run.status == 0 else {
            let said = Xcrun.firstLine(run.output)
            if run.output.contains("No devices are booted") || run.output.contains("current state: Shutdown") {
                throw CommandFailure(
                    status: ExitStatus.notFound,
                    message: "\(option): the simulator \(device.described) is not booted any more: \(said)")
            }
            if run.output.contains("code=2") || run.output.contains("No such file")
                || run.output.contains("not installed")
            {
                let what =
                    target.group.map {
                        "the App Group \($0) was not found for \(target.bundle) (is it in the app's entitlements?)"
                    } ?? "\(target.bundle) is not installed in the simulator \(device.described)"
                throw CommandFailure(status: ExitStatus.notFound, message: "\(option): \(what): \(said)")
            }
            throw CommandFailure(
                status: ExitStatus.ioError,
                message:
                    "\(option): xcrun \(call.prefix(2).joined(separator: " ")) failed (exit \(run.status)): \(said)")
        }
        let path = Xcrun.firstLine(run.output)
        guard path.hasPrefix("/") else {
            throw CommandFailure(
                status: ExitStatus.ioError,
                message: "\(option): xcrun simctl get_app_container printed no container path: \(path)")
        }
        try checkReadable(path)
        return path
    }

    /// The App Groups of the app whose container holds a store with a window, by identifier
    /// (`xcrun simctl get_app_container UDID BUNDLE groups`: a line `GROUP<tab>PATH` each). Empty
    /// when they cannot be had: the note is a help, never a reason to fail.
    private func groupsHoldingAStore(_ context: Context) -> [String] {
        let call = ["simctl", "get_app_container", device.udid, target.bundle, "groups"]
        guard let run = try? Xcrun.run(call, option: option, context), run.status == 0 else { return [] }
        var groups: [String] = []
        for line in Xcrun.lines(run.output) {
            let separator = line.firstIndex(of: "\t") ?? line.firstIndex(of: " ")
            guard let separator else { continue }
            let group = String(line[..<separator])
            let folder = String(line[line.index(after: separator)...].drop { $0 == " " || $0 == "\t" })
            guard (try? StoreLocation.validateIdentifier(group)) != nil, folder.hasPrefix("/") else { continue }
            if !Self.holdsNoWindow(StoreLocation.path(inContainer: folder, on: device.system)) { groups.append(group) }
        }
        return groups.sorted()
    }

    /// Whether `path` is no store with a window: missing, empty, or a store of this schema that
    /// lists none. Read as the reading commands read, creating, migrating and writing nothing (a
    /// read-only connection only where the folder may not be written: one would leave the
    /// `-wal` and `-shm` it made); a file that cannot be read so (another schema, damage) counts
    /// as holding one.
    private static func holdsNoWindow(_ path: String) -> Bool {
        guard exists(path) else { return true }
        var options = WindowStore.Options()
        options.createIfMissing = false
        options.migrate = false
        options.descriptorReserve = 0
        options.busyTimeoutMilliseconds = 100
        var readOnly = options
        readOnly.readOnly = true
        guard
            let store = (try? WindowStore(path: path, options: options))
                ?? (try? WindowStore(path: path, options: readOnly)),
            let status = try? store.migrationStatus()
        else { return false }
        if status.schemaVersion == 0 { return true }
        guard status.pending.isEmpty else { return false }
        struct Found: Error {}
        do {
            try store.forEachListedWindow(session: nil, sizeClass: nil) { _ in throw Found() }
            return true
        } catch {
            return false
        }
    }

    private static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Fails unless `folder` exists and its names can be read.
    private func checkReadable(_ folder: String) throws(CommandFailure) {
        guard let directory = opendir(folder) else {
            let code = errno
            throw CommandFailure(
                status: code == ENOENT || code == ENOTDIR ? ExitStatus.notFound : ExitStatus.ioError,
                message: "\(option): "
                    + (code == ENOENT || code == ENOTDIR
                        ? "the container \(folder) does not exist" : "cannot read \(folder)")
                    + " (\(String(cString: strerror(code))))")
        }
        closedir(directory)
    }

    /// Every simulator `xcrun simctl list devices -j` lists.
    private static func devices(option: String, _ context: Context) throws -> [Device] {
        let run = try Xcrun.run(["simctl", "list", "devices", "-j"], option: option, context)
        guard run.status == 0 else {
            throw CommandFailure(
                status: ExitStatus.ioError,
                message:
                    "\(option): xcrun simctl list devices failed (exit \(run.status)): \(Xcrun.firstLine(run.output))")
        }
        guard let document = JSONValue(document: Array(run.output.utf8)),
            case .object(let runtimes)? = document["devices"]
        else {
            throw CommandFailure(
                status: ExitStatus.ioError,
                message:
                    "\(option): xcrun simctl list devices -j printed no device list: \(Xcrun.firstLine(run.output))")
        }
        var devices: [Device] = []
        for runtime in runtimes {
            guard case .array(let entries) = runtime.value else { continue }
            for entry in entries {
                guard let udid = entry["udid"]?.text, let name = entry["name"]?.text, let state = entry["state"]?.text
                else { continue }
                devices.append(Device(udid: udid, name: name, state: state, runtime: runtime.key))
            }
        }
        return devices
    }
}

/// `xcrun`, run as ``ChildProcess`` runs a program: within ``timeout`` (30 s, or
/// `$STATECTL_XCRUN_TIMEOUT` seconds) and reading at most ``outputLimit`` bytes; each way it
/// fails is a message that names `xcrun` (74).
enum Xcrun {
    /// The most of `xcrun`'s output read: a device list or a path is a few kilobytes.
    static let outputLimit = 1 << 20
    /// How long `xcrun` may take when `$STATECTL_XCRUN_TIMEOUT` does not say: CoreSimulatorService
    /// starting takes seconds; one that never answers is stuck.
    static let defaultTimeoutSeconds = 30

    /// What a run printed and how it exited.
    struct Run {
        var status: Int32
        var output: String
    }

    /// The wait: `$STATECTL_XCRUN_TIMEOUT` (whole seconds, 1 to 3600; empty counts as unset),
    /// else ``defaultTimeoutSeconds``; `nil` for another value, which ``checkTimeout(_:)`` refuses
    /// before anything runs.
    static var timeout: Duration? {
        guard let text = EnvironmentVariable.xcrunTimeout.value, !text.isEmpty else {
            return .seconds(defaultTimeoutSeconds)
        }
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let seconds = Int(text), (1...3600).contains(seconds)
        else { return nil }
        return .seconds(seconds)
    }

    /// A usage error when `$STATECTL_XCRUN_TIMEOUT` is set to something ``timeout`` cannot read.
    static func checkTimeout(_ command: Command) throws(UsageError) {
        guard timeout == nil else { return }
        throw UsageError(
            "\(EnvironmentVariable.xcrunTimeout.rawValue)=\(EnvironmentVariable.xcrunTimeout.value ?? ""): expected a "
                + "whole number of seconds, 1 to 3600",
            command: command)
    }

    /// Runs `xcrun arguments`; a run that could not start, took too long or printed too much is a
    /// ``CommandFailure`` naming xcrun (74). Exiting otherwise than with 0 is the caller's to judge.
    static func run(_ arguments: [String], option: String, _ context: Context) throws(CommandFailure) -> Run {
        let timeout = Xcrun.timeout ?? .seconds(defaultTimeoutSeconds)
        let what = "xcrun " + arguments.prefix(3).joined(separator: " ")
        switch ChildProcess.run(["xcrun"] + arguments, timeout: timeout, outputLimit: outputLimit) {
        case .exited(let status, let output):
            return Run(status: status, output: String(decoding: output, as: UTF8.self))
        case .notFound:
            throw CommandFailure(
                status: ExitStatus.ioError,
                message: "\(option): xcrun not found on PATH: the iOS Simulator needs Xcode (xcode-select --install "
                    + "for its command-line tools)")
        case .cannotStart(let code):
            throw CommandFailure(
                status: ExitStatus.ioError, message: "\(option): cannot run xcrun: \(String(cString: strerror(code)))")
        case .timedOut(let output):
            let said = output.isEmpty ? "" : " (it printed: \(firstLine(String(decoding: output, as: UTF8.self))))"
            throw CommandFailure(
                status: ExitStatus.ioError,
                message:
                    "\(option): \(what) did not finish within \(timeout.components.seconds) s and was stopped\(said); "
                    + "CoreSimulatorService may be stuck (quitting Simulator, or 'killall -9 "
                    + "com.apple.CoreSimulator.CoreSimulatorService', restarts it). "
                    + "\(EnvironmentVariable.xcrunTimeout.rawValue) sets the wait in seconds")
        case .printedTooMuch:
            throw CommandFailure(
                status: ExitStatus.ioError,
                message: "\(option): \(what) printed more than \(outputLimit / 1024 / 1024) MiB and was stopped")
        }
    }

    /// The lines of `text`, whatever ends them (`\n`, `\r\n`, `\r`), empty ones left out.
    static func lines(_ text: String) -> [Substring] {
        text.split(whereSeparator: \.isNewline)
    }

    /// The first line of `text` with something in it, for a message; `no output` when none.
    static func firstLine(_ text: String) -> String {
        lines(text).first { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? "no output"
    }
}

extension Substring {
    fileprivate var replacingDashes: String {
        String(map { $0 == "-" ? "." : $0 })
    }
}
