import Foundation
import StateStore
import StateStoreHost
import Testing

/// `recoverUnusableFile`, on by default for hosts: a damaged file is moved aside (old bytes intact)
/// and a fresh store started; a newer schema, a file that is not ours or not SQLite is never
/// touched — the session runs in memory for this launch, and `flush` says `false` (nothing is
/// durable). Either way the app launches, and `recovery` and `storageIssue` say so.
@MainActor
struct RecoveryTests {
    func options(_ fixture: HostFixture) -> WindowSession.Options {
        var options = fixture.options()
        options.recoverUnusableFile = true
        return options
    }

    /// A store whose schema page is overwritten: SQLite reads the header, then finds it corrupt.
    func damagedStore(_ fixture: HostFixture) throws -> Data {
        try writeManyPagesStore(at: fixture.database, windows: 20)
        var bytes = try #require(contents(fixture.database))
        for index in 100..<4096 { bytes[index] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: fixture.database))
        return bytes
    }

    @Test func aDamagedFileIsMovedAsideAndAFreshStoreStarted() async throws {
        let fixture = HostFixture()
        let damaged = try damagedStore(fixture)
        try Data("older".utf8).write(to: URL(fileURLWithPath: fixture.database + ".unusable-20200101T000000Z"))
        var off = fixture.options()
        off.recoverUnusableFile = false
        await #expect(throws: StateStoreError.self) { _ = try await fixture.open(options: off) }

        let session = try await fixture.open()
        guard case .movedAside(let movedTo, _) = session.recovery else {
            Issue.record("recovery says the file was moved aside, not \(session.recovery)")
            return
        }
        #expect(session.storageIssue?.kind == .damagedFileMovedAside(to: movedTo))
        #expect(contents(movedTo) == damaged, "the damaged bytes are kept as they were")
        #expect(!exists(fixture.database + ".unusable-20200101T000000Z"), "only the last such file is kept")
        let model = session.window("main", as: Mail.self)
        model.push(.folder("inbox"))
        #expect(await session.flush())
        #expect(try fixture.store().window(session: "app", window: "main")?.revision == 1)
    }

    @Test(arguments: ["newer schema", "not ours", "not SQLite"])
    func anUnusableFileIsLeftUntouchedAndTheSessionRunsInMemory(_ kind: String) async throws {
        let fixture = HostFixture()
        switch kind {
        case "newer schema":
            try fixture.store().save(WindowState(session: "app", window: "main"))
            try rawSQL(fixture.database, "PRAGMA user_version = 999")
        case "not ours":
            try rawSQL(fixture.database, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
        default:
            try Data("just some text, not a database at all".utf8).write(to: URL(fileURLWithPath: fixture.database))
        }
        let before = try #require(contents(fixture.database))
        let session = try await fixture.open(options: options(fixture))
        guard case .inMemory = session.recovery else {
            Issue.record("recovery says in memory, not \(session.recovery)")
            return
        }
        #expect(session.storageIssue?.kind == .runningInMemory)
        let model = session.window("main", as: Mail.self)
        model.push(.folder("inbox"))
        #expect(model.path == [.folder("inbox")])
        #expect(await session.flush() == false, "in memory, nothing is durable")
        #expect(model.lastError == nil, "the model works on")
        #expect(contents(fixture.database) == before, "not a byte changed")
        let folder = (fixture.database as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("unusable") }.isEmpty)
    }
}
