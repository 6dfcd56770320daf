import Foundation
import StateStore
import Testing

struct NavigationPathCommandTests {
    @Test func showPrintsTheRepresentationAndSetTakesItBack() throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { state in
            state.push(route("App.Folder", #""inbox""#))
            state.push(route("App.Thread", #"{"id":42}"#))
        }
        let shown = try fixture.run(["show", "s", "w", "--navigation-path"])
        #expect(shown.status == 0)
        #expect(shown.stdout == #"["App.Thread","{\"id\":42}","App.Folder","\"inbox\""]"# + "\n")
        #expect(try fixture.run(["show", "s", "w", "--navigation-path", "--json"]).stdout == shown.stdout)

        let set = try fixture.run([
            "set", "s", "other", "--navigation-path", shown.stdout.trimmingCharacters(in: .newlines), "--push", "Tail",
        ])
        #expect(set.status == 0, "\(set.stderr)")
        let other = try #require(try fixture.store().window(session: "s", window: "other"))
        #expect(other.path == [route("App.Folder", #""inbox""#), route("App.Thread", #"{"id":42}"#), route("Tail")])
    }

    @Test func navigationPathNeedsAWindowAndAnExistingOne() throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("A")) }
        let usage = try fixture.run(["show", "s", "--navigation-path"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("needs a window"))
        #expect(try fixture.run(["show", "s", "nope", "--navigation-path"]).status == 66)
    }

    static let malformed = [
        #"["T"]"#, #"["T",1]"#, #"["T","{"]"#, #"{"T":"1"}"#, "not json", #"["","1"]"#, #"["T","1","U"]"#,
    ]

    @Test(arguments: malformed)
    func malformedRepresentationsAre65AndWriteNothing(_ text: String) throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("A")) }
        let before = try fixture.dump()
        let run = try fixture.run(["set", "s", "w", "--push", "B", "--navigation-path", text])
        #expect(run.status == 65)
        #expect(run.stderr.contains("NavigationPath"))
        #expect(try fixture.dump() == before)
    }
}
