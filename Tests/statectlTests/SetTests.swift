import Foundation
import StateStore
import Testing

struct SetTests {
    @Test func mutationsApplyInCommandLineOrderAsOneRevision() throws {
        let fixture = Fixture()
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
        let run = try fixture.run(["set", "s", "w", "--push", "A", "--push", "B:[1, 2]"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("path        A\n            B:[1,2]\n"))
        #expect(run.stdout.contains("revision    1\n"))
        #expect(run.stderr.isEmpty)
    }

    @Test func expectRevision() throws {
        let fixture = Fixture()
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
