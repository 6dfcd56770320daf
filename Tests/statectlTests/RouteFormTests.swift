import Foundation
import StateStore
import Testing

/// ROUTE on the command line always round-trips: a type holding `:` (tuples with labels, some
/// generic names, as SwiftUI writes them) or starting with `{` is printed, and taken, as the JSON
/// object `{"type":…,"value":…}`; every other route keeps the short forms `TYPE` and `TYPE:JSON`.
struct RouteFormTests {
    static let types = [
        "(a: Swift.Int, b: Swift.String)", "(Swift.Int, Swift.String)", "Swift.Dictionary<Swift.String, Swift.Int>",
        "App.Route:Legacy", "{odd", ":leading", "trailing:", "quote\"and\\backslash:x",
    ]
    static let values = ["null", #"[1,"x"]"#, #"{"k":"a:b"}"#]

    /// The text of a record's field, `label  value`, its label padded to the record's longest.
    private func field(_ label: String, in record: String) throws -> String {
        let prefix = label + "  "
        let line = try #require(record.split(separator: "\n").first { $0.hasPrefix(prefix) }, "\(label): \(record)")
        return String(line.dropFirst(prefix.count).drop { $0 == " " })
    }

    @Test(arguments: types, values)
    func whatIsPrintedIsReadBackAsTheSameRoute(_ type: String, _ value: String) throws {
        let fixture = Fixture()
        // Stored by a host, as SwiftUI names the type.
        let stored = route(type, value)
        try fixture.save("s", "host") { $0.present(stored) }
        let shown = try field("item", in: try fixture.run(["show", "s", "host"]).stdout)
        if type.contains(":") || type.hasPrefix("{") {
            #expect(shown.hasPrefix(#"{"type":"#), "\(shown)")
        }
        // The same text in list's ITEM column and watch's lines (the short ones are not cut).
        if shown.count <= 48 {
            let list = try fixture.run(["list"]).stdout
            #expect(list.contains("  " + shown + "  "), "\(list)")
        }
        // Pasted back into set, it is the same route.
        let set = try fixture.run(["set", "s", "pasted", "--present", shown, "--push", shown])
        #expect(set.status == 0, "\(shown): \(set.stderr)")
        let pasted = try #require(try fixture.store().window(session: "s", window: "pasted"))
        #expect(pasted.item == stored)
        #expect(pasted.itemPath == [stored])
        #expect(try field("item", in: set.stdout) == shown)
    }

    @Test func watchPrintsTheObjectFormToo() throws {
        let fixture = Fixture()
        let watcher = try WatchCommandTests.Watcher(fixture, ["--count", "1", "--timeout", "20"])
        try watcher.waitForMessage("to be created")
        try fixture.save("s", "w") { $0.push(route("(a: Swift.Int)", "[1]")) }
        let (status, lines) = try watcher.finish()
        #expect(status == 0)
        #expect(lines.first?.contains(#"path {"type":"(a: Swift.Int)","value":[1]}, item -"#) == true, "\(lines)")
    }

    static let shortForms: [(String, String, String)] = [
        ("Settings", "Settings", "null"),
        (#"Folder:"inbox""#, "Folder", #""inbox""#),
        (#"Thread:{"id":42}"#, "Thread", #"{"id":42}"#),
        (#"Link:"http://x""#, "Link", #""http://x""#),
        ("Swift.Dictionary<Swift.String, Swift.Int>", "Swift.Dictionary<Swift.String, Swift.Int>", "null"),
    ]

    @Test(arguments: shortForms)
    func theShortFormsAreUnchanged(_ argument: String, _ type: String, _ json: String) throws {
        let fixture = Fixture()
        let run = try fixture.run(["set", "s", "w", "--push", argument])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try field("path", in: run.stdout) == argument, "printed as written")
        #expect(try fixture.store().window(session: "s", window: "w")?.path == [route(type, json)])
    }

    @Test func theObjectFormOfAPlainTypeIsPrintedShort() throws {
        let fixture = Fixture()
        let run = try fixture.run([
            "set", "s", "w", "--push", #"{"type":"Thread","value":{"id": 42}}"#, "--push", #"{"type":"Settings"}"#,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try field("path", in: run.stdout) == #"Thread:{"id":42}"#, "value minified")
        #expect(
            run.stdout.split(separator: "\n").contains { $0.hasPrefix(" ") && $0.drop { $0 == " " } == "Settings" },
            "no value is null, under the path's first route")
    }

    static let badObjects: [(String, String)] = [
        (#"{"type":"A","value":1,"extra":2}"#, "unknown key 'extra'"),
        (#"{"value":1}"#, "no 'type'"),
        (#"{"type":"A","type":"B"}"#, "'type' twice"),
        (#"{"type":"A"} trailing"#, "unexpected text after the JSON value"),
        (#"{"type":1}"#, "expected a string"),
        (#"{"type":"A","value":}"#, "route written as a JSON object"),
        (#"{"type":"","value":1}"#, "route type is empty"),
        (#"{"type":"A\u0007"}"#, "control character"),
        ("{", "route written as a JSON object"),
    ]

    @Test(arguments: badObjects)
    func aBadObjectIsBadDataAndWritesNothing(_ argument: String, _ message: String) throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("A")) }
        let before = try fixture.dump()
        let run = try fixture.run(["set", "s", "w", "--push", "B", "--present", argument])
        #expect(run.status == 65)
        #expect(
            run.stderr.hasPrefix("Error: mutation 2 of 2 (--present ") && run.stderr.contains(message), "\(run.stderr)")
        #expect(try fixture.dump() == before)
    }
}
