#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's ``WakeSource``: it waits with `poll(2)` on its ``Interrupter``'s pipe and on the
/// descriptors of its watches — `inotify` on the database's folder on Linux; on Apple platforms
/// the store's Darwin notification (which this package's writers post after every commit, see
/// ``CommitNotice``) and a kqueue watch of the `-wal` and its folder (for writers that do not
/// post: `sqlite3`, older builds) — or, with none to be had, on the pipe alone: polling, with
/// the reason.
///
/// On Linux only the folder is watched, never a descriptor of the database, its `-wal` or
/// `-shm`: there a folder watch sees appends to the WAL. On Apple platforms a folder's kqueue
/// watch does not, so the `-wal` itself is opened: SQLite takes no POSIX lock on it (see
/// `WALWatch`), so closing that descriptor drops none of this process's locks. The database
/// file and its `-shm`, which SQLite does lock, are never opened outside SQLite anywhere.
///
/// The call order a feed uses (the watches are armed when the signal is made, and the kernel
/// queues events between waits, so a commit between a poll and the next wait still wakes that
/// wait):
///
///     let signal = try ChangeSignal(path: path)  // before the feed's first read
///     var schedule = WakeSchedule()
///     var wake: Wake? = nil
///     while true {
///         let events = try feed.poll()
///         let timeout = schedule.next(after: wake, found: !events.isEmpty, mechanism: signal.mechanism)
///         wake = signal.wait(timeout: timeout)  // .interrupted: see whether to pause or stop
///     }
///
/// Events are never discarded before a poll: SQLite writes a commit's last WAL frame (the event)
/// before it publishes the commit in the `-shm` index (no event), so a poll right after a wake can
/// miss the commit; the ``WakeSchedule`` polls again shortly after every wake for that reason.
///
/// One thread at a time waits; ``interrupt()`` (or the ``interrupter``, which is `Sendable`) may
/// be called from any thread, before or during a wait.
package final class ChangeSignal: WakeSource {
    /// Ends a signal's wait from any thread. It owns the pipe the wait polls, so it stays valid
    /// as long as anyone holds it, even after its signal is gone.
    package final class Interrupter: WakeInterrupter {
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

    /// The descriptors a watching signal opens: inotify's on Linux; on Apple platforms the Darwin
    /// notification's, the kqueue, and the folder and the `-wal` it watches.
    #if canImport(Darwin)
        package static let descriptorsPerWatch = 4
    #else
        package static let descriptorsPerWatch = 1
    #endif

    /// The database path watched: absolute, with links resolved as SQLite resolves them where
    /// they existed when the signal was made (SQLite keeps the WAL beside the file a link names).
    package let path: String
    /// Interrupts this signal's waits; hand it to the thread that pauses or stops the feed.
    package let interrupter: Interrupter
    /// Notifications, or polling and why; may turn to polling later (see ``wait(timeout:)``).
    package private(set) var mechanism: WakeMechanism
    /// What the wait polls besides the interrupter; a watch whose reading fails is dropped, and
    /// with the last one gone the signal polls.
    private var watches: [any DescriptorWatch] = []

    /// A signal for the database at `path`, which need not exist yet (nor its folder). `polling`
    /// forces the fallback (tests, `watch --poll`, a paused feed), for `pollingReason` if given
    /// (else "polling was asked for"); `mountTable` is where file
    /// systems are looked up (Linux); `notificationPrefix` starts the Darwin notification's name
    /// (Apple platforms, see ``CommitNotice``); `interrupter` is the one its waits listen to
    /// (nil: a new one).
    package init(
        path: String, polling: Bool = false, pollingReason: String? = nil,
        mountTable: String = "/proc/self/mountinfo", notificationPrefix: String? = nil, interrupter: Interrupter? = nil
    ) throws(StateStoreError) {
        guard !path.isEmpty else { throw .invalidInput("database path is empty") }
        self.path = Self.resolved(path)
        if let interrupter {
            self.interrupter = interrupter
        } else {
            self.interrupter = try Interrupter()
        }
        if polling {
            mechanism = .polling(reason: pollingReason ?? "polling was asked for")
            return
        }
        #if canImport(Glibc)
            _ = notificationPrefix
            do throws(Fallback) {
                watches = [try Notifier(path: self.path, mountTable: mountTable)]
                mechanism = .notifications
            } catch {
                mechanism = .polling(reason: error.reason)
            }
        #elseif canImport(Darwin)
            _ = mountTable
            // Either watch alone wakes the feed: the notification for this package's writers, the
            // -wal's kqueue watch for any writer. Each that cannot be had says why.
            var reasons: [String] = []
            do throws(Fallback) {
                let names = CommitNotice.names(forResolvedPath: self.path, prefix: notificationPrefix)
                watches.append(try PostedNotificationWatch(names: names, folder: Self.split(self.path).folder))
            } catch {
                reasons.append(error.reason)
            }
            do throws(Fallback) {
                watches.append(try WALWatch(path: self.path))
            } catch {
                reasons.append(error.reason)
            }
            mechanism = watches.isEmpty ? .polling(reason: reasons.joined(separator: "; ")) : .notifications
        #else
            _ = mountTable
            _ = notificationPrefix
            mechanism = .polling(reason: "no file notifications on this platform")
        #endif
    }

    /// The folder being watched: the database's, or while that is missing the nearest one above
    /// it; `nil` when polling.
    package var watchedFolder: String? {
        watches.first?.watchedFolder
    }

    /// What the feed reports: notifications on the watched folder, or polling and why.
    package var notification: ChangeNotification {
        switch mechanism {
        case .notifications: .notifications(folder: watchedFolder ?? path)
        case .polling(let reason): .polling(reason: reason)
        }
    }

    /// Ends the current wait, or the next one if none is under way; callable from any thread.
    package func interrupt() {
        interrupter.interrupt()
    }

    /// The database exists now: a watch on a folder above it moves down to its folder at once
    /// (``WakeSource/databaseFound()``). A watch that cannot be made there is dropped, as a wait
    /// drops one whose reading fails (with the last one, the signal polls and says why).
    package func databaseFound() {
        var reason = ""
        for index in watches.indices.reversed() {
            do throws(Fallback) {
                try watches[index].lookAgain()
            } catch {
                watches.remove(at: index)
                reason = error.reason
            }
        }
        if watches.isEmpty, case .notifications = mechanism { mechanism = .polling(reason: reason) }
    }

    /// Blocks until the database's files change, `timeout` passes (nil: no limit) or an interrupt
    /// comes, and says which. Events that arrived together, or since the last wait, wake it once;
    /// events for other files in the folder do not wake it. If reading a watch fails, the watch
    /// is dropped (with the last one, the signal turns to polling and ``mechanism`` says why) and
    /// this wait reports a change.
    package func wait(timeout: Duration?) -> Wake {
        let clock = ContinuousClock()
        // Capped so that the deadline's arithmetic cannot overflow (68 years is "no limit" too).
        let deadline = timeout.map { clock.now + min(max($0, .zero), .seconds(Int64(Int32.max))) }
        while true {
            var descriptors = [pollfd(fd: interrupter.readEnd, events: Int16(POLLIN), revents: 0)]
            for watch in watches {
                descriptors.append(pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0))
            }
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
            var causes: WakeCauses = []
            var failed: [Int] = []
            var reason = ""
            for (index, watch) in watches.enumerated() where descriptors[index + 1].revents != 0 {
                do throws(Fallback) {
                    causes.formUnion(try watch.take())
                } catch {
                    failed.append(index)
                    reason = error.reason
                }
            }
            if !failed.isEmpty {
                for index in failed.reversed() { watches.remove(at: index) }
                if watches.isEmpty { mechanism = .polling(reason: reason) }
                return .changed(causes)
            }
            if !causes.isEmpty { return .changed(causes) }
            if let deadline, clock.now >= deadline { return .timedOut }
        }
    }

    /// `path` as SQLite opens it: absolute; the file's links resolved when it exists, else the
    /// folder's when that exists, else only `.` and `..` taken out.
    ///
    /// Package surface: statectl names, with ``CommitNotice/names(forResolvedPath:prefix:)``, the
    /// notifications it posts inside a Simulator after writing an app's store there.
    package static func resolved(_ path: String) -> String {
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

    static func ioError(_ what: String) -> StateStoreError {
        let code = errno
        return .io(SQLiteFailure(code: .ioErr, message: "\(what): \(String(cString: strerror(code)))"))
    }
}

/// One kind of notification a ``ChangeSignal`` waits on: a descriptor that becomes readable when
/// there is news, and what reads it.
protocol DescriptorWatch: AnyObject {
    /// What `poll(2)` waits on.
    var descriptor: Int32 { get }
    /// The folder this watch is about, for ``ChangeNotification/notifications(folder:)``.
    var watchedFolder: String { get }
    /// Reads all the news queued, without blocking, and says what it saw of the database's
    /// files (empty: nothing of theirs); throws when the watch can no longer be read.
    func take() throws(ChangeSignal.Fallback) -> WakeCauses
    /// Looks at the folders again, the database being known to exist: a watch of a folder above
    /// the database's moves down to it. Throws when no watch can be had there.
    func lookAgain() throws(ChangeSignal.Fallback)
}

extension DescriptorWatch {
    /// Nothing to look at again: a watch made on the database's folder, or on no folder.
    func lookAgain() throws(ChangeSignal.Fallback) {}
}

extension ChangeSignal {
    /// Why notifications cannot be had, for ``WakeMechanism/polling(reason:)``.
    struct Fallback: Error {
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
        fileprivate final class Notifier: DescriptorWatch {
            let descriptor: Int32
            private let folder: String
            private let databaseName: [UInt8]
            private let walName: [UInt8]
            private let mountTable: String
            private var watch: Int32 = -1
            private(set) var watched: String
            var watchedFolder: String { watched }
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

            /// While a folder above the database's is watched, arms again: the database exists, so
            /// its folder does, whatever news of it is still queued (read later, that news is of a
            /// watch given up, and ignored).
            func lookAgain() throws(Fallback) {
                guard awaited != nil else { return }
                try arm()
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
            func take() throws(Fallback) -> WakeCauses {
                var causes: WakeCauses = []
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
            private func handle(
                _ descriptor: Int32, _ mask: UInt32, _ name: [UInt8], into causes: inout WakeCauses
            ) -> Bool {
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
