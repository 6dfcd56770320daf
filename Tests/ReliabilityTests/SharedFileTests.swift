import Foundation
import StateStore
import Testing

/// Several stores and feeds in one process share one file with other processes, and no acknowledged
/// write is lost. POSIX advisory locks belong to the process, so a descriptor of the database
/// opened and closed outside SQLite would drop the locks of every connection the process has on it;
/// the next other process to close would then checkpoint and delete the WAL that this process still
/// commits into.
@Suite(.serialized)
struct SharedFileTests {
    /// A write through the first store, acknowledged after another process opened and closed
    /// the file.
    enum WritePath: String, CaseIterable, CustomTestStringConvertible {
        case save, update, importDocument, revert, deleteWindow, deleteSession, replaceSession

        var testDescription: String { rawValue }

        func write(_ store: WindowStore) throws {
            switch self {
            case .save:
                try store.save(WindowState(session: "s", window: "w", sizeClass: .regular, path: [route("A", "2")]))
            case .update:
                try store.update(session: "s", window: "w") { $0.push(route("B", "2")) }
            case .importDocument:
                let document = try StateDocument(
                    utf8: Array(#"{"format":"statectl/1","windows":[{"session":"s","window":"w","path":[]}]}"#.utf8))
                try store.importDocument(document)
            case .revert:
                try store.revert(session: "s", window: "w", to: 1)
            case .deleteWindow:
                #expect(try store.deleteWindow(session: "s", window: "w"))
            case .deleteSession:
                #expect(try store.deleteSession("s") == ["other", "w"])
            case .replaceSession:
                try store.replaceSession("s", with: [WindowState(session: "s", window: "new")])
            }
        }
    }

    /// What else the process opens on the file before the other process comes and goes.
    enum Neighbour: String, CaseIterable, CustomTestStringConvertible {
        /// A second `WindowStore` on the same path (a host with a store per window).
        case secondStore
        /// A change feed, opened and polled.
        case feed

        var testDescription: String { rawValue }
    }

    /// Open A, write, open a neighbour on the same path, let another process (`statectl list`)
    /// open and close the file, write through A: another process then sees that write, and the
    /// file passes the integrity check.
    @Test(arguments: WritePath.allCases, Neighbour.allCases)
    func aWriteAfterAnotherProcessCameAndWentIsKept(path write: WritePath, neighbour: Neighbour) throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        do {
            let store = try WindowStore(path: path)
            try store.save(WindowState(session: "s", window: "w", sizeClass: .compact, path: [route("A", "1")]))
            try store.update(session: "s", window: "w") { $0.push(route("B", "1")) }
            try store.save(WindowState(session: "s", window: "other"))

            var keptOpen: [AnyObject] = []
            switch neighbour {
            case .secondStore:
                let second = try WindowStore(path: path)
                #expect(try second.window(session: "s", window: "w")?.revision == 2)
                keptOpen.append(second)
            case .feed:
                let feed = try store.changeFeed()
                #expect(try feed.poll().isEmpty)
                keptOpen.append(feed)
            }
            let list = try statectl(["--db", path, "list"])
            #expect(list.status == 0, "\(list.err)")

            try write.write(store)
            if case .feed = neighbour, let feed = keptOpen.first as? ChangeFeed {
                #expect(!(try feed.poll().isEmpty), "the feed sees the write")
            }

            // Another process reads what this one acknowledged, while this one still has it open.
            var expected: [UInt8] = []
            try store.export { expected += $0 }
            let export = try statectl(["--db", path, "export"])
            #expect(export.status == 0, "\(export.err)")
            #expect(export.out == String(decoding: expected, as: UTF8.self) + "\n", "\(write): the write is there")
            withExtendedLifetime(keptOpen) {}
        }
        let check = try statectl(["--db", path, "check"])
        #expect(check.status == 0, "\(check.out) \(check.err)")
        #expect(try rawQuery(path, "PRAGMA integrity_check") == ["ok"])
    }

    /// Many rounds of a store opened beside a live one, another process coming and going, and a
    /// write (`RELIABILITY_SHARED_ROUNDS`, default 5): every acknowledged revision is there.
    @Test func roundsOfOpeningsBesideALiveStoreLoseNoWrite() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let rounds = setting("RELIABILITY_SHARED_ROUNDS", default: 5)
        let store = try WindowStore(path: path)
        for round in 1...rounds {
            let neighbour = try WindowStore(path: path)
            let list = try statectl(["--db", path, "list", "--json"])
            #expect(list.status == 0, "\(list.err)")
            let written = try store.update(session: "s", window: "w") { $0.push(route("R", String(round))) }
            #expect(try neighbour.window(session: "s", window: "w")?.revision == written.revision)
            let show = try statectl(["--db", path, "show", "s", "w", "--json"])
            #expect(show.out.contains(#""revision":\#(round),"#), "round \(round): \(show.out) \(show.err)")
        }
        #expect(try rawQuery(path, "PRAGMA integrity_check") == ["ok"])
    }

    /// Opening a damaged file looks at the `-journal` and `-wal` beside it with descriptors of its
    /// own; one that is a second name of a database this process has open (a hard link) is not
    /// opened, so the live store keeps its locks: another process coming and going then leaves
    /// its WAL alone, and the live store's next write is there.
    @Test func aWALThatIsASecondNameOfALiveDatabaseIsNotOpenedOutsideSQLite() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "s", window: "w"))
        let damaged = folder.file("damaged.db")
        try Data(repeating: 0x2a, count: 4096).write(to: URL(fileURLWithPath: damaged))
        #expect(link(path, damaged + "-wal") == 0)
        #expect(throws: StateStoreError.self) { try WindowStore(path: damaged) }
        #expect(unlink(damaged + "-wal") == 0)

        let list = try statectl(["--db", path, "list"])
        #expect(list.status == 0, "\(list.err)")
        try store.update(session: "s", window: "w") { $0.push(route("A", "1")) }
        let show = try statectl(["--db", path, "show", "s", "w", "--json"])
        #expect(
            show.out.contains(#""revision":2,"#),
            "the write after another process came and went: \(show.out) \(show.err)")
    }
}
