#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a store lives when no path is given, as pure rules over a container folder, a home, an
/// identifier or an environment, so that hosts, `statectl` and their tests agree without
/// Foundation. Each rule is a function of its inputs alone, tested on any machine.
///
/// - iOS, iPadOS, watchOS, visionOS, and a sandboxed Mac app: `Library/Application
///   Support/StateStore/state.db` inside the app's container (its home folder) or an App Group's
///   (``path(inContainer:)``).
/// - tvOS: `Library/Caches/StateStore/state.db` inside the container (``cachesPathInContainer``):
///   tvOS keeps no local storage for good, and the system may empty `Caches` when it needs room.
///   A store lost there starts empty, as after a first launch.
/// - A Mac app that is not sandboxed: `~/Library/Application Support/BUNDLE/StateStore/state.db`
///   (``macAppPath(bundleIdentifier:home:)``), a folder of its own, never one shared by every app.
/// - macOS containers, for tools that reach an app's store: a sandboxed app's
///   (``macAppContainer(bundleIdentifier:home:)``) and an App Group's
///   (``macGroupContainer(group:home:)``).
/// - A process with no bundle identifier (`statectl`, a command-line host) on macOS:
///   `~/Library/Application Support/StateStore/state.db`; on Linux `$XDG_STATE_HOME/statectl/state.db`
///   (`XDG_STATE_HOME` unset, empty or relative: `$HOME/.local/state`) (``defaultPath(environment:)``).
public enum StoreLocation {
    /// The store's path relative to a container folder on Apple platforms but tvOS:
    /// `Library/Application Support/StateStore/state.db`.
    public static let pathInContainer = "Library/Application Support/StateStore/state.db"

    /// The store's path relative to a container folder on tvOS: `Library/Caches/StateStore/state.db`.
    public static let cachesPathInContainer = "Library/Caches/StateStore/state.db"

    /// The Apple systems whose apps keep their store in different places.
    public enum AppleSystem: String, Sendable, CaseIterable {
        /// iOS, iPadOS, watchOS and visionOS: always in a container, `Application Support`.
        case iOS
        /// macOS and Mac Catalyst: in the app's container when it is sandboxed, else in a folder
        /// named by its bundle identifier in the user's `Application Support`.
        case macOS
        /// tvOS: in the container's `Caches`, whose loss is normal there.
        case tvOS

        /// The system this build runs on; `nil` off Apple platforms.
        public static var current: AppleSystem? {
            #if os(tvOS)
                .tvOS
            #elseif os(macOS) || targetEnvironment(macCatalyst)
                .macOS
            #elseif canImport(Darwin)
                .iOS
            #else
                nil
            #endif
        }
    }

    /// The store inside `container`, an app's or an App Group's container folder (or a home):
    /// `CONTAINER/Library/Application Support/StateStore/state.db`.
    public static func path(inContainer container: String) -> String {
        joined(container, pathInContainer)
    }

    /// The store inside `container` on `system`: in `Caches` on tvOS
    /// (`CONTAINER/Library/Caches/StateStore/state.db`), else ``path(inContainer:)``.
    public static func path(inContainer container: String, on system: AppleSystem) -> String {
        system == .tvOS ? joined(container, cachesPathInContainer) : path(inContainer: container)
    }

    /// The store of a Mac app that is not sandboxed, whose home is the user's:
    /// `HOME/Library/Application Support/BUNDLE/StateStore/state.db`. A `bundleIdentifier` that is
    /// no bundle identifier (``validateIdentifier(_:)``) is ``StateStoreError/invalidInput(_:)``.
    public static func macAppPath(bundleIdentifier: String, home: String) throws(StateStoreError) -> String {
        try validateIdentifier(bundleIdentifier)
        return joined(home, "Library/Application Support/\(bundleIdentifier)/StateStore/state.db")
    }

    /// A sandboxed Mac app's container, where its home is: `HOME/Library/Containers/BUNDLE/Data`.
    public static func macAppContainer(bundleIdentifier: String, home: String) throws(StateStoreError) -> String {
        try validateIdentifier(bundleIdentifier)
        return joined(home, "Library/Containers/\(bundleIdentifier)/Data")
    }

    /// A macOS App Group's container, which every app and extension entitled to the group shares:
    /// `HOME/Library/Group Containers/GROUP` (what `containerURL(forSecurityApplicationGroupIdentifier:)`
    /// gives there). Its store is ``path(inContainer:)`` of it.
    public static func macGroupContainer(group: String, home: String) throws(StateStoreError) -> String {
        try validateIdentifier(group)
        return joined(home, "Library/Group Containers/\(group)")
    }

    /// The store an app keeps when it is given no path, on `system`, with `home` its home folder
    /// (`NSHomeDirectory()`: the app's container when it is sandboxed): ``path(inContainer:on:)``
    /// of the home, or, for a Mac app that is not `sandboxed`, ``macAppPath(bundleIdentifier:home:)``,
    /// which needs its `bundleIdentifier` (`nil` there is ``StateStoreError/invalidInput(_:)``).
    public static func appPath(
        on system: AppleSystem, home: String, bundleIdentifier: String?, sandboxed: Bool
    ) throws(StateStoreError) -> String {
        guard system == .macOS, !sandboxed else { return path(inContainer: home, on: system) }
        guard let bundleIdentifier else {
            throw .invalidInput(
                "a Mac app that is not sandboxed keeps its store in a folder named by its bundle identifier, and "
                    + "this process has none: give the store a path")
        }
        return try macAppPath(bundleIdentifier: bundleIdentifier, home: home)
    }

    /// Whether the process whose environment variables `environment` reads runs in the App
    /// Sandbox: the system sets `APP_SANDBOX_CONTAINER_ID` in a sandboxed app's environment.
    public static func isSandboxed(environment: (String) -> String?) -> Bool {
        environment("APP_SANDBOX_CONTAINER_ID").map { !$0.isEmpty } ?? false
    }

    /// Fails with ``StateStoreError/invalidInput(_:)`` unless `identifier` is a bundle or App Group
    /// identifier, which names a folder here: 1–255 bytes of ASCII letters, digits, `-` and `.`
    /// (what Apple allows in a bundle identifier), not `.` or `..`. So no `/`, no control
    /// character, nothing that climbs out of the folder it is put in.
    public static func validateIdentifier(_ identifier: String) throws(StateStoreError) {
        let allowed = identifier.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
                true
            default: false
            }
        }
        guard allowed, (1...255).contains(identifier.utf8.count), identifier != ".", identifier != ".." else {
            throw .invalidInput(
                "'\(identifier)' is not a bundle or App Group identifier (letters, digits, '-' and '.', such as "
                    + "com.example.mail or group.com.example.mail)")
        }
    }

    /// This platform's default store for a process with no bundle identifier (`statectl`, a
    /// command-line host), whose environment variables `environment` reads: on Apple platforms
    /// ``path(inContainer:)`` of `$HOME` (`~/Library/Application Support/StateStore/state.db`); on
    /// Linux `$XDG_STATE_HOME/statectl/state.db`, else `$HOME/.local/state/statectl/state.db`. A
    /// missing or empty `HOME` falls back to the account's home folder; `nil` when there is none.
    /// An app uses ``appPath(on:home:bundleIdentifier:sandboxed:)``.
    public static func defaultPath(environment: (String) -> String?) -> String? {
        defaultPath(on: .current, environment: environment)
    }

    /// The platforms whose default places differ.
    package enum Platform: Sendable {
        /// iOS, iPadOS, macOS, tvOS, watchOS, visionOS: in a container.
        case apple
        /// Linux and the rest: the XDG base directories.
        case linux

        /// The platform this build runs on.
        package static var current: Platform {
            #if canImport(Darwin)
                .apple
            #else
                .linux
            #endif
        }
    }

    /// ``defaultPath(environment:)`` for `platform`: both rules are tested on any machine. An
    /// `environment` that throws (one that refuses a value that is not UTF-8) stops it.
    package static func defaultPath<Failure: Error>(
        on platform: Platform, environment: (String) throws(Failure) -> String?
    ) throws(Failure) -> String? {
        if platform == .linux, let state = try environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            return state.trimmingTrailingSlashes + "/statectl/state.db"
        }
        guard let home = try environment("HOME").flatMap({ $0.isEmpty ? nil : $0 }) ?? accountHome() else {
            return nil
        }
        switch platform {
        case .apple: return path(inContainer: home)
        case .linux: return home.trimmingTrailingSlashes + "/.local/state/statectl/state.db"
        }
    }

    /// The value of the environment variable `name`, read as the bytes the process was given;
    /// `nil` when unset. A value that is not UTF-8 is ``StateStoreError/invalidInput(_:)`` naming
    /// the variable: decoded, its bytes would be replaced (U+FFFD) and name another file.
    ///
    /// Package surface: statectl and the host's session read the environment through it, so that
    /// neither opens another file than the variable names.
    package static func environmentValue(_ name: String) throws(StateStoreError) -> String? {
        guard let value = getenv(name) else { return nil }
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: strlen(value))
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else {
            throw .invalidInput(
                "the environment variable \(name) is not valid UTF-8 (\(escapedBytes(bytes))): a path that is not "
                    + "UTF-8 would name another file once decoded; set it to a UTF-8 path")
        }
        return text
    }

    /// The home folder in the user database, for a process started without `HOME`.
    private static func accountHome() -> String? {
        guard let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir else { return nil }
        let home = String(cString: folder)
        return home.isEmpty ? nil : home
    }

    /// `relative` under `folder`, without doubling or trailing slashes.
    private static func joined(_ folder: String, _ relative: String) -> String {
        let folder = folder.trimmingTrailingSlashes
        return (folder == "/" ? "" : folder) + "/" + relative
    }

    /// `bytes` with each byte outside printable ASCII written `\xHH`, for a message.
    private static func escapedBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var text = ""
        for byte in bytes {
            if (0x20..<0x7F).contains(byte) && byte != UInt8(ascii: "\\") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                text += "\\x" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return text
    }
}

extension String {
    fileprivate var trimmingTrailingSlashes: String {
        var text = self
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
