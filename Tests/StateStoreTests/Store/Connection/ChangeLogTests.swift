import Foundation
import StateStore
import Testing

/// The change log never loses what one write made, and a feed that falls behind it says so: a gap
/// in order with the changes, then the changes the log still holds. A row written by hand that
/// cannot be read is reported and skipped, never the end of the feed.
struct ChangeLogTests {
    static func document(_ count: Int, session: String = "big") throws -> StateDocument {
        StateDocument(windows: (0..<count).map { WindowState(session: session, window: "w\($0)") })
    }

    /// `description` of each event: `s/w@3`, `s/w@deleted`, `gap 1–499`, `unreadable 7 s/w`.
    static func summary(_ events: [ChangeEvent]) -> [String] {
        events.map { event in
            switch event {
            case .change(let change):
                "\(change.session)/\(change.window)@\(change.revision.map(String.init) ?? "deleted")"
            case .gap(let gap): "gap \(gap.first)–\(gap.last)"
            case .unreadable(let change): "unreadable \(change.sequence) \(change.session)/\(change.window)"
            }
        }
    }

    @Test func oneImportAndOneDeletedSessionOfManyWindowsAreSeenWhole() throws {
        let folder = TemporaryFolder()
        let store = try WindowStore(path: folder.file("state.db"))
        try store.save(WindowState(session: "other", window: "w"))
        let feed = try store.changeFeed()

        try store.importDocument(try Self.document(1500))
        let imported = try feed.poll()
        #expect(imported.count == 1500)
        #expect(Self.summary(imported) == (0..<1500).map { "big/w\($0)@1" })

        #expect(try store.deleteSession("big").count == 1500)
        let deleted = try feed.poll()
        #expect(deleted.count == 1500)
        #expect(Set(Self.summary(deleted)) == Set((0..<1500).map { "big/w\($0)@deleted" }))
        #expect(deleted.allSatisfy { $0.change?.sequence ?? 0 > imported.last?.change?.sequence ?? .max })
    }

    @Test func aWriteByHandOnlyLetsTheLogGrow() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        let feed = try store.changeFeed()
        let rows = (0..<1500).map {
            "('hand', 'w\($0)', 'compact', '[]', NULL, '[]', 'migrate', 1, 0, 'automatic', NULL, NULL)"
        }
        try rawSQL(
            path,
            "INSERT INTO windows (\(WindowRow.columns)) VALUES " + rows.joined(separator: ", "))
        let events = try feed.poll()
        #expect(Self.summary(events) == (0..<1500).map { "hand/w\($0)@1" })
    }

    @Test func aFeedFarBehindGetsAGapThenWhatTheLogHolds() throws {
        let folder = TemporaryFolder()
        let store = try WindowStore(path: folder.file("state.db"))
        try store.save(WindowState(session: "s", window: "before"))
        let feed = try store.changeFeed()
        let start = feed.position
        for n in 0..<1500 { try store.save(WindowState(session: "s", window: "w\(n)")) }

        let events = try feed.poll()
        guard case .gap(let gap) = events.first else {
            Issue.record("a gap first: \(Self.summary(Array(events.prefix(2))))")
            return
        }
        #expect(gap.first == start + 1)
        let changes = events.dropFirst().compactMap(\.change)
        #expect(changes.count == events.count - 1, "then only changes")
        #expect(changes.count >= ChangeLog.keptRows, "the log keeps at least the last 1,000")
        #expect(Int(gap.count) + changes.count == 1500, "missed and reported make every change")
        #expect(changes.first?.sequence == gap.last + 1)
        #expect(changes.map(\.window) == (1500 - changes.count..<1500).map { "w\($0)" }, "the newest, in order")
        #expect(try feed.poll().isEmpty)

        // From position 0, the same: the first changes are gone.
        let fromStart = try store.changeFeed(after: 0)
        let all = try fromStart.poll()
        #expect(Self.summary(Array(all.prefix(1))) == ["gap 1–\(gap.last)"])
        #expect(all.dropFirst().compactMap(\.change) == changes)
    }

    @Test func aLogEmptiedByHandIsAGap() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        let feed = try store.changeFeed()
        let start = feed.position
        for n in 0..<3 { try store.save(WindowState(session: "s", window: "w\(n)")) }
        try rawSQL(path, "DELETE FROM changes")
        #expect(Self.summary(try feed.poll()) == ["gap \(start + 1)–\(start + 3)"])
        #expect(try feed.poll().isEmpty)
        try store.save(WindowState(session: "s", window: "after"))
        #expect(Self.summary(try feed.poll()) == ["s/after@1"], "then on as before")
        // A feed started on the emptied log starts after it: nothing missed.
        let later = try store.changeFeed()
        try store.save(WindowState(session: "s", window: "later"))
        #expect(Self.summary(try later.poll()) == ["s/later@1"])
    }

    @Test func aSessionFeedReportsAGapOfAnySession() throws {
        let folder = TemporaryFolder()
        let store = try WindowStore(path: folder.file("state.db"))
        let feed = try store.changeFeed(session: "mine")
        for n in 0..<1200 { try store.save(WindowState(session: "other", window: "w\(n)")) }
        try store.save(WindowState(session: "mine", window: "w"))
        let events = try feed.poll()
        #expect(events.count == 2)
        #expect(Self.summary(Array(events.suffix(1))) == ["mine/w@1"])
        if case .gap(let gap) = events.first { #expect(gap.first == 1) } else { Issue.record("\(events)") }
    }

    @Test func rowsThatCannotBeReadAreReportedAndSkipped() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        let feed = try store.changeFeed()
        try store.save(WindowState(session: "s", window: "a"))
        try rawSQL(path, "UPDATE windows SET path = '[{\"type\":' WHERE window = 'a'")
        try rawSQL(path, "UPDATE windows SET path = '[]', revision = 'abc' WHERE window = 'a'")
        try rawSQL(
            path,
            "INSERT INTO changes (session, window, size_class, path, item, item_path, policy, revision, updated_at) "
                + "VALUES ('s', 'x', 'huge', '[]', NULL, '[]', 'migrate', 1, 0)")
        try store.save(WindowState(session: "s", window: "b"))
        let events = try feed.poll()
        #expect(
            Self.summary(events).map { $0.replacing(/unreadable \d+/, with: "unreadable") } == [
                "s/a@1", "unreadable s/a", "unreadable s/a", "unreadable s/x", "s/b@1",
            ])
        let reasons = events.compactMap { event -> String? in
            if case .unreadable(let change) = event { change.reason } else { nil }
        }
        #expect(reasons.count == 3)
        #expect(reasons[0].contains("cannot be read"), "\(reasons[0])")
        #expect(reasons[1].contains("revision 'abc'"), "\(reasons[1])")
        #expect(reasons.allSatisfy { !$0.contains("SELECT") }, "a reason, not the query")
        #expect(try feed.poll().isEmpty)
    }

    @Test func theAsyncSequenceCarriesGaps() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        let store = try WindowStore(path: path)
        try store.save(WindowState(session: "s", window: "w"))
        let stream = try store.changes()
        // A write by hand that empties the log in the same transaction: the stream, however quick,
        // can only find a gap.
        try rawSQL(
            path,
            """
            BEGIN IMMEDIATE; UPDATE windows SET revision = revision + 1 WHERE session = 's' AND window = 'w';
            DELETE FROM changes; COMMIT
            """)
        try store.save(WindowState(session: "s", window: "after"))
        var events: [ChangeEvent] = []
        for try await event in stream {
            events.append(event)
            if event.change?.window == "after" { break }
        }
        #expect(events.count == 2, "\(events)")
        #expect(events.first.map { if case .gap = $0 { true } else { false } } == true, "\(events)")
    }

    /// The ways a window is deleted.
    enum DeletePath: String, CaseIterable {
        case deleteWindow, deleteSession, pruneWindows, prune, replaceSession
    }

    /// A deleted window's states leave the log with it, whichever call deletes it: its rows keep
    /// their place (sequence number, session, window) and lose their state, so a feed behind reads
    /// each as the window's deletion — what it is now — and never a state of a window that is
    /// gone, nor skips a sequence number. Other windows' rows keep theirs, and so does the window
    /// written again after (`replaceSession`).
    @Test(arguments: DeletePath.allCases)
    func aDeletedWindowsStatesLeaveTheLog(_ deletion: DeletePath) throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        var old = WindowStore.Options()
        old.clock = { Timestamp(millisecondsSince1970: 1000) }
        let marker = "gone-with-the-window"
        do {
            let store = try WindowStore(path: path, options: old)
            for n in 1...3 {
                try store.save(WindowState(session: "s", window: "w", path: [route("R", "\"\(marker) \(n)\"")]))
            }
        }
        let store = try WindowStore(path: path)
        for _ in 1...2 { try store.save(WindowState(session: "t", window: "kept", path: [route("K")])) }
        let feed = try store.changeFeed(after: 0)
        switch deletion {
        case .deleteWindow: #expect(try store.deleteWindow(session: "s", window: "w"))
        case .deleteSession: #expect(try store.deleteSession("s") == ["w"])
        case .pruneWindows: #expect(try store.pruneWindows(session: "s", olderThan: .seconds(60)) == ["w"])
        case .prune: #expect(try store.prune(olderThan: .seconds(60)).map(\.session) == ["s"])
        case .replaceSession:
            #expect(try store.replaceSession("s", with: [WindowState(session: "s", window: "w")]).count == 1)
        }
        let again = deletion == .replaceSession ? ["s/w@1"] : []
        #expect(
            Self.summary(try feed.poll())
                == ["s/w@deleted", "s/w@deleted", "s/w@deleted", "t/kept@1", "t/kept@2", "s/w@deleted"] + again)
        #expect(try rawQuery(path, "SELECT count(*) FROM changes WHERE instr(path, '\(marker)') > 0") == ["0"])
        #expect(try rawQuery(path, "SELECT count(*) FROM changes WHERE path IS NOT NULL") == ["\(2 + again.count)"])
        #expect(try store.check().isOK)
    }

    /// The log keeps its states within a byte budget as well as a count: before each write, rows
    /// of earlier writes go, oldest first, until the states they hold come to at most
    /// ``WindowStore/Options/changeLogByteLimit``; the latest write's changes stay whole however
    /// large. A feed behind gets a gap where they were, then what the log holds.
    @Test func theLogKeepsItsStatesWithinItsByteBudget() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state.db")
        var options = WindowStore.Options()
        options.changeLogByteLimit = 1 << 20
        let store = try WindowStore(path: path, options: options)
        let feed = try store.changeFeed(after: 0)
        // About 200 KB a state (four routes of 50 KB): five fit in the budget, not six.
        let large = { (n: Int) in
            WindowState(
                session: "s", window: "w",
                path: (0..<4).map { _ in route("R", "\"" + String(repeating: "x", count: 50_000) + "\(n)\"") })
        }
        for n in 1...20 { try store.save(large(n)) }
        let bytes = "SELECT coalesce(sum(length(CAST(path AS BLOB))), 0) FROM changes"
        let logged = try #require(Int(try rawQuery(path, bytes)[0]))
        #expect(logged <= (1 << 20) + 200_100, "the budget and the latest write: \(logged)")
        #expect(logged >= (1 << 20) - 200_100, "no more cut than the budget asks: \(logged)")
        let events = try feed.poll()
        guard case .gap(let gap) = events.first else {
            Issue.record("a gap first: \(Self.summary(Array(events.prefix(2))))")
            return
        }
        #expect(gap.first == 1)
        #expect(Self.summary(Array(events.dropFirst())) == (Int(gap.last) + 1...20).map { "s/w@\($0)" })

        // Small windows are held by the count alone.
        for n in 0..<1200 { try store.save(WindowState(session: "s", window: "small\(n % 10)")) }
        #expect(try rawQuery(path, "SELECT count(*) FROM changes") == ["\(ChangeLog.keptRows + 1)"])

        var negative = WindowStore.Options()
        negative.changeLogByteLimit = -1
        #expect { try WindowStore(path: path, options: negative) } throws: {
            ($0 as? StateStoreError).map { "\($0)".contains("changeLogByteLimit") } == true
        }
        #expect(WindowStore.Options().changeLogByteLimit == 16 << 20, "16 MiB by default")
    }

    @Test func aLogOfSchemaTwoMigratesWithItsRows() throws {
        let folder = TemporaryFolder()
        let path = folder.file("schema2.db")
        do {
            let database = try Database(path: path, create: true, busyTimeoutMilliseconds: 1000)
            try database.useWAL()
            _ = try Migrator(migrations: Array(Migration.embedded.prefix(2))).migrate(database) {
                Timestamp(millisecondsSince1970: 0)
            }
        }
        let row = "'compact', '[]', NULL, '[]', 'migrate', 1, 0"
        try rawSQL(
            path,
            """
            INSERT INTO windows (session, window, size_class, path, item, item_path, policy, revision, updated_at)
            VALUES ('s', 'a', \(row)), ('s', 'b', \(row));
            DELETE FROM windows WHERE window = 'a';
            """)
        #expect(try rawQuery(path, "SELECT name FROM sqlite_schema WHERE name = 'changes_trim'") == ["changes_trim"])

        let store = try WindowStore(path: path)
        #expect(try rawQuery(path, "PRAGMA user_version") == [String(WindowStore.schemaVersion)])
        #expect(try rawQuery(path, "SELECT name FROM sqlite_schema WHERE name = 'changes_trim'").isEmpty)
        let feed = try store.changeFeed(after: 0)
        #expect(Self.summary(try feed.poll()) == ["s/a@1", "s/b@1", "s/a@deleted"], "the log is kept")
        #expect(try store.check().isOK)
    }
}
