import Foundation
import StateStore
import Testing

/// A committed write survives a crash of the process. A child (`statestore-stress write`) commits
/// revisions in a loop and acknowledges each on a pipe; it is killed with SIGKILL at a random
/// moment; then the file must pass `integrity_check` and hold every acknowledged revision, each
/// whole. `RELIABILITY_CRASH_ROUNDS` (default 20) sets the number of kills, `RELIABILITY_SEED` the
/// random seed (printed, so a failure can be replayed).
@Suite(.serialized)
struct CrashTests {
    static let session = "crash"
    static let window = "w"

    @Test func killedWriterKeepsEveryAcknowledgedRevisionWhole() throws {
        let folder = TemporaryFolder()
        let path = folder.file("crash.db")
        let rounds = setting("RELIABILITY_CRASH_ROUNDS", default: 20)
        var random = SeededRandom(seed: UInt64(setting("RELIABILITY_SEED", default: Int.random(in: 1...1_000_000))))
        print("CrashTests: \(rounds) rounds, RELIABILITY_SEED=\(random.seed)")

        var acknowledged = 0
        var verifiedUpTo = 0
        for round in 1...rounds {
            let child = try Child(stressHelperPath, ["write", path, Self.session, Self.window])
            // Wait until it writes, so every round kills a writer at work, then let it run for a
            // random while: the kill lands anywhere in the write loop, mid-commit included.
            var lines: [String] = []
            if let first = child.readLine(timeout: .seconds(60)) { lines.append(first) }
            let deadline = ContinuousClock.now + .microseconds(Int(random.next(upTo: 40_000)))
            while ContinuousClock.now < deadline, let line = child.readLine(timeout: deadline - ContinuousClock.now) {
                lines.append(line)
            }
            child.send(SIGKILL)
            // What it wrote before dying was acknowledged too.
            lines += child.remainingLines()
            let termination = try child.wait()
            #expect(termination == .signaled(SIGKILL), "round \(round): \(child.errors) \(lines.suffix(1))")

            for line in lines {
                guard let revision = Int(line) else {
                    Issue.record("round \(round): the writer reported '\(line)'")
                    return
                }
                // A round starts from the window's revision, which may be one past the previous
                // round's last acknowledgement (committed, then killed before it could say so).
                #expect(
                    revision == max(acknowledged, verifiedUpTo) + 1, "round \(round): acknowledgements go up by one")
                acknowledged = revision
            }

            // Check a copy (the database and its WAL, as the dead process left them) so that the
            // next round's writer also starts from a crashed file rather than a cleaned one.
            let copy = folder.file("verify.db")
            try copyDatabase(path, to: copy)
            verifiedUpTo = try verify(copy, acknowledged: acknowledged, from: verifiedUpTo + 1, round: round)
            try? FileManager.default.removeItem(atPath: copy + "-wal")
        }
        #expect(acknowledged >= rounds, "every round wrote")
        // The original itself, every revision read back once more.
        _ = try verify(path, acknowledged: acknowledged, from: 1, round: rounds)
    }

    /// Kills the writer at a random moment from its start, while it creates a new file and
    /// applies the migrations: what it leaves must open as a valid store.
    @Test func killedWhileCreatingTheFileLeavesAnOpenableStore() throws {
        let folder = TemporaryFolder()
        let rounds = max(5, setting("RELIABILITY_CRASH_ROUNDS", default: 20) / 2)
        var random = SeededRandom(seed: UInt64(setting("RELIABILITY_SEED", default: Int.random(in: 1...1_000_000))))
        print("CrashTests (creation): \(rounds) rounds, RELIABILITY_SEED=\(random.seed)")
        for round in 1...rounds {
            let path = folder.file("new-\(round).db")
            let child = try Child(stressHelperPath, ["write", path, Self.session, Self.window])
            usleep(UInt32(random.next(upTo: 30_000)))
            child.send(SIGKILL)
            let lines = child.remainingLines()
            _ = try child.wait()
            let acknowledged = lines.compactMap { Int($0) }.last ?? 0
            let store = try WindowStore(path: path)
            #expect(try store.check().isOK, "round \(round)")
            #expect(try store.migrationStatus().pending.isEmpty)
            let revision = try store.window(session: Self.session, window: Self.window)?.revision ?? 0
            #expect(revision >= acknowledged && revision <= acknowledged + 1, "round \(round)")
        }
    }

    /// A WAL left by a killed process holds commits the main file does not have yet; opening the
    /// file recovers them, even without the shared-memory index.
    @Test func walLeftByAKilledProcessIsRecoveredOnOpen() throws {
        let folder = TemporaryFolder()
        let path = folder.file("wal.db")
        let count = 40
        let child = try Child(stressHelperPath, ["wal", path, Self.session, Self.window, String(count)])
        #expect(child.readLine(timeout: .seconds(60)) == "done", "\(child.errors)")
        child.send(SIGKILL)
        #expect(try child.wait() == .signaled(SIGKILL))

        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(walSize > 0, "the killed process left its WAL")
        // The main file alone lacks the last commits: they live only in the WAL.
        let alone = folder.file("alone.db")
        try FileManager.default.copyItem(atPath: path, toPath: alone)
        let revisionInMainFile = (try? rawQuery(alone, "SELECT max(revision) FROM windows").first).flatMap { $0 }
        #expect(revisionInMainFile != String(count))

        let copy = folder.file("copy.db")
        try copyDatabase(path, to: copy)
        _ = try verify(copy, acknowledged: count, from: 1, round: 0)
        #expect(try WindowStore(path: copy).window(session: Self.session, window: Self.window)?.revision == count)
        // And in place, with the stale shared-memory index beside it.
        _ = try verify(path, acknowledged: count, from: 1, round: 0)
    }

    /// A WAL cut short (a write torn by a power loss) or ending in garbage, and a shared-memory
    /// index full of garbage: the store opens at the last whole commit, every revision up to it
    /// there and whole.
    @Test func tornOrDamagedWALOpensAtTheLastWholeCommit() throws {
        let folder = TemporaryFolder()
        let path = folder.file("torn.db")
        let count = 30
        let child = try Child(stressHelperPath, ["wal", path, Self.session, Self.window, String(count)])
        #expect(child.readLine(timeout: .seconds(60)) == "done", "\(child.errors)")
        child.send(SIGKILL)
        _ = try child.wait()
        let wal = try #require(contents(path + "-wal"))
        let shm = contents(path + "-shm")
        var random = SeededRandom(seed: UInt64(setting("RELIABILITY_SEED", default: 7)))
        var cuts = [32, 100, wal.count / 2, wal.count - 1]
        cuts += (0..<6).map { _ in Int(random.next(upTo: UInt64(wal.count))) }
        var revisions: Set<Int> = []
        for (index, cut) in cuts.enumerated() {
            let copy = folder.file("cut-\(index).db")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            var bytes = wal.prefix(cut)
            if index % 2 == 1 {
                bytes += Data((0..<5000).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            }
            try bytes.write(to: URL(fileURLWithPath: copy + "-wal"))
            if let shm, index % 3 == 0 {
                try Data((0..<shm.count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
                    .write(to: URL(fileURLWithPath: copy + "-shm"))
            }
            let revision = try verify(copy, acknowledged: 0, from: 1, round: -index, exact: false)
            revisions.insert(revision)
        }
        #expect(revisions.count > 1, "the cuts landed in different commits: \(revisions.sorted())")
    }

    /// Opens the store, checks its integrity and that revisions `from...` are present and whole,
    /// and that the window holds the last acknowledged revision or the one after it (committed,
    /// killed before it could say so). Returns the window's revision.
    private func verify(_ path: String, acknowledged: Int, from: Int, round: Int, exact: Bool = true) throws -> Int {
        let store = try WindowStore(path: path)
        let report = try store.check()
        #expect(report.integrity == ["ok"], "round \(round): \(report.integrity.prefix(5))")
        #expect(report.isOK, "round \(round): \(report.schemaProblems)")
        guard let current = try store.window(session: Self.session, window: Self.window) else {
            #expect(acknowledged == 0 || !exact, "round \(round): the window is missing")
            return 0
        }
        if exact {
            #expect(
                current.revision == acknowledged || current.revision == acknowledged + 1,
                "round \(round): window at \(current.revision), acknowledged \(acknowledged)")
        }
        expectWhole(current, round: round)
        // The history holds every revision 1...current (the primary key makes them distinct),
        // and those from `from` on are read back whole.
        let span = try rawQuery(
            path, "SELECT count(*) || ' ' || min(revision) || ' ' || max(revision) FROM window_history")
        #expect(span == ["\(current.revision) 1 \(current.revision)"], "round \(round)")
        let first = min(from, current.revision)
        let recent = try store.history(session: Self.session, window: Self.window, limit: current.revision - first + 1)
        #expect(recent.map(\.revision) == Array((first...current.revision).reversed()), "round \(round)")
        #expect(recent.first == current)
        for state in recent { expectWhole(state, round: round) }
        return current.revision
    }

    /// Revision N carries N in every route (see `revisionState` in the helper): one state made of
    /// two revisions' parts, or a revision number that disagrees with its content, fails here.
    private func expectWhole(_ state: WindowState, round: Int) {
        let n = state.revision
        let tag = "\"n\":\(n),"
        #expect(state.sizeClass == [SizeClass.compact, .regular, .unspecified][n % 3], "round \(round) rev \(n)")
        #expect(state.policy == (n % 2 == 0 ? .migrate : .dismiss), "round \(round) rev \(n)")
        #expect(state.path.count == n % 7 && state.itemPath.count == n % 5, "round \(round) rev \(n)")
        #expect(state.item?.type == "Count", "round \(round) rev \(n)")
        let pad = String(repeating: "x", count: (n &* 7919) % 3000)
        #expect(state.item?.json == "{\"n\":\(n),\"pad\":\"\(pad)\"}", "round \(round) rev \(n)")
        for (i, route) in state.path.enumerated() {
            #expect(route.json == "{\(tag)\"i\":\(i)}", "round \(round) rev \(n)")
        }
        for (i, route) in state.itemPath.enumerated() {
            #expect(route.json == "{\(tag)\"i\":\(100 + i)}", "round \(round) rev \(n)")
        }
    }
}

/// SplitMix64: a small seeded generator, so a failing run can be replayed with its seed.
struct SeededRandom: RandomNumberGenerator {
    let seed: UInt64
    private var state: UInt64

    init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(upTo bound: UInt64) -> UInt64 { next() % bound }
}
