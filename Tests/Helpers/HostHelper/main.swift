// statestore-host: a host process for the reliability tests (Tests/ReliabilityTests), linking
// StateStoreHost as an app does, with Dispatch and Foundation running.
//
//   statestore-host descriptors DB SPARE
//       Starts Dispatch's worker threads and timers (as an app's async work does: libdispatch's
//       worker monitor then looks at each worker every second, opening /proc/self/task/TID/stat
//       on Linux), lowers RLIMIT_NOFILE so that SPARE descriptors are free, opens a
//       WindowSession on DB with a model of window `main`, makes work wait for a worker, and lives 2 more
//       seconds. Prints
//       `free N`, then `opened RECOVERY`, `notification NOTIFICATION`, `lastError ERROR` and
//       `done`. An error thrown by open: `error MESSAGE`, exit 1.
//
// Linux only (/proc/self/fd, and the trap it reproduces is libdispatch's on Linux).
//
// Exit status: 0 done, 64 bad arguments, 1 open failed.

import Foundation
import StateStore
import StateStoreHost

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3, arguments[0] == "descriptors", let spare = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: statestore-host descriptors DB SPARE\n".utf8))
    exit(64)
}
let path = arguments[1]

// Dispatch's workers, kept busy past the session's opening so that the monitor looks at them, and its
// timers (Task.sleep), so that what it needs for them is made before the limit is lowered.
for _ in 0..<2 {
    DispatchQueue.global().async { Thread.sleep(forTimeInterval: 2.5) }
}
try await Task.sleep(for: .milliseconds(20))

// The lowest limit below which exactly SPARE numbers are free: descriptors are given lowest
// first, and one above the limit (inherited from the parent) stays open but takes no place.
let open = Set((try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).compactMap { Int($0) })
var lowest = 0
var free = 0
while free < spare || open.contains(lowest) {
    if !open.contains(lowest) { free += 1 }
    lowest += 1
}
var limit = rlimit()
#if canImport(Glibc)
    getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = rlim_t(lowest)
    setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
#else
    getrlimit(RLIMIT_NOFILE, &limit)
    limit.rlim_cur = rlim_t(lowest)
    setrlimit(RLIMIT_NOFILE, &limit)
#endif
say("free \(free)")

do {
    let session = try await WindowSession.open(path: path, session: "app")
    say("opened \(session.recovery)")
    let model = session.window("main", as: Route.self)
    model.environmentChanged(sizeClass: .regular, isActive: true)  // in the foreground: the feed starts
    // Work that waits for a worker while the others are busy: the monitor counts the runnable
    // workers then, to decide whether to start another.
    for _ in 0..<4 {
        DispatchQueue.global().async { Thread.sleep(forTimeInterval: 0.5) }
    }
    try await Task.sleep(for: .seconds(2))
    say("notification \(session.changeNotification.map { "\($0)" } ?? "none")")
    say("lastError \(model.lastError.map { "\($0)" } ?? "none")")
    say("done")
} catch {
    say("error \(error)")
    exit(1)
}
