import StateStore

extension WindowSession {
    /// Settings for a session.
    public struct Options: Sendable {
        /// How long a size-class change must hold before it is committed.
        public var settle: Duration = .milliseconds(500)
        /// Whether the layout follows a reported class at once or only once it has settled.
        public var layoutFollows: SizeClassGate.LayoutFollows = .immediately
        /// The policy of a presentation made without one (``WindowModel/present(_:policy:)``).
        public var defaultPolicy: SizeChangePolicy = .migrate
        /// Move a damaged file aside and start a fresh store instead of running in memory (on by
        /// default: an app always launches with its windows' future saved). Any other unusable file
        /// runs the session in memory for this launch. Either way ``recovery`` says so.
        public var recoverUnusableFile = true
        /// Deletes this session's windows neither written nor shown for this long (scenes the
        /// system discarded without telling the app), once a launch, when the app first has no
        /// active window; windows with a live model are kept. `nil`: never.
        public var pruneAfter: Duration? = .seconds(30 * 24 * 3600)
        /// The time the system grants the session's writer while it has work, so that the app is
        /// not suspended while it holds a SQLite lock on a shared file: on iOS, iPadOS, tvOS,
        /// watchOS and visionOS an expiring activity (`BackgroundActivity.expiringActivity`), on
        /// macOS sudden termination disabled (`BackgroundActivity.suddenTerminationDisabled`);
        /// none elsewhere. `nil`: none.
        public var activity: BackgroundActivity? = .platformDefault
        /// Called on the main actor with every error a window meets, whatever its kind, with the
        /// window's id: for an app's own log in release builds. The models' ``WindowModel/lastError``
        /// and the session's ``WindowSession/storageIssue`` carry them too.
        public var errorHandler: (@MainActor @Sendable (_ window: String, _ error: WindowError) -> Void)?
        /// Whether the adapter's windows (`StateStoreSwiftUI`'s `AdaptiveWindow`) show the session's
        /// ``WindowSession/storageIssue`` as an alert, in the focused window only: on by default.
        /// Off, the app shows it its own way (`.alert(item: $session.storageIssue)`).
        public var presentsStorageIssues = true
        /// The store's own settings: busy timeout, durability, history.
        public var store = WindowStore.Options()
        /// The clock size-class changes settle by; tests inject their own.
        public var clock: any Clock<Duration> = ContinuousClock()
        /// Whether the store's folder is kept out of the device's backups: set for the default home
        /// (``WindowSession/init(session:appGroup:options:)``), whose windows belong to scene
        /// sessions a restored device does not have.
        package var excludesFromBackup = false
        /// The notifications that tell the session the app is about to quit (tests: a name of
        /// their own, so that a test's quit reaches its own session only).
        package var terminationNotifications = TerminationWatch.names
        /// Called inside every job of the session's writer, before it touches the file (tests:
        /// whether an activity is held).
        package var duringJob: (@Sendable () -> Void)?
        /// Called inside each write's transaction, before it commits (tests: an activity whose
        /// time runs out midway).
        package var duringWrite: (@Sendable () -> Void)?

        /// The defaults.
        public init() {}
    }

    /// What opening the file took.
    public enum Recovery: Hashable, Sendable {
        /// The file opened as it was (or is still opening: ``isOpening``).
        case none
        /// The file was damaged: it was moved aside to `movedTo` (with its `-wal` and `-shm`) and a
        /// fresh store started.
        case movedAside(movedTo: String, because: StateStoreError)
        /// The file could not be used and was left untouched: this launch runs in memory, and keeps
        /// nothing once it ends.
        case inMemory(because: StateStoreError)
    }
}
