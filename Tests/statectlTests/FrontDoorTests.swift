import Foundation
import StateStore
import Testing

/// What a newcomer meets first: the help of a command lists only what it takes, and a route the
/// shell stripped of its quotes gets an error that says so.
struct FrontDoorTests {
    /// The completions offer what help lists (`CompletionTests`), so they follow.
    @Test func demosHelpListsOnlyTheOptionsDemoTakes() throws {
        let listed = try HelpText.options(of: "demo")
        #expect(listed.contains("--db"), "\(listed)")
        for option in ["--simulator", "--container", "--app", "--group"] {
            #expect(!listed.contains(option), "help demo lists \(option), which demo refuses")
        }
        // Each option it lists, given to demo, is taken.
        let fixture = Fixture()
        let values = ["--db": fixture.path("demo.db"), "--busy-timeout": "100", "--durability": "full"]
        for option in listed.sorted() where option != "-h" && option != "--help" {
            let value = try #require(values[option], "a value for \(option)")
            let run = try statectl(["demo", option, value], environment: fixture.environment)
            #expect(run.status == 0, "demo \(option) \(value): \(run.stderr)")
        }
    }

    static let stripped: [(typed: String, received: String, suggestion: String)] = [
        // What a shell passes on for a route typed without single quotes around it.
        (#"Folder:"inbox""#, "Folder:inbox", #"'Folder:"inbox"'"#),
        (#"Folder:"in box""#, "Folder:in box", #"'Folder:"in box"'"#),
        (#"Thread:{"id":42}"#, "Thread:{id:42}", "single quotes"),
        (#"{"type":"Folder"}"#, "{type:Folder}", "single quotes"),
    ]

    @Test(arguments: stripped.indices)
    func aRouteWhoseQuotesTheShellStrippedSaysSo(_ index: Int) throws {
        let (typed, received, suggestion) = Self.stripped[index]
        let fixture = Fixture()
        for option in ["--push", "--present"] {
            let run = try fixture.run(["set", "s", "w", option, received])
            #expect(run.status == 65, "\(typed): \(run.stderr)")
            #expect(run.stderr.contains("shell"), "\(typed): \(run.stderr)")
            #expect(run.stderr.contains(suggestion), "\(typed): \(run.stderr)")
            #expect(try fixture.dump() == ["(no file)"], "nothing written")
        }
    }

    @Test func aRouteWithQuotesThatIsStillBadIsNotBlamedOnTheShell() throws {
        let fixture = Fixture()
        for bad in [#"Thread:{"id":42"#, #"Folder:"inbox"#, #"Thread:{"id":4x}"#] {
            let run = try fixture.run(["set", "s", "w", "--push", bad])
            #expect(run.status == 65, "\(bad): \(run.stderr)")
            #expect(run.stderr.contains("invalid JSON value"), "\(bad): \(run.stderr)")
            #expect(!run.stderr.contains("shell"), "\(bad): \(run.stderr)")
        }
    }
}
