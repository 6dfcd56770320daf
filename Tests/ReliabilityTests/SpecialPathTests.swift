import Foundation
import StateStore
import Testing

/// Database paths that are not plain files: devices, FIFOs, and names SQLite would read as URIs.
struct SpecialPathTests {
    /// A FIFO or a device is refused before SQLite opens it (SQLite would, and then write its
    /// journal beside it: `/dev/null-journal`).
    @Test func aDeviceOrFIFOIsNotADatabase() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let fifo = folder.file("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        for arguments in [["list"], ["set", "s", "w", "--push", "A"], ["check"]] {
            let outcome = try statectl(["--db", fifo] + arguments)
            #expect(outcome.termination == .exited(74), "\(arguments): \(outcome.err)")
            #expect(outcome.err.contains("not a database file"), "\(outcome.err)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["fifo"], "nothing beside it")

        let journalExisted = exists("/dev/null-journal")
        #expect {
            try StateStore(path: "/dev/null")
        } throws: { ($0 as? StateStoreError)?.exitCode == 74 }
        if !journalExisted {
            #expect(!exists("/dev/null-journal"), "nothing written into /dev")
            try? FileManager.default.removeItem(atPath: "/dev/null-journal")
        }
    }

    /// `file:x.db?mode=memory` is a file of that name, as for any other path, not an SQLite URI
    /// (which would open a database in memory, or pass options such as `nolock=1`).
    @Test func aNameStartingWithFileColonIsAFileName() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let name = "file:state.db?mode=memory&nolock=1"
        // Relative to a working folder of its own: run through sh to change into it.
        let script = #"cd "$0" && exec "$1" --db "$2" set s w --push A:1"#
        let outcome = try run("/bin/sh", ["-c", script, folder.path, statectlPath, name].map { Array($0.utf8) })
        #expect(outcome.status == 0, "\(outcome.err)")
        #expect(exists(folder.file(name)), "stored in a file of that name")
        let store = try StateStore(path: folder.file(name))
        #expect(try store.window(session: "s", window: "w")?.path.map(\.description) == ["A:1"])
    }

    /// `statectl` with `arguments` in `folder` (its working folder), with `environment` added.
    private func statectlIn(_ folder: String, _ arguments: [String], environment: String = "") throws -> Outcome {
        let script = #"cd "$0" && exec env \#(environment) "$@""#
        return try run("/bin/sh", (["-c", script, folder, statectlPath] + arguments).map { Array($0.utf8) })
    }

    /// `:memory:` on the command line would be SQLite's in-memory database, which keeps nothing: a
    /// path there is always a file, so it is refused as a usage error (64) before anything is
    /// opened — from `--db` and from `STATECTL_DB` alike, winning over bad data — and the message
    /// says how to name a file of that name. `demo` without `--db` ignores `STATECTL_DB`.
    @Test func memoryIsRefusedAndDotSlashMemoryIsAFile() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let spellings: [(arguments: [String], environment: String)] = [
            (["--db", ":memory:"], ""), (["--db=:memory:"], ""), ([], "STATECTL_DB=:memory:"),
        ]
        for (global, environment) in spellings {
            for command in [
                ["set", "s", "w", "--push", "A"], ["list"], ["set", "s", "w", "--push", "Bad:{"], ["demo"],
            ] {
                if command == ["demo"] && global.isEmpty { continue }
                let outcome = try statectlIn(folder.path, global + command, environment: environment)
                #expect(outcome.status == 64, "\(global) \(environment) \(command): \(outcome.err)")
                #expect(outcome.err.contains("./:memory:"), "\(outcome.err)")
                #expect(outcome.err.contains("Usage: statectl \(command[0])"), "\(outcome.err)")
                #expect(outcome.out.isEmpty)
            }
        }
        let demo = try statectlIn(folder.path, ["demo"], environment: "STATECTL_DB=:memory:")
        #expect(demo.status == 0, "\(demo.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [], "nothing created")

        let set = try statectlIn(folder.path, ["--db", "./:memory:", "set", "s", "w", "--push", "A:1"])
        #expect(set.status == 0, "\(set.err)")
        let list = try statectlIn(folder.path, ["list", "--json"], environment: "STATECTL_DB=./:memory:")
        #expect(list.status == 0 && list.out.contains(#""revision":1"#), "\(list.out) \(list.err)")
        #expect(try StateStore(path: folder.file(":memory:")).window(session: "s", window: "w")?.revision == 1)
    }
}
