import Foundation
import StateStore
import Testing

/// A reader that may not write: a WAL store in a folder the reader cannot write is read, idle or
/// with a writer live; a file the reader cannot read is called that. Everything here runs as
/// root, whom file modes do not stop: statectl runs as another user (`setpriv`, as `nobody`),
/// as a colleague would read a store someone else's app keeps, and `chattr +i` stops root too.
struct ReaderAccessTests {
    /// The commands that only read or report, each expected to exit 0.
    static let readingCommands: [[String]] = [
        ["list", "--json"], ["show", "s", "w"], ["restore", "s", "w", "--size-class", "compact"],
        ["history", "s", "w"], ["export"], ["prune", "--older-than", "1s", "--dry-run"], ["check"],
        ["migrate", "--status"],
    ]

    /// A store at rest (no `-wal`, no `-shm`) in a folder only root may write.
    static func storeAtRest() throws -> Fixture {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("A")) }
        try fixture.save("s", "v") { $0.present(route("Sheet")) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fixture.folder)
        #expect(fixture.contents(of: fixture.folder).filter { $0.hasPrefix("state.db") } == ["state.db"])
        return fixture
    }

    /// `statectl --db <database> arguments` run as `nobody`.
    static func asAnotherUser(_ fixture: Fixture, _ arguments: [String]) throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        environment["STATECTL_DB"] = nil
        environment.merge(fixture.environment) { $1 }
        let output = TemporaryFolder(prefix: "statectl-nobody-")
        chmod(output.path, 0o777)
        let status = try spawnAndWait(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", "--", statectlPath, "--db", fixture.database]
                + arguments,
            environment: environment, stdout: .file(output.file("out")), stderr: .file(output.file("err")))
        return Run(
            status: status, stdout: try String(contentsOfFile: output.file("out"), encoding: .utf8),
            stderr: try String(contentsOfFile: output.file("err"), encoding: .utf8))
    }

    @Test func aWALStoreAtRestInAFolderTheReaderCannotWriteIsRead() throws {
        let fixture = try Self.storeAtRest()
        let bytes = try #require(contents(fixture.database))
        for arguments in Self.readingCommands {
            let run = try Self.asAnotherUser(fixture, arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }
        let list = try Self.asAnotherUser(fixture, ["list", "--json"])
        #expect(try jsonArray(list.stdout).map { $0["window"] as? String } == ["v", "w"])
        #expect(fixture.contents(of: fixture.folder).filter { $0.hasPrefix("state.db") } == ["state.db"])
        #expect(contents(fixture.database) == bytes, "not a byte changed")
        // Writing still says why it cannot.
        let set = try Self.asAnotherUser(fixture, ["set", "s", "w", "--dismiss"])
        #expect(set.status == 74)
        #expect(set.stderr.contains("not writable"), "\(set.stderr)")
    }

    /// A writer holds the file open (its `-wal` and `-shm` beside it, which the reader cannot
    /// write): the reader reads through them, the latest commit included.
    @Test func aWALStoreWithALiveWriterInAFolderTheReaderCannotWriteIsRead() throws {
        let fixture = try Self.storeAtRest()
        let writer = try fixture.store()
        try writer.update(session: "s", window: "w") { $0.push(route("Latest")) }
        #expect(fixture.exists(fixture.database + "-wal"))
        for arguments in Self.readingCommands {
            let run = try Self.asAnotherUser(fixture, arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }
        let show = try Self.asAnotherUser(fixture, ["show", "s", "w", "--json"])
        #expect(try jsonObject(show.stdout)["revision"] as? Int == 2, "the commit still in the WAL")
        try writer.update(session: "s", window: "w") { try $0.pop(1) }
        let again = try Self.asAnotherUser(fixture, ["show", "s", "w", "--json"])
        #expect(try jsonObject(again.stdout)["revision"] as? Int == 3)
    }

    /// The same with the folder made immutable (`chattr +i`): root reads it too.
    @Test func aWALStoreAtRestInAnImmutableFolderIsRead() throws {
        let (scratch, reason) = immutableCapableFolder()
        guard let folder = scratch else { try Test.cancel("chattr +i is not possible here: \(reason)") }
        let inner = folder.file("locked")
        let database = inner + "/state.db"
        let set = try statectl(["--db", database, "set", "s", "w", "--push", "A"])
        #expect(set.status == 0, "\(set.stderr)")
        if let reason = makeImmutable(inner) { try Test.cancel("\(reason)") }
        defer { makeMutable(inner) }
        for arguments in Self.readingCommands {
            let run = try statectl(["--db", database] + arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: inner)) == ["state.db"])
    }

    @Test func aFileTheReaderCannotReadIsCalledThat() throws {
        let fixture = try Self.storeAtRest()
        chmod(fixture.folder, 0o777)
        chmod(fixture.database, 0o000)
        for arguments in [["list"], ["show", "s", "w"], ["check"], ["set", "s", "w", "--dismiss"]] {
            let run = try Self.asAnotherUser(fixture, arguments)
            #expect(run.status == 74, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("\(fixture.database) is not readable: Permission denied"), "\(run.stderr)")
            #expect(!run.stderr.contains("not writable"), "\(run.stderr)")
        }
    }
}
