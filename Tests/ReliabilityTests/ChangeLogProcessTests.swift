import Foundation
import StateStore
import Testing

/// Processes writing at once — imports of 1,500 windows, sessions of 1,500 deleted, single sets —
/// while a feed in this process polls at uneven intervals, sometimes falling far behind: every
/// sequence number the log gave after the feed started is accounted for exactly once, in order,
/// as a change or inside a gap. Nothing is lost silently. `RELIABILITY_PROCESSES` (default 4;
/// half of them write) and `RELIABILITY_FEED_ROUNDS` (default 3) set the load.
struct ChangeLogProcessTests {
    @Test func aFeedAccountsForEveryChangeWhileProcessesWrite() throws {
        let writers = max(2, setting("RELIABILITY_PROCESSES", default: 4) / 2)
        let rounds = setting("RELIABILITY_FEED_ROUNDS", default: 3)
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "before", window: "w"))
        let feed = try store.changeFeed()
        let start = feed.position

        var children: [SpawnedChild] = []
        for writer in 0..<writers {
            let session = "p\(writer)"
            let document = folder.file("\(session).json")
            let windows = (0..<1500).map { #"{"session":"\#(session)","window":"w\#($0)"}"# }
            try Data((#"{"format":"statectl/1","windows":["# + windows.joined(separator: ",") + "]}").utf8)
                .write(to: URL(fileURLWithPath: document))
            let statectl = "'\(statectlPath)' --db '\(path)'"
            let round =
                "\(statectl) import '\(document)' && \(statectl) set \(session) one --push A && \(statectl) delete \(session)"
            var environment = ProcessInfo.processInfo.environment
            environment["STATECTL_DB"] = nil
            children.append(
                try SpawnedChild(
                    "/bin/sh", ["-c", "set -e; for i in $(seq \(rounds)); do \(round) >/dev/null; done"],
                    environment: environment, stderr: .descriptor(2)))
        }

        // Uneven polls: at once, soon, late, very late (an import or two goes by unread).
        let pauses: [UInt32] = [0, 2_000, 40_000, 300_000]
        var events: [ChangeEvent] = []
        var poll = 0
        while children.contains(where: \.isRunning) {
            events += try feed.poll()
            usleep(pauses[poll % pauses.count])
            poll += 1
        }
        for child in children {
            child.waitUntilExit()
            #expect(child.terminationStatus == 0, "a writer failed")
        }
        while true {
            let more = try feed.poll()
            if more.isEmpty { break }
            events += more
        }

        // Every sequence number from the start to the end, once, in order.
        var next = start + 1
        var gaps = 0
        for event in events {
            switch event {
            case .change(let change):
                #expect(change.sequence == next, "change \(change.sequence), expected \(next)")
                next = change.sequence + 1
            case .gap(let gap):
                #expect(gap.first == next, "gap from \(gap.first), expected \(next)")
                next = gap.last + 1
                gaps += 1
            case .unreadable(let row):
                Issue.record("no row was written by hand: \(row)")
                next = row.sequence + 1
            }
        }
        #expect(next == feed.position + 1, "accounted up to \(next - 1) of \(feed.position)")
        let written = writers * rounds * (1500 + 1 + 1501)  // the deletion takes "one" too
        #expect(feed.position - start == Int64(written), "every write logged")
        print("ChangeLogProcessTests: \(writers) writers × \(rounds) rounds, \(events.count) events, \(gaps) gaps")
    }
}
