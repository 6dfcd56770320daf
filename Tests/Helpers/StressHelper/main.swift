// statestore-stress: a child process for the reliability tests (Tests/ReliabilityTests). It links
// the StateStore library as a host would and reports what it did on stdout, one line at a time,
// written with write(2) as soon as it is true, so a parent that kills it knows exactly what was
// acknowledged before the kill.
//
//   statestore-stress write DB SESSION WINDOW
//       Writes revisions forever. Revision N carries N in every route it holds (see
//       `revisionState`); after each commit prints `N`. Keeps every revision in the history.
//   statestore-stress wal DB SESSION WINDOW COUNT
//       Writes COUNT revisions as `write` does, prints `done`, then waits to be killed, leaving
//       its write-ahead log behind.
//   statestore-stress increment DB SESSION WINDOW COUNT [GO_FILE]
//       Opens the store and prints `ready`; with GO_FILE, waits for that file to exist (so that
//       several processes start together). Then COUNT read-modify-write increments of the
//       counter in the window's item, each saved with the revision it read as the expected
//       revision, retrying on conflict. Prints `conflicts N` at the end. Any other error: prints
//       `error MESSAGE`, exits 1.
//   statestore-stress hold DB SECONDS
//       Takes the write lock (inside `update` of window `lock`/`holder`), prints `locked`, keeps
//       it for SECONDS, then gives up without writing anything and prints `released`.
//   statestore-stress backup-pair DB FOLDER
//       In FOLDER (its working folder), two backups of DB to the relative name `copy.db` in one
//       process: the first on a thread of its own; once its partial copy exists, the second, on a
//       store whose clock runs an hour ahead (so that a partial copy of a writer that is gone
//       would be removed). Prints `first OUTCOME` and `second OUTCOME`, each `ok`,
//       `alreadyExists` or the error.
//   statestore-stress descriptors
//       Prints the free descriptors below the limit, then with a pipe open, and the limit.
//   statestore-stress as-user UID DB [sqlite-check]
//       Runs as user UID (and group UID; switched to from root, for a folder whose modes must
//       stop it), opens the store and a change feed of it, prints `ready`, then runs the commands
//       its standard input gives, one a line, until that ends: `save WINDOW` saves a window of
//       session `s` and prints `saved WINDOW`; `poll` polls the feed and prints `polled N`, the
//       changes it read. A failure prints `replaced`, `io MESSAGE` or `error MESSAGE` instead.
//       With `sqlite-check`, the store does not read its file's identity from SQLite's descriptor.
//
// Exit status: 0 done, 64 bad arguments, 1 a StateStoreError (printed).

import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a line to stdout at once, unbuffered: the parent reads it as an acknowledgement.
func report(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + written, $0.count - written) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { exit(70) }
        written += count
    }
}

func fail(_ error: any Error) -> Never {
    report("error \(error)")
    exit(1)
}

/// The content of revision `n`: every route carries `n`, so a state mixing two revisions, or a
/// revision number that disagrees with its content, is detectable. The item's size varies with
/// `n` (up to about 3 KB), so many commits spill onto overflow pages.
func revisionState(_ n: Int, session: String, window: String) throws(StateStoreError) -> WindowState {
    let pad = String(repeating: "x", count: (n &* 7919) % 3000)
    var state = WindowState(session: session, window: window)
    state.sizeClass = [.compact, .regular, .unspecified][n % 3]
    state.policy = n % 2 == 0 ? .migrate : .dismiss
    state.path = try (0..<(n % 7)).map { i throws(StateStoreError) in
        try Route(type: "Step", json: #"{"n":\#(n),"i":\#(i)}"#)
    }
    state.item = try Route(type: "Count", json: #"{"n":\#(n),"pad":"\#(pad)"}"#)
    state.itemPath = try (0..<(n % 5)).map { i throws(StateStoreError) in
        try Route(type: "Step", json: #"{"n":\#(n),"i":\#(100 + i)}"#)
    }
    return state
}

func openStore(_ path: String) -> WindowStore {
    var options = WindowStore.Options()
    options.historyLimit = Int(Int32.max)
    do {
        return try WindowStore(path: path, options: options)
    } catch {
        fail(error)
    }
}

/// Writes the next revision, derived from the current one, under one write lock.
func writeNext(_ store: WindowStore, session: String, window: String) throws -> Int {
    try store.update(session: session, window: window) { state in
        let next = try revisionState(state.revision + 1, session: session, window: window)
        state.sizeClass = next.sizeClass
        state.policy = next.policy
        state.path = next.path
        state.item = next.item
        state.itemPath = next.itemPath
    }.revision
}

func increment(_ store: WindowStore, session: String, window: String, count: Int) -> Int {
    var conflicts = 0
    var done = 0
    while done < count {
        do {
            let current = try store.window(session: session, window: window)
            var next = current ?? WindowState(session: session, window: window)
            let value = Int(current?.item?.json ?? "0") ?? 0
            next.present(try Route(type: "Count", json: String(value + 1)))
            try store.save(next, expectedRevision: current?.revision ?? 0)
            done += 1
        } catch .conflict {
            conflicts += 1
        } catch {
            fail(error)
        }
    }
    return conflicts
}

/// What `hold` throws from inside its update, so that nothing is written.
struct Released: Error {}

func hold(_ store: WindowStore, seconds: Int) {
    do {
        try store.update(session: "lock", window: "holder") { _ in
            report("locked")
            sleep(UInt32(seconds))
            throw Released()
        }
    } catch is Released {
        report("released")
    } catch {
        fail(error)
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
func usage() -> Never {
    report("usage: statestore-stress write|wal|increment|hold DB ... | descriptors")
    exit(64)
}

switch (arguments.first, arguments.count) {
case ("write", 4):
    let store = openStore(arguments[1])
    while true {
        do {
            report(String(try writeNext(store, session: arguments[2], window: arguments[3])))
        } catch {
            fail(error)
        }
    }
case ("wal", 5):
    guard let count = Int(arguments[4]) else { usage() }
    let store = openStore(arguments[1])
    for _ in 0..<count {
        do {
            _ = try writeNext(store, session: arguments[2], window: arguments[3])
        } catch {
            fail(error)
        }
    }
    report("done")
    while true { pause() }
case ("increment", 5), ("increment", 6):
    guard let count = Int(arguments[4]) else { usage() }
    let store = openStore(arguments[1])
    report("ready")
    if arguments.count == 6 {
        var waited = 0
        while access(arguments[5], F_OK) != 0 {
            guard waited < 60_000 else { usage() }
            usleep(1000)
            waited += 1
        }
    }
    report("conflicts \(increment(store, session: arguments[2], window: arguments[3], count: count))")
case ("descriptors", 1):
    // The free descriptors below the limit, then with a pipe open: counted in a process of one
    // thread, where nothing else opens or closes a descriptor between the two counts.
    guard let before = DescriptorReserve.free() else { report("uncounted"); exit(0) }
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0, let during = DescriptorReserve.free() else { usage() }
    report("\(before) \(during) \(sysconf(Int32(_SC_OPEN_MAX)))")
case ("backup-pair", 3):
    guard chdir(arguments[2]) == 0 else { usage() }
    let result = FirstBackup()
    let database = arguments[1]
    var thread = pthread_t()
    let started = pthread_create(&thread, nil, runFirstBackup, Unmanaged.passUnretained(result).toOpaque())
    guard started == 0 else { usage() }
    // The first copy's partial file, once it exists.
    var waited = 0
    while !partialCopyExists() {
        guard waited < 60_000 else { usage() }
        usleep(1000)
        waited += 1
    }
    var ahead = WindowStore.Options()
    ahead.clock = { Timestamp(millisecondsSince1970: Timestamp.now().millisecondsSince1970 + 3_600_000) }
    let second = backupOutcome { try WindowStore(path: database, options: ahead).backup(to: "copy.db") }
    pthread_join(thread, nil)
    report("first \(result.outcome)")
    report("second \(second)")
case ("as-user", 3), ("as-user", 4):
    guard let uid = UInt32(arguments[1]), arguments.count == 3 || arguments[3] == "sqlite-check" else { usage() }
    if getuid() != uid {
        guard setgroups(0, nil) == 0, setgid(uid) == 0, setuid(uid) == 0 else {
            report("error cannot become user \(uid): \(String(cString: strerror(errno)))")
            exit(1)
        }
    }
    var options = WindowStore.Options()
    options.readsDescriptor = arguments.count == 3
    let store: WindowStore
    do { store = try WindowStore(path: arguments[2], options: options) } catch { fail(error) }
    let feed: ChangeFeed
    do { feed = try store.changeFeed() } catch { fail(error) }
    report("ready")
    while let line = readLine() {
        do throws(StateStoreError) {
            if line == "poll" {
                report("polled \(try feed.poll().count)")
            } else if line.hasPrefix("save ") {
                let window = String(line.dropFirst("save ".count))
                try store.save(WindowState(session: "s", window: window))
                report("saved \(window)")
            } else {
                usage()
            }
        } catch .replaced {
            report("replaced")
        } catch .io(let failure) {
            report("io \(failure.message)")
        } catch {
            report("error \(error)")
        }
    }
case ("hold", 3):
    guard let seconds = Int(arguments[2]) else { usage() }
    hold(openStore(arguments[1]), seconds: seconds)
default:
    usage()
}

/// Whether a partial copy of `copy.db` is in the working folder.
func partialCopyExists() -> Bool {
    guard let directory = opendir(".") else { return false }
    defer { closedir(directory) }
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name.hasPrefix("copy.db.partial-") { return true }
    }
    return false
}

/// What the first of `backup-pair`'s backups came to, set by its thread before it is joined.
final class FirstBackup: @unchecked Sendable {
    var outcome = ""
}

/// The first of `backup-pair`'s backups, on a thread of its own: `context` is its `FirstBackup`.
func runFirstBackup(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let result = Unmanaged<FirstBackup>.fromOpaque(context!).takeUnretainedValue()
    result.outcome = backupOutcome { try WindowStore(path: CommandLine.arguments[2]).backup(to: "copy.db") }
    return nil
}

/// `ok`, `alreadyExists` (the other backup made the copy first), or the error the backup threw.
func backupOutcome(_ body: () throws -> BackupReport) -> String {
    do {
        _ = try body()
        return "ok"
    } catch StateStoreError.alreadyExists {
        return "alreadyExists"
    } catch {
        return "\(error)"
    }
}
