#if canImport(Darwin)
    import Darwin
    #if canImport(notify)
        import notify
    #endif

    // The two watches a ``ChangeSignal`` waits on on Apple platforms, written from Apple's notify(3)
    // and kqueue(2) manual pages. Nothing here runs on the project's machines: it is type-checked
    // by Scripts/check-apple.sh, and its logic (wake, recheck, safety net, pause) is the feed's,
    // tested on Linux through a fake source.

    /// The store's Darwin notification (``CommitNotice``), which this package's writers post after
    /// every commit: `notify_register_file_descriptor` gives a descriptor to which each delivery
    /// writes the registration's token (4 bytes); the signal polls it beside its interrupter.
    final class PostedNotificationWatch: DescriptorWatch {
        let descriptor: Int32
        let watchedFolder: String
        private let tokens: [Int32]

        /// Registers for each of `names` on one descriptor (`NOTIFY_REUSE` after the first); a name
        /// refused (a sandbox that does not allow it) is skipped, and with none registered there is
        /// no watch.
        init(names: [String], folder: String) throws(ChangeSignal.Fallback) {
            var descriptor: Int32 = -1
            var tokens: [Int32] = []
            var refusals: [String] = []
            for name in names {
                var token: Int32 = -1
                let flags = descriptor >= 0 ? Int32(NOTIFY_REUSE) : 0
                let status = notify_register_file_descriptor(name, &descriptor, flags, &token)
                if status == UInt32(NOTIFY_STATUS_OK) {
                    tokens.append(token)
                } else {
                    refusals.append("\(name) (status \(status))")
                }
            }
            guard !tokens.isEmpty, descriptor >= 0 else {
                throw ChangeSignal.Fallback(
                    reason: "cannot register for the Darwin notification " + refusals.joined(separator: ", "))
            }
            // Read without blocking (a wait drains every token queued), and kept from children.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            self.descriptor = descriptor
            self.tokens = tokens
            watchedFolder = folder
        }

        deinit {
            // notify(3): the descriptor is closed when the last registration using it is cancelled;
            // it is never closed here.
            for token in tokens { _ = notify_cancel(token) }
        }

        func take() throws(ChangeSignal.Fallback) -> WakeCauses {
            var bytes = [UInt8](repeating: 0, count: 256)
            var posted = false
            // Bounded, so that a stream of posts cannot keep a wait from returning.
            for _ in 0..<64 {
                let count = read(descriptor, &bytes, bytes.count)
                if count > 0 {
                    posted = true
                    continue
                }
                if count < 0 && errno == EINTR { continue }
                if count < 0 && errno == EAGAIN { break }
                let what = count == 0 ? "the descriptor was closed" : String(cString: strerror(errno))
                throw ChangeSignal.Fallback(reason: "cannot read Darwin notifications: " + what)
            }
            return posted ? .posted : []
        }
    }

    /// A kqueue watch of the `-wal` (`EVFILT_VNODE`: `NOTE_WRITE`, `NOTE_EXTEND` for a commit's
    /// frames; `NOTE_DELETE`, `NOTE_RENAME`, `NOTE_REVOKE` for a WAL that goes, which is closed
    /// and opened again by name) and of its folder (`NOTE_WRITE`: a name added or removed, so a
    /// WAL created later is opened when it appears), for writers that do not post the store's
    /// Darwin notification. The kqueue's own descriptor is what the signal polls: it is readable
    /// while events are pending.
    final class WALWatch: DescriptorWatch {
        let descriptor: Int32
        let watchedFolder: String
        private let walPath: String
        private var folderDescriptor: Int32 = -1
        private var walDescriptor: Int32 = -1

        private static let walEvents = NOTE_WRITE | NOTE_EXTEND | NOTE_DELETE | NOTE_RENAME | NOTE_REVOKE
        private static let folderEvents = NOTE_WRITE | NOTE_DELETE | NOTE_RENAME | NOTE_REVOKE
        private static let gone = UInt32(NOTE_DELETE | NOTE_RENAME | NOTE_REVOKE)

        /// Watches the database at `path` (absolute, links resolved): its folder must exist.
        init(path: String) throws(ChangeSignal.Fallback) {
            watchedFolder = ChangeSignal.split(path).folder
            walPath = path + "-wal"
            descriptor = kqueue()
            guard descriptor >= 0 else {
                throw ChangeSignal.Fallback(reason: "kqueue is not available: " + String(cString: strerror(errno)))
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            // Thrown with every property set, this init still runs deinit, which closes all.
            folderDescriptor = open(watchedFolder, O_EVTONLY | O_CLOEXEC)
            guard folderDescriptor >= 0 else {
                throw ChangeSignal.Fallback(
                    reason: "cannot watch \(watchedFolder): " + String(cString: strerror(errno)))
            }
            guard add(folderDescriptor, Self.folderEvents) else {
                throw ChangeSignal.Fallback(
                    reason: "cannot watch \(watchedFolder): " + String(cString: strerror(errno)))
            }
            openWAL()
        }

        deinit {
            closeWAL()
            if folderDescriptor >= 0 { close(folderDescriptor) }
            close(descriptor)
        }

        func take() throws(ChangeSignal.Fallback) -> WakeCauses {
            var causes: WakeCauses = []
            var events = Array(repeating: kevent(), count: 16)
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            let count = kevent(descriptor, nil, 0, &events, Int32(events.count), &now)
            if count < 0 {
                if errno == EINTR { return [] }
                throw ChangeSignal.Fallback(reason: "cannot read kqueue events: " + String(cString: strerror(errno)))
            }
            for event in events.prefix(Int(count)) {
                let flags = event.fflags
                if walDescriptor >= 0 && event.ident == UInt(walDescriptor) {
                    if flags & UInt32(NOTE_WRITE | NOTE_EXTEND) != 0 { causes.insert(.walWritten) }
                    if flags & Self.gone != 0 {
                        causes.insert(.walRemoved)
                        closeWAL()
                    }
                } else if event.ident == UInt(folderDescriptor) {
                    if flags & UInt32(NOTE_WRITE) != 0 { causes.insert(.folderWritten) }
                    if flags & Self.gone != 0 {
                        // The folder went or moved: watch whatever folder the path names now.
                        causes.insert(.folderChanged)
                        try reopenFolder()
                    }
                }
            }
            // A WAL that went, or was not there yet, is opened by name when it is there now: after
            // its folder changed, or in any case once a wake came (it costs one failed open).
            if walDescriptor < 0 && !causes.isEmpty && openWAL() { causes.insert(.walAdded) }
            return causes
        }

        /// Opens the `-wal` for its events, if it exists; whether it is watched now.
        ///
        /// SQLite takes its POSIX advisory locks on the database file (os_unix.c: `unixLock`
        /// through `unixFileLock` on the database's own descriptor) and, for WAL mode's read and
        /// write locks, on the `-shm` (wal.c's `walLockShared` and `walLockExclusive` call
        /// `sqlite3OsShmLock` on the database's handle, and os_unix.c's `unixShmSystemLock` locks
        /// byte ranges of the `-shm`'s descriptor); it never locks the `-wal`. POSIX locks are
        /// per process and per file, and closing any descriptor of a file drops the process's
        /// locks on that file only: so opening this descriptor, and closing it in ``closeWAL()``,
        /// drops none of the locks this process's connections hold. (The database file and the
        /// `-shm` are never opened here.)
        @discardableResult
        private func openWAL() -> Bool {
            guard walDescriptor < 0 else { return true }
            let opened = open(walPath, O_EVTONLY | O_CLOEXEC)
            guard opened >= 0 else { return false }
            guard add(opened, Self.walEvents) else {
                close(opened)
                return false
            }
            walDescriptor = opened
            return true
        }

        /// Closes the `-wal`'s descriptor (its kqueue registration goes with it): safe for this
        /// process's SQLite locks, which are never on the `-wal` (see ``openWAL()``).
        private func closeWAL() {
            guard walDescriptor >= 0 else { return }
            close(walDescriptor)
            walDescriptor = -1
        }

        /// Watches the folder at its path again, after the one watched went or moved.
        private func reopenFolder() throws(ChangeSignal.Fallback) {
            if folderDescriptor >= 0 { close(folderDescriptor) }
            folderDescriptor = open(watchedFolder, O_EVTONLY | O_CLOEXEC)
            guard folderDescriptor >= 0, add(folderDescriptor, Self.folderEvents) else {
                throw ChangeSignal.Fallback(reason: "\(watchedFolder) went away; cannot watch it again")
            }
            closeWAL()
        }

        /// Registers `EVFILT_VNODE` for `events` on `file`, cleared after each report.
        private func add(_ file: Int32, _ events: Int32) -> Bool {
            var change = kevent(
                ident: UInt(file), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                fflags: UInt32(events), data: 0, udata: nil)
            return kevent(descriptor, &change, 1, nil, 0, nil) >= 0
        }
    }
#endif
