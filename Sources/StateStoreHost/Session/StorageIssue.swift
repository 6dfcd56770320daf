import StateStore

/// Storage trouble the user should hear of (``WindowSession/storageIssue``): what happened, in
/// words for them, and the error behind it. A programmer's mistakes are never one of these.
///
/// ```swift
/// .alert(item: $session.storageIssue) { issue in Alert(title: Text(issue.message)) }
/// ```
public struct StorageIssue: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// What kind of trouble it is.
    public enum Kind: Hashable, Sendable {
        /// The disk is full: changes are kept in memory and saved once there is room.
        case diskFull
        /// The file or its folder cannot be written.
        case readOnly
        /// Another process held the file past the deadline: saving is retried.
        case busy
        /// The file was damaged and moved aside; the windows start afresh.
        case damagedFileMovedAside(to: String)
        /// The file could not be used: this launch keeps everything in memory only.
        case runningInMemory
        /// A window holds more than the store keeps of one (its stack's depth or a route's size):
        /// its changes are kept in memory, and saved again once it fits.
        case windowOverLimits(window: String)
        /// Reading or writing the file failed otherwise.
        case failed
    }

    /// What kind of trouble it is.
    public let kind: Kind
    /// The error behind it.
    public let error: StateStoreError
    /// One per occurrence, so that the same trouble again is shown again.
    public let id: Int

    nonisolated(unsafe) private static var count = 0

    /// A sentence for the user.
    public var message: String {
        switch kind {
        case .diskFull: "The disk is full: your windows' places are not being saved."
        case .readOnly: "Your windows' places cannot be saved: their file is read-only."
        case .busy: "Your windows' places could not be saved yet; trying again."
        case .damagedFileMovedAside: "Your windows' saved places were damaged and have been reset."
        case .runningInMemory: "Your windows' places cannot be saved on this launch."
        case .windowOverLimits: "A window holds more than can be saved: its latest place is not being saved."
        case .failed: "Your windows' places could not be saved."
        }
    }

    /// The message and the error, for a log.
    public var description: String { "\(message) (\(error))" }

    package init(_ error: StateStoreError) {
        let kind: Kind
        switch error {
        case .io(let failure) where failure.code.primary == .full: kind = .diskFull
        case .io(let failure) where [.readOnly, .perm].contains(failure.code.primary): kind = .readOnly
        case .busy: kind = .busy
        default: kind = .failed
        }
        self.init(kind: kind, error: error)
    }

    init(movedAsideTo path: String, because error: StateStoreError) {
        self.init(kind: .damagedFileMovedAside(to: path), error: error)
    }

    init(window: String, overLimits error: StateStoreError) {
        self.init(kind: .windowOverLimits(window: window), error: error)
    }

    init(runningInMemoryBecause error: StateStoreError) {
        self.init(kind: .runningInMemory, error: error)
    }

    private init(kind: Kind, error: StateStoreError) {
        self.kind = kind
        self.error = error
        Self.count += 1
        id = Self.count
    }

    /// Whether a later successful write ends it (a damaged file moved aside, or a launch in
    /// memory, stays until the app clears it).
    var clearsOnCommit: Bool {
        switch kind {
        case .diskFull, .readOnly, .busy, .windowOverLimits, .failed: true
        case .damagedFileMovedAside, .runningInMemory: false
        }
    }
}
