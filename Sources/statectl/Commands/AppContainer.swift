import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store of an app, found the way a developer would find it by hand, at the places
/// ``StoreLocation`` gives:
///
/// - `--simulator [UDID/]BUNDLE[:GROUP]`: in a booted simulator, the app's data container, or
///   with `:GROUP` the App Group's, as `xcrun simctl get_app_container UDID BUNDLE data|GROUP`
///   prints it (``Simulator``); `Library/Caches` on a tvOS simulator.
/// - `--container BUNDLE`: a sandboxed Mac app's container, `~/Library/Containers/BUNDLE/Data`.
/// - `--app BUNDLE`: a Mac app that is not sandboxed, `~/Library/Application Support/BUNDLE/StateStore/state.db`.
/// - `--group GROUP`: a macOS App Group's container, `~/Library/Group Containers/GROUP`.
///
/// Each failure names what went wrong: no `xcrun`, no booted simulator or several, an app or
/// group not installed, no container (66), a container the system will not let statectl read
/// (macOS asks the user before a tool reads another app's data: 74).
enum AppContainer: Sendable, Equatable {
    case simulator(SimulatorTarget)
    case container(bundle: String)
    case app(bundle: String)
    case group(String)

    /// The option that asked for it, for messages.
    var option: String {
        switch self {
        case .simulator(let target): "--simulator \(target.text)"
        case .container(let bundle): "--container \(bundle)"
        case .app(let bundle): "--app \(bundle)"
        case .group(let group): "--group \(group)"
        }
    }

    /// The App Group whose identifier prefixes the store's Darwin notification, if any: a sandboxed
    /// app hears only names its group begins.
    var notificationPrefix: String? {
        switch self {
        case .simulator(let target): target.group
        case .group(let group): group
        case .container, .app: nil
        }
    }

    /// The store's path. Nothing is created: the command decides that. A simulator's device is
    /// kept in `context` for the post after a write.
    func databasePath(home: String?, _ context: Context) throws -> String {
        switch self {
        case .simulator(let target):
            let simulator = try Simulator(target, context)
            context.simulatorDevice = simulator.device.udid
            return try simulator.databasePath(context)
        case .container(let bundle):
            let folder = try StoreLocation.macAppContainer(bundleIdentifier: bundle, home: try requireHome(home))
            try checkReadable(folder)
            return StoreLocation.path(inContainer: folder)
        case .app(let bundle):
            return try StoreLocation.macAppPath(bundleIdentifier: bundle, home: try requireHome(home))
        case .group(let group):
            let folder = try StoreLocation.macGroupContainer(group: group, home: try requireHome(home))
            try checkReadable(folder)
            return StoreLocation.path(inContainer: folder)
        }
    }

    /// After a write into a Simulator app's store: posts the store's Darwin notification inside the
    /// simulator too (`xcrun simctl spawn UDID notifyutil -p NAME`), since its processes do not
    /// hear the Mac's; a message when it cannot. The app's kqueue watch of the `-wal` sees the
    /// write in any case (the simulator's processes run on the Mac's kernel and files), so this
    /// only makes the news quicker and the same as for the app's own writers.
    func postIntoSimulator(databasePath path: String, _ context: Context) {
        guard case .simulator(let target) = self, let device = context.simulatorDevice else { return }
        for name in CommitNotice.names(forResolvedPath: ChangeSignal.resolved(path), prefix: target.group) {
            let failure: String
            do {
                let run = try Xcrun.run(["simctl", "spawn", device, "notifyutil", "-p", name], option: option, context)
                guard run.status != 0 else { continue }
                failure = Xcrun.firstLine(run.output)
            } catch {
                failure = error.message
            }
            context.message(
                "note: could not post \(name) in the simulator (\(failure)); the app's watch of the store's -wal "
                    + "still sees the change")
            return
        }
    }

    private func requireHome(_ home: String?) throws(CommandFailure) -> String {
        guard let home, !home.isEmpty else {
            throw CommandFailure(status: ExitStatus.notFound, message: "\(option): no home folder (HOME is not set)")
        }
        return home
    }

    /// Fails unless `folder` exists and its names can be read.
    private func checkReadable(_ folder: String) throws(CommandFailure) {
        guard let directory = opendir(folder) else {
            let code = errno
            throw CommandFailure(
                status: code == ENOENT || code == ENOTDIR ? ExitStatus.notFound : ExitStatus.ioError,
                message: unreadable(folder, errno: code))
        }
        closedir(directory)
    }

    /// Why `folder` cannot be used, for an `opendir` failure with `code`.
    private func unreadable(_ folder: String, errno code: Int32) -> String {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOENT, ENOTDIR:
            if case .group = self {
                return "\(option): no group container at \(folder): is the group in the entitlements of an installed "
                    + "app, and has that app run once? (\(reason))"
            }
            return "\(option): no container at \(folder): is the app installed, sandboxed, and has it run once? "
                + "(\(reason))"
        case EPERM, EACCES:
            return "\(option): cannot read \(folder) (\(reason)): macOS asks before a tool reads another app's data; "
                + "allow your terminal when it asks, or in System Settings › Privacy & Security (App Management, or "
                + "Full Disk Access), then run the command again"
        default:
            return "\(option): cannot read \(folder) (\(reason))"
        }
    }
}

/// `--simulator`'s value: `[UDID/]BUNDLE[:GROUP]`, a simulator's UDID, a bundle identifier, and an
/// App Group identifier (`group.…`, as on every system a simulator runs).
struct SimulatorTarget: ArgumentValue, Equatable {
    let device: String?
    let bundle: String
    let group: String?

    /// As given: for messages.
    var text: String { (device.map { $0 + "/" } ?? "") + bundle + (group.map { ":" + $0 } ?? "") }

    init(argument text: String) throws(ValueProblem) {
        var rest = Substring(text)
        if let slash = rest.firstIndex(of: "/") {
            let udid = String(rest[..<slash])
            guard Self.isUDID(udid) else {
                throw ValueProblem(
                    expected: "expected a simulator's UDID before '/' (8-4-4-4-12 hexadecimal digits, as 'xcrun simctl "
                        + "list devices' shows them), then BUNDLE[:GROUP]")
            }
            device = udid.uppercased()
            rest = rest[rest.index(after: slash)...]
        } else {
            device = nil
        }
        let parts = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard (try? StoreLocation.validateIdentifier(parts[0])) != nil else {
            throw ValueProblem(
                expected: "expected [UDID/]BUNDLE[:GROUP], a bundle identifier (letters, digits, '-' and '.': "
                    + "com.example.app) and an App Group's (group.com.example)")
        }
        bundle = parts[0]
        guard parts.count == 2 else {
            group = nil
            return
        }
        guard parts[1].hasPrefix("group."), (try? StoreLocation.validateIdentifier(parts[1])) != nil else {
            throw ValueProblem(
                expected: "expected an App Group identifier after ':' (group. and letters, digits, '-' and '.': "
                    + "group.com.example.app)")
        }
        group = parts[1]
    }

    /// 8-4-4-4-12 hexadecimal digits.
    static func isUDID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}

/// A bundle identifier: `--container`'s and `--app`'s value.
struct BundleIdentifier: ArgumentValue {
    let value: String

    init(argument text: String) throws(ValueProblem) {
        guard (try? StoreLocation.validateIdentifier(text)) != nil else {
            let group = text.contains(":") ? "; for an App Group's container on macOS, --group GROUP" : ""
            throw ValueProblem(
                expected: "expected a bundle identifier (letters, digits, '-' and '.': com.example.app)" + group)
        }
        value = text
    }
}

/// An App Group identifier: `--group`'s value (`group.com.example.app`, or on macOS also
/// `TEAMID.com.example.app`).
struct GroupIdentifier: ArgumentValue {
    let value: String

    init(argument text: String) throws(ValueProblem) {
        guard (try? StoreLocation.validateIdentifier(text)) != nil else {
            throw ValueProblem(
                expected: "expected an App Group identifier (letters, digits, '-' and '.': group.com.example.app)")
        }
        value = text
    }
}
