#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wakes a change feed when its database may have changed, so that an idle feed sleeps instead of
/// polling: `inotify` on the database's folder on Linux, polling (with the reason) elsewhere.
///
/// A wake is only a hint: the feed confirms with `PRAGMA data_version`, so a spurious wake costs
/// one cheap poll and a missed one only latency, which the ``Schedule``'s safety net bounds.
///
/// Only the folder is watched, never a descriptor of the database, its `-wal` or `-shm`: POSIX
/// locks belong to the process, and closing any descriptor of those files would drop the locks
/// of every connection this process has on them.
///
/// The call order a feed uses (the watch is armed when the signal is made, and the kernel queues
/// events between waits, so a commit between a poll and the next wait still wakes that wait):
///
///     let signal = try ChangeSignal(path: path)  // before the feed's first read
///     var schedule = ChangeSignal.Schedule()
///     var wake: ChangeSignal.Wake? = nil
///     while true {
///         let events = try feed.poll()
///         let timeout = schedule.next(after: wake, found: !events.isEmpty, mechanism: signal.mechanism)
///         wake = signal.wait(timeout: timeout)  // .interrupted: see whether to pause or stop
///     }
///
/// Events are never discarded before a poll: SQLite writes a commit's last WAL frame (the event)
/// before it publishes the commit in the `-shm` index (no event), so a poll right after a wake can
/// miss the commit; the ``Schedule`` polls again shortly after every wake for that reason.
///
/// One thread at a time waits; ``interrupt()`` (or the ``interrupter``, which is `Sendable`) may
/// be called from any thread, before or during a wait.
package final class ChangeSignal {
    /// How the signal learns of changes: what `statectl watch --verbose` and the feed's API show.
    package enum Mechanism: Hashable, Sendable, CustomStringConvertible {
        /// File notifications: a wait ends soon after a change.
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
    package struct Causes: OptionSet, Hashable, Sendable, CustomStringConvertible {
        package let rawValue: UInt16

        package init(rawValue: UInt16) {
            self.rawValue = rawValue
        }

        /// The WAL was written: a commit appended to it, or a checkpoint truncated or reset it.
        package static let walWritten = Causes(rawValue: 1 << 0)
        /// The WAL appeared: created by a connection, or renamed into place.
        package static let walAdded = Causes(rawValue: 1 << 1)
        /// The WAL went: deleted by the last connection to close, or renamed away.
        package static let walRemoved = Causes(rawValue: 1 << 2)
        /// The database file was written: a checkpoint copied the WAL into it, or a program wrote it.
        package static let databaseWritten = Causes(rawValue: 1 << 3)
        /// A database file appeared at the path: created, or put there by a rename.
        package static let databaseAdded = Causes(rawValue: 1 << 4)
        /// The database file went from the path: deleted, or renamed away.
        package static let databaseRemoved = Causes(rawValue: 1 << 5)
        /// The folder (or, while it is missing, the nearest folder above it) came, went or moved;
        /// the signal now watches the folder the path names.
        package static let folderChanged = Causes(rawValue: 1 << 6)
        /// The kernel's event queue overflowed: any change may have been missed.
        package static let overflow = Causes(rawValue: 1 << 7)

        private static let names: [(Causes, String)] = [
            (.walWritten, "WAL written"), (.walAdded, "WAL added"), (.walRemoved, "WAL removed"),
            (.databaseWritten, "database written"), (.databaseAdded, "database added"),
            (.databaseRemoved, "database removed"), (.folderChanged, "folder changed"), (.overflow, "overflow"),
        ]

        package var description: String {
            Self.names.filter { contains($0.0) }.map(\.1).joined(separator: ", ")
        }
    }

    /// Why a wait ended.
    package enum Wake: Hashable, Sendable {
        /// Something happened to the database's files: poll the store.
        case changed(Causes)
        /// The timeout passed with nothing seen.
        case timedOut
        /// ``interrupt()`` was called (during the wait or since the last one ended).
        case interrupted

        /// Whether this is ``changed(_:)``.
        package var isChange: Bool {
            if case .changed = self { true } else { false }
        }
    }

    /// Ends a signal's wait from any thread. It owns the pipe the wait polls, so it stays valid
    /// as long as anyone holds it, even after its signal is gone.
    package final class Interrupter: Sendable {
        fileprivate let readEnd: Int32
        private let writeEnd: Int32

        package init() throws(StateStoreError) {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw ChangeSignal.ioError("cannot make the change signal's pipe") }
            // Not inherited by children (no pipe2 in Swift's Glibc module: a child spawned in this
            // instant may inherit the pipe, which costs it nothing); never blocking either end.
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
            readEnd = ends[0]
            writeEnd = ends[1]
        }

        /// Ends the current wait, or the next one if none is under way.
        package func interrupt() {
            var byte: UInt8 = 1
            // A full pipe (EAGAIN) already holds an interrupt the wait has not taken.
            while write(writeEnd, &byte, 1) < 0 && errno == EINTR {}
        }

        /// Takes every pending interrupt, so that several count as one.
        fileprivate func drain() {
            var bytes = [UInt8](repeating: 0, count: 64)
            while true {
                let count = read(readEnd, &bytes, bytes.count)
                if count > 0 { continue }
                if count < 0 && errno == EINTR { continue }
                return
            }
        }

        deinit {
            close(readEnd)
            close(writeEnd)
        }
    }

    /// The database path watched: absolute, with links resolved as SQLite resolves them where
    /// they existed when the signal was made (SQLite keeps the WAL beside the file a link names).
    package let path: String
    /// Interrupts this signal's waits; hand it to the thread that pauses or stops the feed.
    package let interrupter: Interrupter
    /// Notifications, or polling and why; may turn to polling later (see ``wait(timeout:)``).
    package private(set) var mechanism: Mechanism
    #if canImport(Glibc)
        private var notifier: Notifier?
    #endif

    /// A signal for the database at `path`, which need not exist yet (nor its folder). `polling`
    /// forces the fallback (tests, `watch --poll`); `mountTable` is where file systems are looked up;
    /// `interrupter` is the one its waits listen to (nil: a new one).
    package init(
        path: String, polling: Bool = false, mountTable: String = "/proc/self/mountinfo",
        interrupter: Interrupter? = nil
    ) throws(StateStoreError) {
        guard !path.isEmpty else { throw .invalidInput("database path is empty") }
        self.path = Self.resolved(path)
        if let interrupter {
            self.interrupter = interrupter
        } else {
            self.interrupter = try Interrupter()
        }
        if polling {
            mechanism = .polling(reason: "polling was asked for")
            return
        }
        #if canImport(Glibc)
            do throws(Fallback) {
                notifier = try Notifier(path: self.path, mountTable: mountTable)
                mechanism = .notifications
            } catch {
                mechanism = .polling(reason: error.reason)
            }
        #elseif canImport(Darwin)
            // The lead decides (issue 14): kqueue's EVFILT_VNODE needs a descriptor of the -wal, and
            // closing it would drop this process's SQLite locks; one on the folder misses appends.
            // So Apple platforms poll, and say why.
            _ = mountTable
            mechanism = .polling(reason: "no notification that needs no descriptor of the database's files")
        #else
            _ = mountTable
            mechanism = .polling(reason: "no file notifications on this platform")
        #endif
    }

    /// The folder being watched: the database's, or while that is missing the nearest one above
    /// it; `nil` when polling.
    package var watchedFolder: String? {
        #if canImport(Glibc)
            notifier?.watched
        #else
            nil
        #endif
    }

    /// Ends the current wait, or the next one if none is under way; callable from any thread.
    package func interrupt() {
        interrupter.interrupt()
    }

    /// Blocks until the database's files change, `timeout` passes (nil: no limit) or an interrupt
    /// comes, and says which. Events that arrived together, or since the last wait, wake it once;
    /// events for other files in the folder do not wake it. If reading notifications fails, the
    /// signal turns to polling (``mechanism`` says why) and this wait reports a change.
    package func wait(timeout: Duration?) -> Wake {
        let clock = ContinuousClock()
        // Capped so that the deadline's arithmetic cannot overflow (68 years is "no limit" too).
        let deadline = timeout.map { clock.now + min(max($0, .zero), .seconds(Int64(Int32.max))) }
        while true {
            var descriptors = [pollfd(fd: interrupter.readEnd, events: Int16(POLLIN), revents: 0)]
            #if canImport(Glibc)
                if let notifier {
                    descriptors.append(pollfd(fd: notifier.descriptor, events: Int16(POLLIN), revents: 0))
                }
            #endif
            let ready = poll(&descriptors, nfds_t(descriptors.count), Self.milliseconds(until: deadline, clock))
            if ready < 0 {
                // EINTR: poll again. Otherwise only ENOMEM is possible; a pause keeps it from spinning.
                if errno != EINTR { Self.pause(.milliseconds(50)) }
                if let deadline, clock.now >= deadline { return .timedOut }
                continue
            }
            // An interrupt wins: events stay queued and wake the next wait.
            if descriptors[0].revents != 0 {
                interrupter.drain()
                return .interrupted
            }
            #if canImport(Glibc)
                if descriptors.count > 1, descriptors[1].revents != 0, let notifier {
                    do throws(Fallback) {
                        let causes = try notifier.take()
                        if !causes.isEmpty { return .changed(causes) }
                    } catch {
                        self.notifier = nil
                        mechanism = .polling(reason: error.reason)
                        return .changed([])
                    }
                }
            #endif
            if let deadline, clock.now >= deadline { return .timedOut }
        }
    }

    /// How long a feed waits on its signal before it polls anyway.
    ///
    /// With notifications: after a wake, or a poll that found a change, rechecks after 1 ms, then
    /// doubling up to 256 ms, which each start over when one finds a change. SQLite publishes a
    /// commit in the `-shm` index (no event) after the WAL write that woke the feed — under
    /// `synchronous=FULL` after an fsync too, so that nearly every commit is found by a recheck —
    /// and doubling finds it within about twice that delay. Otherwise the ``safetyNet``. When
    /// polling, every ``pollingInterval``.
    package struct Schedule: Sendable {
        /// With notifications, a feed still polls this often. It catches what no event announces —
        /// a commit published after the last recheck (an fsync slower than half a second), a folder
        /// above the database's renamed, a file system whose notifications fail silently — and
        /// costs half a wake-up a second, inside the goal of at most one.
        package static let safetyNet: Duration = .seconds(2)
        /// The rechecks after a wake, in turn.
        package static let rechecks: [Duration] = (0...8).map { .milliseconds(1 << $0) }

        /// How often a polling feed polls.
        package var pollingInterval: Duration
        /// How long a notified feed waits with nothing to recheck: the ``safetyNet``, unless a
        /// test lengthens it so that only a notification can end a wait.
        package var safetyNetInterval: Duration
        private var recheck: Int?

        /// A schedule whose polling feed polls every `pollingInterval`, and whose notified feed
        /// polls every `safetyNet` while nothing happens.
        package init(pollingInterval: Duration = .milliseconds(50), safetyNet: Duration = Schedule.safetyNet) {
            self.pollingInterval = pollingInterval
            self.safetyNetInterval = safetyNet
        }

        /// The timeout of the next wait, told how the last wait ended (`nil` before the first) and
        /// whether the poll after it found anything.
        package mutating func next(after wake: Wake?, found: Bool, mechanism: Mechanism) -> Duration {
            guard mechanism == .notifications else {
                recheck = nil
                return pollingInterval
            }
            if found || wake?.isChange == true {
                recheck = 0
            } else if let step = recheck {
                recheck = step + 1 < Self.rechecks.count ? step + 1 : nil
            }
            return recheck.map { Self.rechecks[$0] } ?? safetyNetInterval
        }
    }

    /// `path` as SQLite opens it: absolute; the file's links resolved when it exists, else the
    /// folder's when that exists, else only `.` and `..` taken out.
    static func resolved(_ path: String) -> String {
        let absolute = StoreFile.lexicallyAbsolute(path)
        if let real = realPath(absolute) { return real }
        let (folder, name) = split(absolute)
        if let real = realPath(folder) { return join(real, name) }
        return absolute
    }

    /// The folder and the last component of an absolute path.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder == "/" ? "/" + name : folder + "/" + name
    }

    private static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// `poll`'s timeout for the time left until `deadline`, rounded up so that a wait never ends
    /// before it; -1 (no limit) for none, at most `Int32.max` (the caller polls again).
    private static func milliseconds(until deadline: ContinuousClock.Instant?, _ clock: ContinuousClock) -> Int32 {
        guard let deadline else { return -1 }
        let left = deadline - clock.now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        guard seconds < Int64(Int32.max) / 1000 else { return Int32.max }
        return Int32(seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    private static func pause(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    fileprivate static func ioError(_ what: String) -> StateStoreError {
        let code = errno
        return .io(SQLiteFailure(code: .ioErr, message: "\(what): \(String(cString: strerror(code)))"))
    }
}

extension ChangeSignal {
    /// Why notifications cannot be had, for ``Mechanism/polling(reason:)``.
    fileprivate struct Fallback: Error {
        var reason: String
    }

    /// The file system type of each device in a `/proc/self/mountinfo` text, by `major:minor`.
    /// Lines look like `36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw` (the
    /// kernel's proc documentation): the third field is the device, the one after `-` the type.
    package static func fileSystemType(ofDevice device: String, inMountTable table: String) -> String? {
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 7, fields[2] == device,
                let separator = fields[6...].firstIndex(of: "-"), separator + 1 < fields.count
            else { continue }
            return String(fields[separator + 1])
        }
        return nil
    }

    /// Whether a file system (by its mount table name) is one whose notifications miss changes:
    /// network file systems, which see only what is done through this machine's mount, and FUSE
    /// ones, whose daemon changes files without the kernel knowing (`fuse`, `fuseblk`, `fuse.*`).
    package static func isRemote(fileSystem type: String) -> Bool {
        type == "fuse" || type == "fuseblk" || type.hasPrefix("fuse.") || remoteFileSystems.contains(type)
    }

    /// Network and shared file systems by the names the kernel registers them under: NFS, SMB
    /// (CIFS, SMB2 and SMB3 all mount as `cifs` or `smb3`), 9P (WSL, QEMU), AFS, Ceph, Coda,
    /// NetWare, GFS2, OCFS2, Lustre, OrangeFS, virtiofs and VirtualBox shared folders.
    static let remoteFileSystems: Set<String> = [
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "ceph", "coda", "ncpfs", "ncp", "gfs", "gfs2", "ocfs2",
        "lustre", "orangefs", "pvfs2", "glusterfs", "virtiofs", "vboxsf", "davfs", "sshfs",
    ]

    /// Why `inotify_init1` failing with `code` means polling.
    package static func reason(initFailedWith code: Int32) -> String {
        let what =
            switch code {
            case EMFILE:
                "too many open files or inotify instances (RLIMIT_NOFILE, fs.inotify.max_user_instances)"
            case ENFILE: "the system's limit of open files is reached"
            case ENOMEM: "not enough kernel memory"
            default: String(cString: strerror(code))
            }
        return "inotify is not available: " + what
    }

    /// Why `inotify_add_watch` on `folder` failing with `code` means polling.
    package static func reason(watchFailedWith code: Int32, folder: String) -> String {
        let what =
            switch code {
            case ENOSPC: "the limit of inotify watches is reached (fs.inotify.max_user_watches)"
            case EACCES: "no permission to read it"
            case ENOMEM: "not enough kernel memory"
            case ENOTDIR: "it is not a folder"
            default: String(cString: strerror(code))
            }
        return "cannot watch \(folder): " + what
    }

    /// The `major:minor` of a device number as the mount table writes it (glibc's encoding).
    package static func deviceName(_ device: UInt64) -> String {
        // gnu_dev_major and gnu_dev_minor: the high parts are cut to 32 bits before masking.
        let major = UInt32(truncatingIfNeeded: device >> 8) & 0xfff | UInt32(truncatingIfNeeded: device >> 32) & ~0xfff
        let minor = UInt32(truncatingIfNeeded: device) & 0xff | UInt32(truncatingIfNeeded: device >> 12) & ~0xff
        return "\(major):\(minor)"
    }
}

#if canImport(Glibc)
    extension ChangeSignal {
        /// The inotify side: one descriptor, one watch — on the database's folder, or while that is
        /// missing on the nearest folder above it, waiting for the next component to appear.
        fileprivate final class Notifier {
            let descriptor: Int32
            private let folder: String
            private let databaseName: [UInt8]
            private let walName: [UInt8]
            private let mountTable: String
            private var watch: Int32 = -1
            private(set) var watched: String
            /// While an ancestor is watched: the name below it that leads to the folder.
            private var awaited: [UInt8]?
            private let buffer: UnsafeMutableRawBufferPointer

            private static let folderEvents =
                IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE_SELF
                | IN_MOVE_SELF | IN_EXCL_UNLINK | IN_ONLYDIR
            private static let ancestorEvents = IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR

            init(path: String, mountTable: String) throws(Fallback) {
                let (folder, name) = ChangeSignal.split(path)
                self.folder = folder
                databaseName = Array(name.utf8)
                walName = Array((name + "-wal").utf8)
                self.mountTable = mountTable
                watched = folder
                descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
                guard descriptor >= 0 else { throw Fallback(reason: ChangeSignal.reason(initFailedWith: errno)) }
                // Room for many events a read (each is 16 bytes and a name of at most NAME_MAX + 1).
                buffer = .allocate(byteCount: 64 * 1024, alignment: MemoryLayout<inotify_event>.alignment)
                // Thrown with every property set, this init still runs deinit, which closes and frees.
                try arm()
            }

            deinit {
                close(descriptor)
                buffer.deallocate()
            }

            /// Watches the folder, or the nearest one above it that exists. A name that appears
            /// under an ancestor just after it was looked at is caught by looking again.
            func arm() throws(Fallback) {
                while true {
                    let (candidate, awaited) = try nearestExistingFolder()
                    if let type = fileSystemType(of: candidate), ChangeSignal.isRemote(fileSystem: type) {
                        throw Fallback(
                            reason: "\(candidate) is on a \(type) file system (network or FUSE), whose "
                                + "notifications miss changes not made through this machine's mount")
                    }
                    let events = awaited == nil ? Self.folderEvents : Self.ancestorEvents
                    let added = inotify_add_watch(descriptor, candidate, UInt32(events))
                    if added < 0 {
                        if errno == ENOENT { continue }  // gone since it was looked at
                        throw Fallback(reason: ChangeSignal.reason(watchFailedWith: errno, folder: candidate))
                    }
                    if watch >= 0 && watch != added { inotify_rm_watch(descriptor, watch) }
                    watch = added
                    watched = candidate
                    self.awaited = awaited
                    guard let awaited else { return }
                    var info = stat()
                    let next = ChangeSignal.join(candidate, String(decoding: awaited, as: UTF8.self))
                    if stat(next, &info) != 0 { return }
                }
            }

            /// The folder, or its nearest existing ancestor and the name below it that leads there.
            private func nearestExistingFolder() throws(Fallback) -> (String, [UInt8]?) {
                var candidate = folder
                var awaited: [UInt8]? = nil
                var info = stat()
                while stat(candidate, &info) != 0 {
                    guard errno == ENOENT || errno == ENOTDIR else {
                        let code = errno
                        throw Fallback(reason: "cannot look at \(candidate): " + String(cString: strerror(code)))
                    }
                    let (parent, name) = ChangeSignal.split(candidate)
                    candidate = parent
                    awaited = Array(name.utf8)
                }
                return (candidate, awaited)
            }

            private func fileSystemType(of folder: String) -> String? {
                var info = stat()
                guard stat(folder, &info) == 0, let table = readMountTable() else { return nil }
                return ChangeSignal.fileSystemType(
                    ofDevice: ChangeSignal.deviceName(UInt64(info.st_dev)), inMountTable: table)
            }

            /// The mount table's text; `nil` when it cannot be read (the folder is taken as local).
            private func readMountTable() -> String? {
                // Never a database's file, whose close would drop this process's SQLite locks: the
                // kernel's /proc/self/mountinfo, or a test's copy of one (the package init's
                // `mountTable`; no caller passes anything else).
                let file = open(mountTable, O_RDONLY | O_CLOEXEC)
                guard file >= 0 else { return nil }
                defer { close(file) }
                var bytes: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 16 * 1024)
                while true {
                    let count = read(file, &chunk, chunk.count)
                    if count < 0 && errno == EINTR { continue }
                    guard count >= 0 else { return nil }
                    if count == 0 { break }
                    bytes += chunk[..<count]
                }
                return String(decoding: bytes, as: UTF8.self)
            }

            /// Reads every queued event and says what they saw of the database's files (empty:
            /// only other files). Re-arms when the watched folder came, went or moved.
            func take() throws(Fallback) -> Causes {
                var causes: Causes = []
                var rearm = false
                // Bounded, so that a stream of events cannot keep a wait from returning; what is
                // left wakes the next wait at once.
                for _ in 0..<64 {
                    let count = read(descriptor, buffer.baseAddress, buffer.count)
                    if count < 0 {
                        if errno == EINTR { continue }
                        if errno == EAGAIN { break }
                        let code = errno
                        throw Fallback(reason: "cannot read notifications: " + String(cString: strerror(code)))
                    }
                    if count == 0 { break }
                    var offset = 0
                    // A read returns whole records: a header, then `len` bytes of NUL-padded name.
                    while offset + MemoryLayout<inotify_event>.size <= count {
                        let event = buffer.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        let start = offset + MemoryLayout<inotify_event>.size
                        let end = min(start + Int(event.len), count)
                        let name = UnsafeRawBufferPointer(rebasing: buffer[start..<end]).prefix { $0 != 0 }
                        rearm = handle(event.wd, event.mask, Array(name), into: &causes) || rearm
                        offset = end
                    }
                }
                if rearm { try arm() }
                return causes
            }

            /// Adds what one event saw to `causes`; true when the watch must be armed again.
            private func handle(_ descriptor: Int32, _ mask: UInt32, _ name: [UInt8], into causes: inout Causes) -> Bool
            {
                func has(_ flag: Int32) -> Bool { mask & UInt32(flag) != 0 }
                if has(IN_Q_OVERFLOW) {
                    causes.insert(.overflow)
                    return true  // the events lost may have been the folder's own
                }
                // Events of a watch given up (a moved folder's) are late news of another folder.
                guard descriptor == watch else { return false }
                if has(IN_IGNORED) || has(IN_DELETE_SELF) || has(IN_MOVE_SELF) || has(IN_UNMOUNT) {
                    causes.insert(.folderChanged)
                    return true
                }
                if let awaited {
                    guard (has(IN_CREATE) || has(IN_MOVED_TO)) && name == awaited else { return false }
                    causes.insert(.folderChanged)
                    return true
                }
                let added = has(IN_CREATE) || has(IN_MOVED_TO)
                let removed = has(IN_DELETE) || has(IN_MOVED_FROM)
                let written = has(IN_MODIFY) || has(IN_CLOSE_WRITE)
                if name == databaseName {
                    if added { causes.insert(.databaseAdded) }
                    if removed { causes.insert(.databaseRemoved) }
                    if written { causes.insert(.databaseWritten) }
                } else if name == walName {
                    if added { causes.insert(.walAdded) }
                    if removed { causes.insert(.walRemoved) }
                    if written { causes.insert(.walWritten) }
                }
                return false
            }
        }
    }
#endif
