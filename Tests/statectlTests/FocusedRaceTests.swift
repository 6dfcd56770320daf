import Foundation
import StateStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `set SESSION --focused` finds the focused window and writes it under one write lock: a window
/// deleted by another process before `set` has the lock is no longer focused, so `set` exits 66
/// and writes nothing, instead of making the deleted window again.
struct FocusedRaceTests {
    /// The race made certain: another connection deletes the focused window and holds its write
    /// lock, not yet committed, while `statectl set --focused` starts; once statectl sleeps
    /// waiting for the lock (in SQLite's busy handler), the delete commits. Looking the window up
    /// before waiting would find it and then write it fresh.
    @Test func aFocusedWindowDeletedWhileSetWaitsForTheLockIsNotMadeAgain() throws {
        for _ in 1...3 {
            let fixture = Fixture()
            try fixture.save("s", "w") { $0.push(route("A")) }
            try fixture.store().focus(session: "s", window: "w")
            let deleter = try WriteLock(fixture.database)
            try deleter.execute("DELETE FROM windows WHERE session = 's' AND window = 'w'")
            let child = try SpawnedChild(
                statectlPath, ["--db", fixture.database, "set", "s", "--focused", "--push", "B"],
                environment: Self.environment(fixture), stdout: .file(fixture.path("out")),
                stderr: .file(fixture.path("err")))
            try Self.waitUntilWaitingForALock(child)
            try deleter.commit()
            child.waitUntilExit()
            let stderr = try String(contentsOfFile: fixture.path("err"), encoding: .utf8)
            #expect(child.terminationStatus == 66, "\(stderr)")
            #expect(stderr == "Error: session 's' has no focused window\n")
            #expect(try fixture.store().window(session: "s", window: "w") == nil, "the deleted window stays deleted")
            #expect(try fixture.store().scene(session: "s", window: "w") == nil)
        }
    }

    /// The race as it happens: `statectl set --focused` and `statectl delete` started together,
    /// 100 times; whichever commits first, the window is gone at the end and `set` either wrote
    /// it before the delete (0) or found no focused window (66).
    @Test func setFocusedRacingADeleteNeverMakesTheWindowAgain() throws {
        let fixture = Fixture()
        var outcomes: [Int32: Int] = [:]
        for round in 1...100 {
            let window = "w\(round)"
            try fixture.save("s", window) { $0.push(route("A")) }
            try fixture.store().focus(session: "s", window: window)
            let set = try SpawnedChild(
                statectlPath, ["--db", fixture.database, "set", "s", "--focused", "--push", "B"],
                environment: Self.environment(fixture))
            let delete = try SpawnedChild(
                statectlPath, ["--db", fixture.database, "delete", "s", window], environment: Self.environment(fixture))
            set.waitUntilExit()
            delete.waitUntilExit()
            #expect(delete.terminationStatus == 0)
            #expect([0, 66].contains(set.terminationStatus), "round \(round)")
            outcomes[set.terminationStatus, default: 0] += 1
            #expect(try fixture.store().window(session: "s", window: window) == nil, "round \(round): made again")
        }
        #expect(outcomes.values.reduce(0, +) == 100)
    }

    static func environment(_ fixture: Fixture) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["STATECTL_DB"] = nil
        return environment.merging(fixture.environment) { $1 }
    }

    /// Returns once `child` sleeps in `nanosleep` (SQLite's busy handler waiting for the lock:
    /// statectl sleeps nowhere else) or has ended; fails after 30 s.
    static func waitUntilWaitingForALock(_ child: SpawnedChild) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while child.isRunning {
            let channel = (try? String(contentsOfFile: "/proc/\(child.pid)/wchan", encoding: .utf8)) ?? ""
            if channel.contains("nanosleep") { return }
            guard ContinuousClock.now < deadline else {
                throw FixtureError(message: "statectl never waited for the lock (wchan '\(channel)')")
            }
            usleep(200)
        }
    }
}
