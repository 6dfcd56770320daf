/// What a change feed blocks on between polls: something that ends a wait soon after the
/// database's files may have changed, at the wait's timeout, or when the feed's
/// ``WakeInterrupter`` is called.
///
/// The feed owns its logic — when to poll, the rechecks after a wake, the safety net, pausing,
/// interrupting (``WakeSchedule``, ``ChangeFeed``) — and a source only waits: the system's
/// ``ChangeSignal`` (inotify on Linux; a Darwin notification and a kqueue watch of the `-wal` on
/// Apple platforms; polling where there is neither) or a test's fake, which drives wakes,
/// timeouts and interrupts on a clock of its own.
///
/// A wake is only a hint: the feed confirms with `PRAGMA data_version`, so a spurious wake costs
/// one cheap poll and a missed one only latency, which the schedule's safety net bounds.
///
/// One thread at a time waits on a source; the feed makes it, waits on it and drops it (a paused
/// feed holds none that watches anything).
package protocol WakeSource: AnyObject {
    /// Notifications, or polling and why; may turn to polling after a failure (a wait says so
    /// by returning a change, so that the feed polls at once).
    var mechanism: WakeMechanism { get }

    /// What the feed reports as its ``ChangeNotification``.
    var notification: ChangeNotification { get }

    /// Blocks until the database's files may have changed, `timeout` passes (nil: no limit) or
    /// the interrupter is called (during the wait or since the last one ended), and says which.
    func wait(timeout: Duration?) -> Wake

    /// Told, once, that the feed's poll has found the database (it exists, so every folder on
    /// the way does): a source that watches a folder above the database's, awaiting the next one
    /// down, looks again and watches the database's folder from now on, without waiting for news
    /// of the folders' creation, which may still be queued behind the poll that found it. Called
    /// on the thread that waits, between waits.
    func databaseFound()
}

extension WakeSource {
    /// Nothing to look at again: a source that does not follow folders down.
    package func databaseFound() {}
}

/// Ends a wait of the sources made with it, from any thread: the current one, or the next if
/// none is under way. Several calls before a wait ends it once.
package protocol WakeInterrupter: AnyObject, Sendable {
    /// Ends the current wait, or the next one.
    func interrupt()
}

/// How a source learns of changes: what `statectl watch --verbose` and the feed's API show.
package enum WakeMechanism: Hashable, Sendable, CustomStringConvertible {
    /// Notifications: a wait ends soon after a change.
    case notifications
    /// None to be had: a wait ends only at its timeout (or an interrupt), so the feed polls.
    case polling(reason: String)

    package var description: String {
        switch self {
        case .notifications: "notifications"
        case .polling(let reason): "polling (\(reason))"
        }
    }
}

/// What a wake saw; several may come together (a commit, then a checkpoint).
package struct WakeCauses: OptionSet, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt16

    package init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The WAL was written: a commit appended to it, or a checkpoint truncated or reset it.
    package static let walWritten = WakeCauses(rawValue: 1 << 0)
    /// The WAL appeared: created by a connection, or renamed into place.
    package static let walAdded = WakeCauses(rawValue: 1 << 1)
    /// The WAL went: deleted by the last connection to close, or renamed away.
    package static let walRemoved = WakeCauses(rawValue: 1 << 2)
    /// The database file was written: a checkpoint copied the WAL into it, or a program wrote it.
    package static let databaseWritten = WakeCauses(rawValue: 1 << 3)
    /// A database file appeared at the path: created, or put there by a rename.
    package static let databaseAdded = WakeCauses(rawValue: 1 << 4)
    /// The database file went from the path: deleted, or renamed away.
    package static let databaseRemoved = WakeCauses(rawValue: 1 << 5)
    /// The folder (or, while it is missing, the nearest folder above it) came, went or moved;
    /// the source now watches the folder the path names.
    package static let folderChanged = WakeCauses(rawValue: 1 << 6)
    /// The kernel's event queue overflowed: any change may have been missed.
    package static let overflow = WakeCauses(rawValue: 1 << 7)
    /// A writer of this package posted the store's Darwin notification after a commit.
    package static let posted = WakeCauses(rawValue: 1 << 8)
    /// A name in the folder was added, removed or renamed (kqueue does not say which).
    package static let folderWritten = WakeCauses(rawValue: 1 << 9)

    private static let names: [(WakeCauses, String)] = [
        (.walWritten, "WAL written"), (.walAdded, "WAL added"), (.walRemoved, "WAL removed"),
        (.databaseWritten, "database written"), (.databaseAdded, "database added"),
        (.databaseRemoved, "database removed"), (.folderChanged, "folder changed"), (.overflow, "overflow"),
        (.posted, "posted"), (.folderWritten, "folder written"),
    ]

    package var description: String {
        Self.names.filter { contains($0.0) }.map(\.1).joined(separator: ", ")
    }
}

/// Why a wait ended.
package enum Wake: Hashable, Sendable {
    /// Something happened to the database's files: poll the store.
    case changed(WakeCauses)
    /// The timeout passed with nothing seen.
    case timedOut
    /// The interrupter was called (during the wait or since the last one ended).
    case interrupted

    /// Whether this is ``changed(_:)``.
    package var isChange: Bool {
        if case .changed = self { true } else { false }
    }
}

/// How long a feed waits on its source before it polls anyway.
///
/// With notifications, two schedules, one for each kind of event source (``Kind``):
///
/// - ``Kind/inotify`` (Linux): after a wake, or a poll that found a change, rechecks after 1 ms,
///   then doubling up to 256 ms, which each start over when one finds a change. SQLite publishes
///   a commit in the `-shm` index (no event) after the WAL write that woke the feed — under
///   `synchronous=FULL` after an fsync too, so that nearly every commit is found by a recheck —
///   and doubling finds it within about twice that delay. Otherwise the ``safetyNet``, 2 s.
/// - ``Kind/darwin`` (Apple platforms: the store's Darwin notification and the kqueue watch of
///   the `-wal`): a writer of this package posts after its commit is published, so a wake by the
///   notification alone needs no recheck, and cancels one under way. A wake by the kqueue watch
///   (a WAL write, which comes before the commit is published) rechecks after 1, 4, 16, 64 and
///   256 ms while they find nothing; a find leaves one recheck at 256 ms, for a commit the same
///   event covered and published later, which the notification cancels when it comes. Otherwise
///   the ``darwinSafetyNet``, 30 s: both sources are event-driven, so the net only bounds the
///   latency of what neither announces (a writer that does not post, whose commit is published
///   after the last recheck).
///
/// When polling, every ``pollingInterval``.
package struct WakeSchedule: Sendable {
    /// The event source a notified feed waits on, which decides its rechecks and safety net.
    package enum Kind: Hashable, Sendable {
        /// inotify's watch of the folder (Linux): it sees WAL writes only.
        case inotify
        /// The Darwin notification writers post after each commit, and the kqueue watch of the
        /// `-wal` (Apple platforms).
        case darwin

        /// This platform's: ``darwin`` where Darwin exists, ``inotify`` elsewhere.
        package static var native: Kind {
            #if canImport(Darwin)
                .darwin
            #else
                .inotify
            #endif
        }
    }

    /// With inotify, a feed still polls this often. It catches what no event announces — a commit
    /// published after the last recheck (an fsync slower than half a second), a folder above the
    /// database's renamed, a file system whose notifications fail silently — and costs half a
    /// wake-up a second, inside the goal of at most one.
    ///
    /// Package surface: the host's feed loop waits at most this long between attempts to make a
    /// feed that failed.
    package static let safetyNet: Duration = .seconds(2)
    /// inotify's rechecks after a wake, in turn: 1, 2, 4 … 256 ms.
    package static let rechecks: [Duration] = (0...8).map { .milliseconds(1 << $0) }
    /// With the Darwin sources, a feed still polls this often: a foreground app's feed wakes once
    /// in 30 s when nothing happens.
    package static let darwinSafetyNet: Duration = .seconds(30)
    /// The Darwin sources' rechecks after a kqueue wake, in turn: 1, 4, 16, 64, 256 ms.
    package static let darwinRechecks: [Duration] = (0...4).map { .milliseconds(1 << (2 * $0)) }

    /// Which source's schedule a notified feed follows.
    package let kind: Kind
    /// How often a polling feed polls.
    package var pollingInterval: Duration
    /// How long a notified feed waits with nothing to recheck: its kind's safety net, unless a
    /// test lengthens it so that only a notification can end a wait.
    package var safetyNetInterval: Duration
    /// The rechecks of its kind, in turn.
    package var rechecks: [Duration] {
        kind == .darwin ? Self.darwinRechecks : Self.rechecks
    }
    private var recheck: Int?

    /// A schedule whose polling feed polls every `pollingInterval`, and whose notified feed
    /// follows `kind`'s rechecks and polls every `safetyNet` (nil: `kind`'s) while nothing happens.
    package init(
        pollingInterval: Duration = .milliseconds(50), safetyNet: Duration? = nil, kind: Kind = .native
    ) {
        self.kind = kind
        self.pollingInterval = pollingInterval
        self.safetyNetInterval = safetyNet ?? (kind == .darwin ? Self.darwinSafetyNet : Self.safetyNet)
    }

    /// The timeout of the next wait, told how the last wait ended (`nil` before the first) and
    /// whether the poll after it found anything.
    package mutating func next(after wake: Wake?, found: Bool, mechanism: WakeMechanism) -> Duration {
        guard mechanism == .notifications else {
            recheck = nil
            return pollingInterval
        }
        switch kind {
        case .inotify:
            if found || wake?.isChange == true {
                recheck = 0
            } else if let step = recheck {
                recheck = step + 1 < rechecks.count ? step + 1 : nil
            }
        case .darwin:
            let last = rechecks.count - 1
            if case .changed(let causes) = wake, !causes.isEmpty, causes.isSubset(of: .posted) {
                // Posted after the commit was published: this poll saw all it announced.
                recheck = nil
            } else if case .changed = wake {
                // A WAL write, whose commit may be published after this poll. A find returns the
                // events, and the next wait (whose call advances the step) is the 256 ms recheck.
                recheck = found ? last - 1 : 0
            } else if let step = recheck {
                recheck = step < last ? (found ? max(step, last - 1) : step + 1) : nil
            }
        }
        return recheck.map { rechecks[$0] } ?? safetyNetInterval
    }

    /// Forgets the rechecks under way: a feed that resumes starts as a new one.
    package mutating func reset() {
        recheck = nil
    }
}

/// Where a feed's wake sources and its clock come from: the system's (``system``), or a test's
/// fake, which ends each wait as the test says and keeps a clock of its own, so that nothing in
/// the test sleeps.
package struct WakeSources: Sendable {
    /// What a feed asks a source for.
    package struct Request {
        /// The database file; it need not exist yet (nor its folder).
        package var path: String
        /// Whether the source should watch for changes; without, only the interrupter or the
        /// timeout ends its waits (polling asked for, or a paused feed).
        package var watching: Bool
        /// What the Darwin notification's name starts with (see ``CommitNotice``).
        package var notificationPrefix: String?
        /// The feed's interrupter, made by ``makeInterrupter``.
        package var interrupter: any WakeInterrupter
        /// Why a source that does not watch polls, when not because polling was asked for.
        package var pollingReason: String? = nil
    }

    /// Makes the interrupter a feed keeps for its whole life, made before any source so that an
    /// interrupt before the first wait ends that wait.
    package var makeInterrupter: @Sendable () throws(StateStoreError) -> any WakeInterrupter
    /// Makes a source for a request.
    package var makeSource: @Sendable (Request) throws(StateStoreError) -> any WakeSource
    /// The time on the feed's clock, from an arbitrary start: waits' deadlines are on it.
    package var now: @Sendable () -> Duration

    /// Sources made of the given closures: a test's.
    package init(
        makeInterrupter: @escaping @Sendable () throws(StateStoreError) -> any WakeInterrupter,
        makeSource: @escaping @Sendable (Request) throws(StateStoreError) -> any WakeSource,
        now: @escaping @Sendable () -> Duration
    ) {
        self.makeInterrupter = makeInterrupter
        self.makeSource = makeSource
        self.now = now
    }

    /// The system's: ``ChangeSignal`` on its pipe interrupter, and the continuous clock.
    package static let system = WakeSources(
        makeInterrupter: { () throws(StateStoreError) in try ChangeSignal.Interrupter() },
        makeSource: { request throws(StateStoreError) in
            guard let interrupter = request.interrupter as? ChangeSignal.Interrupter else {
                throw .invalidInput("a system wake source needs the system's interrupter")
            }
            return try ChangeSignal(
                path: request.path, polling: !request.watching, pollingReason: request.pollingReason,
                notificationPrefix: request.notificationPrefix, interrupter: interrupter)
        },
        now: { ContinuousClock.now - clockOrigin })
}

/// The system clock's start for ``WakeSources/system``: the first time it is read.
private let clockOrigin = ContinuousClock.now
