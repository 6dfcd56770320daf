import Foundation
import StateStore
import StateStoreSQLite
import Testing

/// Database paths that are not plain files: devices, FIFOs, and names SQLite would read as URIs.
struct SpecialPathTests {
    /// A FIFO or a device is refused before SQLite opens it (SQLite would, and then write its
    /// journal beside it: `/dev/null-journal`).
    @Test func aDeviceOrFIFOIsNotADatabase() throws {
        let folder = TemporaryFolder()
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
            try WindowStore(path: "/dev/null")
        } throws: { ($0 as? StateStoreError)?.isIO == true }
        if !journalExisted {
            #expect(!exists("/dev/null-journal"), "nothing written into /dev")
            try? FileManager.default.removeItem(atPath: "/dev/null-journal")
        }
    }

    /// `file:x.db?mode=memory` is a file of that name, as for any other path, not an SQLite URI
    /// (which would open a database in memory, or pass options such as `nolock=1`).
    @Test func aNameStartingWithFileColonIsAFileName() throws {
        let folder = TemporaryFolder()
        let name = "file:state.db?mode=memory&nolock=1"
        // Relative to a working folder of its own: run through sh to change into it.
        let script = #"cd "$0" && exec "$1" --db "$2" set s w --push A:1"#
        let outcome = try run("/bin/sh", ["-c", script, folder.path, statectlPath, name].map { Array($0.utf8) })
        #expect(outcome.status == 0, "\(outcome.err)")
        #expect(exists(folder.file(name)), "stored in a file of that name")
        let store = try WindowStore(path: folder.file(name))
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
        #expect(try WindowStore(path: folder.file(":memory:")).window(session: "s", window: "w")?.revision == 1)
    }

    // MARK: Paths SQLite cannot take, and failed creates

    /// The longest full path SQLite's unix VFS takes for a database: its limit less room for the
    /// `-journal` it names beside it.
    static let longestPath = Int(sqlite3_vfs_find(nil).pointee.mxPathname) - "-journal".utf8.count

    /// A path of `length` bytes under `folder`, through folders of 200-byte names.
    static func path(under folder: String, length: Int) -> String {
        var path = folder
        while length - path.utf8.count > 220 { path += "/" + String(repeating: "d", count: 200) }
        return path + "/" + String(repeating: "f", count: length - path.utf8.count - 1)
    }

    /// Everything under `folder`, recursively, sorted.
    static func tree(_ folder: String) -> [String] {
        (FileManager.default.subpaths(atPath: folder) ?? []).sorted()
    }

    /// A path longer than SQLite takes is refused, saying so, before any folder is created; one
    /// of exactly the longest length works.
    @Test func aPathTooLongForSQLiteSaysSoAndCreatesNothing() throws {
        let folder = TemporaryFolder()
        let tooLong = Self.path(under: folder.path, length: Self.longestPath + 1)
        #expect(tooLong.utf8.count == Self.longestPath + 1)
        #expect {
            try WindowStore(path: tooLong)
        } throws: { error in
            guard case .io(let failure) = error as? StateStoreError else { return false }
            return failure.message.contains("too long for SQLite")
                && failure.message.contains("at most \(Self.longestPath)")
        }
        let outcome = try statectl(["--db", tooLong, "set", "s", "w", "--push", "A"])
        #expect(outcome.status == 74, "\(outcome.err)")
        #expect(outcome.err.contains("too long for SQLite"), "\(outcome.err)")
        #expect(Self.tree(folder.path).isEmpty, "no folder created: \(Self.tree(folder.path))")

        let longest = Self.path(under: folder.path, length: Self.longestPath)
        let store = try WindowStore(path: longest)
        try store.save(WindowState(session: "s", window: "w"))
        #expect(try store.window(session: "s", window: "w")?.revision == 1)
    }

    /// A create that fails after it made folders — a file name or a folder name longer than the
    /// file system takes — removes exactly the folders it made, never one that was there.
    @Test func aFailedCreateRemovesTheFoldersItMade() throws {
        let folder = TemporaryFolder()
        let existing = folder.file("existing")
        try FileManager.default.createDirectory(atPath: existing + "/kept", withIntermediateDirectories: true)
        let longName = String(repeating: "n", count: 300)
        let cases = [
            existing + "/new1/new2/" + longName + ".db",  // the folders are made; the file cannot be
            existing + "/kept/new1/" + longName + "/state.db",  // the second folder cannot be made
        ]
        for path in cases {
            #expect("\(path)") {
                try WindowStore(path: path)
            } throws: { ($0 as? StateStoreError)?.isIO == true }
            #expect(Self.tree(folder.path) == ["existing", "existing/kept"])
            let outcome = try statectl(["--db", path, "set", "s", "w", "--push", "A"])
            #expect(outcome.status == 74, "\(outcome.err)")
            #expect(Self.tree(folder.path) == ["existing", "existing/kept"])
        }
    }

    /// A `-wal` or `-shm` beside the database that is a folder or a symbolic link (SQLite refuses
    /// to follow one) is named in the error, through the library and the binary.
    @Test(arguments: ["-wal", "-shm"], ["folder", "link"])
    func aWALOrSHMThatIsAFolderOrALinkIsNamed(_ suffix: String, _ kind: String) throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        try WindowStore(path: path).save(WindowState(session: "s", window: "w"))
        #expect(!exists(path + suffix))
        if kind == "folder" {
            try FileManager.default.createDirectory(atPath: path + suffix, withIntermediateDirectories: false)
        } else {
            #expect(symlink(folder.file("elsewhere"), path + suffix) == 0)
        }
        let named = "\(path)\(suffix) is a \(kind == "folder" ? "folder" : "symbolic link")"
        let isNamed = { (error: any Error) -> Bool in
            guard case .io(let failure) = error as? StateStoreError else { return false }
            return failure.message.contains(named)
        }
        // Opening may work (SQLite reads without a `-shm` it can map), but not writing.
        do {
            let store = try WindowStore(path: path)
            #expect { try store.save(WindowState(session: "s", window: "x")) } throws: { isNamed($0) }
        } catch {
            #expect(isNamed(error), "\(error)")
        }
        let outcome = try statectl(["--db", path, "set", "s", "w", "--push", "A"])
        #expect(outcome.status == 74, "\(outcome.err)")
        #expect(outcome.err.contains(named), "\(outcome.err)")
        try FileManager.default.removeItem(atPath: path + suffix)
        #expect(try rawQuery(path, "SELECT count(*) FROM windows") == ["1"], "nothing written")
    }
}
