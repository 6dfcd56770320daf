import Foundation
import StateStore
import Testing

/// A host that runs short of file descriptors reports it, and is never killed. The child
/// (`statestore-host descriptors DB SPARE`) starts Dispatch's workers, lowers its `RLIMIT_NOFILE`
/// to leave SPARE descriptors free, opens a `WindowSession`, makes work wait for a worker (so that
/// libdispatch's worker monitor opens `/proc/self/task/TID/stat` for each worker) and lives two
/// more seconds. Before the store kept descriptors in reserve, the spares with which the session
/// took the last one (its feed's inotify watch, or the fallback to polling when even that was
/// missing) died of SIGILL in that monitor.
#if os(Linux)
    struct DescriptorTests {
        let hostPath = builtBinary("statestore-host", environment: "STATESTORE_HOST_BIN")

        /// The free descriptors below the limit are counted exactly: a pipe takes two. Counted by a
        /// child of one thread (`statestore-stress descriptors`), where nothing else opens or closes
        /// one between the counts; in this process the other tests do.
        @Test func freeDescriptorsAreCountedBelowTheLimit() throws {
            let outcome = try run(stressHelperPath, [Array("descriptors".utf8)])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let words = String(decoding: outcome.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace)
            guard words != ["uncounted"] else { return }  // a limit above 65,536: taken as plenty
            let counts = words.compactMap { Int($0) }
            try #require(counts.count == 3, "\(words)")
            let (before, during, limit) = (counts[0], counts[1], counts[2])
            #expect(before > 0 && before < limit)
            #expect(during == before - 2)
        }

        @Test func aHostShortOfDescriptorsReportsItAndIsNeverKilled() throws {
            let folder = TemporaryFolder()
            let database = folder.file("state.db")
            try WindowStore(path: database).save(WindowState(session: "app", window: "main"))
            var openRefused = 0
            var feedRefused = 0
            var watching = 0
            // All at once: each lives about three seconds, most of it waiting.
            let spares = Array(0...24)
            let children = try spares.map { spare in
                try Child(hostPath, [Array("descriptors".utf8), Array(database.utf8), Array("\(spare)".utf8)])
            }
            for (spare, child) in zip(spares, children) {
                let run = Outcome(termination: try child.wait(), stdout: child.collectedOut, stderr: child.collectedErr)
                let lines = run.out.split(separator: "\n").map(String.init)
                #expect(run.termination != .signaled(SIGILL), "spare \(spare): \(run.out) \(run.err)")
                guard case .exited = run.termination else {
                    Issue.record("spare \(spare) was killed: \(run.termination) \(run.out) \(run.err)")
                    continue
                }
                if let opened = lines.first(where: { $0.hasPrefix("opened inMemory") }) {
                    // Open refused: the session's own connection would have left too few, so the
                    // app launches in memory (recoverUnusableFile, on by default) and says why.
                    #expect(opened.contains("too few file descriptors to "), "\(lines)")
                    #expect(lines.contains("notification none"), "\(lines)")
                    openRefused += 1
                    continue
                }
                #expect(run.status == 0, "spare \(spare): \(run.out) \(run.err)")
                #expect(lines.last == "done", "spare \(spare): \(lines)")
                let lastError = lines.first { $0.hasPrefix("lastError ") } ?? ""
                if lastError.contains("too few file descriptors to ") {
                    // The feed's connection or its watch refused, and reported: the feed polls
                    // (which opens nothing), or tries again to be made.
                    #expect(
                        lines.contains {
                            $0.hasPrefix("notification polling (") && $0.contains("too few file descriptors")
                        },
                        "\(lines)")
                    feedRefused += 1
                } else {
                    #expect(lastError == "lastError none", "spare \(spare): \(lines)")
                    #expect(lines.contains { $0.hasPrefix("notification file notifications on ") }, "\(lines)")
                    watching += 1
                }
            }
            #expect(openRefused > 0)
            #expect(feedRefused > 0, "the feed's watch refused, the session open, polling, and the error in lastError")
            #expect(watching > 0)
        }
    }
#endif
