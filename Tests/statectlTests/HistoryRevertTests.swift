import Foundation
import StateStore
import Testing

struct HistoryRevertTests {
    private func populate(_ fixture: Fixture) throws {
        try fixture.save("s", "w") { $0.push(route("A")) }
        try fixture.save("s", "w") { $0.changeSizeClass(to: .regular) }
        try fixture.save("s", "w") { $0.present(route("I", "[1]")) }
    }

    @Test func historyIsNewestFirst() throws {
        let fixture = Fixture()
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
