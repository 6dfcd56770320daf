import Foundation
import StateStore
import Testing

struct SetTests {
    @Test func mutationsApplyInCommandLineOrderAsOneRevision() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        let run = try fixture.run([
            "set", "mail", "main", "--push", #"Folder:"inbox""#, "--present", #"Thread:{"id": 42}"#, "--push", "Reply",
            "--push", "Quote", "--pop", "1", "--size-class", "compact", "--json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let state = try jsonObject(run.stdout)
        #expect((state["path"] as? [Any])?.map(routeText) == [#"Folder:"inbox""#])
        #expect(routeText(state["item"]) == #"Thread:{"id":42}"#, "minified")
        #expect((state["itemPath"] as? [Any])?.map(routeText) == ["Reply"])
        #expect(state["sizeClass"] as? String == "compact")
        #expect(state["revision"] as? Int == 1, "one write")
        let stored = try #require(try fixture.store().window(session: "mail", window: "main"))
        #expect(stored.path == [route("Folder", #""inbox""#)])
        #expect(stored.itemPath == [route("Reply")])
        #expect(try fixture.store().history(session: "mail", window: "main").count == 1)
    }

    @Test func orderMatters() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        #expect(try fixture.run(["set", "s", "a", "--present", "X", "--dismiss"]).status == 0)
        #expect(try fixture.run(["set", "s", "b", "--dismiss", "--present", "X"]).status == 0)
        #expect(try fixture.store().window(session: "s", window: "a")?.item == nil)
        #expect(try fixture.store().window(session: "s", window: "b")?.item == route("X"))
        // The policy applies to the size-class changes after it, not before.
        #expect(try fixture.run(["set", "s", "c", "--size-class", "regular", "--present", "X"]).status == 0)
        #expect(try fixture.run(["set", "s", "c", "--size-class", "compact", "--policy", "dismiss"]).status == 0)
        #expect(try fixture.store().window(session: "s", window: "c")?.item == route("X"))
        #expect(try fixture.run(["set", "s", "c", "--policy", "dismiss", "--size-class", "regular"]).status == 0)
        #expect(try fixture.store().window(session: "s", window: "c")?.item == nil)
    }

    @Test func popGoesBackThroughItemPathThenItemThenPath() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        #expect(
            try fixture.run(["set", "s", "w", "--push", "A", "--push", "B", "--present", "I", "--push", "C"]).status
                == 0)
        #expect(try fixture.run(["set", "s", "w", "--pop", "2"]).status == 0)
        let state = try #require(try fixture.store().window(session: "s", window: "w"))
        #expect(state.item == nil)
        #expect(state.path == [route("A"), route("B")])
        #expect(state.revision == 2)
    }

    @Test func textOutputIsTheNewState() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        let run = try fixture.run(["set", "s", "w", "--push", "A", "--push", "B:[1, 2]"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("path        A\n            B:[1,2]\n"))
        #expect(run.stdout.contains("revision    1\n"))
        #expect(run.stderr.isEmpty)
    }

    @Test func expectRevision() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        // 0: create only if missing.
        #expect(try fixture.run(["set", "s", "w", "--push", "A", "--expect-revision", "0"]).status == 0)
        let before = try fixture.dump()
        let again = try fixture.run(["set", "s", "w", "--push", "B", "--expect-revision", "0"])
        #expect(again.status == 1)
        #expect(again.stdout.isEmpty)
        #expect(again.stderr == "Error: window 's' 'w' is at revision 1, not 0; nothing was written\n")
        #expect(try fixture.dump() == before)
        let stale = try fixture.run(["set", "s", "w", "--push", "B", "--expect-revision=7"])
        #expect(stale.status == 1)
        #expect(try fixture.dump() == before)
        let current = try fixture.run(["set", "s", "w", "--push", "B", "--expect-revision", "1", "--json"])
        #expect(current.status == 0)
        #expect(try jsonObject(current.stdout)["revision"] as? Int == 2)
    }
}

struct DeleteTests {
    @Test func deletesAWindowAndItsHistory() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        try fixture.save("s", "a") { $0.push(route("A")) }
        try fixture.save("s", "a") { $0.push(route("B")) }
        try fixture.save("s", "b") { $0.push(route("A")) }
        let run = try fixture.run(["delete", "s", "a"])
        #expect(run.status == 0)
        #expect(run.stdout == "Deleted window 's' 'a'.\n")
        #expect(try fixture.store().window(session: "s", window: "a") == nil)
        #expect(try fixture.store().history(session: "s", window: "a").isEmpty)
        #expect(try fixture.store().window(session: "s", window: "b") != nil)
        let again = try fixture.run(["delete", "s", "a"])
        #expect(again.status == 66)
        #expect(again.stderr == "Error: window 's' 'a' not found\n")
    }

    @Test func deletesASession() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        for window in ["b", "a"] { try fixture.save("s", window) { $0.push(route("A")) } }
        try fixture.save("t", "a") { $0.push(route("A")) }
        let run = try fixture.run(["delete", "s", "--json"])
        #expect(run.status == 0)
        let result = try jsonObject(run.stdout)
        #expect(result["session"] as? String == "s")
        #expect(result["windows"] as? [String] == ["a", "b"])
        #expect(try fixture.store().windows(session: "s").isEmpty)
        #expect(try fixture.store().windows(session: "t").count == 1)
        let before = try fixture.dump()
        let again = try fixture.run(["delete", "s"])
        #expect(again.status == 66)
        #expect(again.stderr.hasPrefix("Error: session 's' not found"))
        #expect(try fixture.dump() == before)
    }
}

struct HistoryRevertTests {
    private func populate(_ fixture: Fixture) throws {
        try fixture.save("s", "w") { $0.push(route("A")) }
        try fixture.save("s", "w") { $0.changeSizeClass(to: .regular) }
        try fixture.save("s", "w") { $0.present(route("I", "[1]")) }
    }

    @Test func historyIsNewestFirst() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        try populate(fixture)
        let run = try fixture.run(["history", "s", "w", "--json"])
        #expect(run.status == 0)
        let entries = try jsonArray(run.stdout)
        #expect(entries.map { $0["revision"] as? Int } == [3, 2, 1])
        for entry in entries {
            #expect(Set(entry.keys) == ["revision", "state"])
            let state = try #require(entry["state"] as? [String: Any])
            #expect(state["revision"] as? Int == entry["revision"] as? Int)
        }
        #expect(routeText((entries[0]["state"] as? [String: Any])?["item"]) == "I:[1]")
        #expect((entries[2]["state"] as? [String: Any])?["sizeClass"] as? String == "unspecified")
        let limited = try jsonArray(try fixture.run(["history", "s", "w", "--limit", "2", "--json"]).stdout)
        #expect(limited.map { $0["revision"] as? Int } == [3, 2])
        let table = try fixture.run(["history", "s", "w"]).stdout.split(separator: "\n")
        #expect(table.count == 4)
        #expect(table[0].hasPrefix("REVISION") && table[0].contains("UPDATED") && table[0].contains("ITEM PATH"))
        #expect(table[1].hasPrefix("       3") && table[1].contains("I:[1]"))
        #expect(try fixture.run(["history", "s", "nope"]).status == 66)
    }

    @Test func revertWritesAnOldRevisionAsANewOne() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        try populate(fixture)
        let run = try fixture.run(["revert", "s", "w", "1", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let state = try jsonObject(run.stdout)
        #expect(state["revision"] as? Int == 4)
        #expect(state["sizeClass"] as? String == "unspecified")
        #expect((state["path"] as? [Any])?.map(routeText) == ["A"])
        #expect(state["item"] is NSNull)
        let stored = try #require(try fixture.store().window(session: "s", window: "w"))
        #expect(stored.revision == 4 && stored.sizeClass == .unspecified && stored.item == nil)
        let text = try fixture.run(["revert", "s", "w", "3"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("revision    5\n"))
    }

    @Test func revertFailuresChangeNothing() throws {
        let fixture = Fixture()
        defer { fixture.cleanUp() }
        try populate(fixture)
        let before = try fixture.dump()
        let revision = try fixture.run(["revert", "s", "w", "9"])
        #expect(revision.status == 66)
        #expect(revision.stderr.hasPrefix("Error: revision 9 of window 's' 'w' not found"))
        #expect(try fixture.run(["revert", "s", "nope", "1"]).status == 66)
        #expect(try fixture.run(["revert", "nope", "w", "1"]).status == 66)
        #expect(try fixture.run(["revert", "s", "w", "1", "--expect-revision", "2"]).status == 1)
        #expect(try fixture.dump() == before)
        #expect(try fixture.run(["revert", "s", "w", "1", "--expect-revision", "3"]).status == 0)
    }
}
