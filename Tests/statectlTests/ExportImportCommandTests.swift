import Foundation
import StateStore
import Testing

/// export and import, run as a user runs them.
struct ExportImportCommandTests {
    private func populate(_ fixture: Fixture) throws {
        try fixture.save("mail", "main") { state in
            state.sizeClass = .regular
            state.push(route("Folder", #""inbox""#))
            state.present(route("Thread", #"{"id":42,"ratio":1.50}"#))
            state.push(route("Attachment", #""a.pdf""#))
        }
        try fixture.save("mail", "compose") { $0.policy = .dismiss }
        try fixture.save("notes", "n1") { $0.push(route("Note", "[1,2]")) }
    }

    /// A document's windows with the fields the store stamps left out.
    private func content(_ text: String) throws -> [[String: String]] {
        let windows = try #require(try jsonObject(text)["windows"] as? [[String: Any]])
        return windows.map { window in
            window.filter { $0.key != "revision" && $0.key != "updatedAt" }.mapValues { value in
                String(
                    decoding: try! JSONSerialization.data(
                        withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]), as: UTF8.self)
            }
        }
    }

    @Test func exportImportExportRoundTrips() throws {
        let source = Fixture()
        try populate(source)
        let exported = try source.run(["export"])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.hasSuffix("}\n"))
        #expect(try jsonObject(exported.stdout)["format"] as? String == "statectl/1")
        #expect(exported.stdout.contains(#"{"id":42,"ratio":1.50}"#), "values as written")

        let target = Fixture()
        let imported = try target.run(["import"], stdin: Data(exported.stdout.utf8))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("SESSION"))
        #expect(imported.stderr == "Imported 3 windows.\n")
        let again = try target.run(["export"])
        #expect(try content(again.stdout) == content(exported.stdout))
    }

    @Test func importWritesNextRevisionsFromAFile() throws {
        let fixture = Fixture()
        try populate(fixture)
        let file = fixture.path("doc.json")
        try Data(
            #"{"format":"statectl/1","windows":[{"session":"mail","window":"main","sizeClass":"compact","revision":7}]}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: file))
        let run = try fixture.run(["import", file, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let written = try jsonArray(run.stdout)
        #expect(written.first?["revision"] as? Int == 2)
        #expect(written.first?["sizeClass"] as? String == "compact")
        #expect((written.first?["path"] as? [Any])?.isEmpty == true, "left out: as a new window")
        #expect(try fixture.store().history(session: "mail", window: "main").count == 2)
    }

    @Test func exportOfNamedSessionsAndUnknownOnes() throws {
        let fixture = Fixture()
        try populate(fixture)
        let notes = try jsonObject(try fixture.run(["export", "notes", "notes"]).stdout)
        #expect((notes["windows"] as? [[String: Any]])?.map { $0["window"] as? String } == ["n1"])
        let before = try fixture.dump()
        let unknown = try fixture.run(["export", "notes", "nope"])
        #expect(unknown.status == 66)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains("session 'nope' not found"))
        #expect(try fixture.dump() == before)
    }

    @Test func exportOfAMissingDatabaseIsNotFoundAndCreatesNothing() throws {
        let fixture = Fixture()
        let run = try fixture.run(["export"])
        #expect(run.status == 66)
        #expect(run.stdout.isEmpty)
        #expect(try fixture.run(["export", "s"]).status == 66)
        #expect(!fixture.exists(fixture.database))
    }

    static let badDocuments: [(String, String)] = [
        (#"{"format":"statectl/9","windows":[]}"#, "statectl/9"),
        (#"{"format":"statectl/1","windows":[{"session":"a","window":"b","colour":1}]}"#, "windows[0].colour"),
        (
            #"{"format":"statectl/1","windows":[{"session":"a","window":"b"},{"session":"a","window":"b"}]}"#,
            "windows[1]"
        ),
        (#"{"format":"statectl/1","windows":[{"session":"a","window":"b","itemPath":[{"type":"X"}]}]}"#, "itemPath"),
        (#"{"format":"statectl/1","windows":[{"session":"a","window":"b","path":[{"type":"T","value":01}]}]}"#, "path"),
        ("not json", "document"),
        ("", "document"),
    ]

    @Test(arguments: badDocuments)
    func badDocumentsAre65AndWriteNothing(_ document: String, _ named: String) throws {
        let fixture = Fixture()
        // Into a missing database: nothing is created.
        let fresh = try fixture.run(["import", "-"], stdin: Data(document.utf8))
        #expect(fresh.status == 65)
        #expect(fresh.stderr.contains(named), "\(fresh.stderr)")
        #expect(!fixture.exists(fixture.database))
        // Into an existing one: nothing changes, even with good windows before the bad one.
        try populate(fixture)
        let before = try fixture.dump()
        let run = try fixture.run(["import"], stdin: Data(document.utf8))
        #expect(run.status == 65)
        #expect(run.stdout.isEmpty)
        #expect(try fixture.dump() == before)
    }

    @Test func importOfInvalidUTF8AndMissingFiles() throws {
        let fixture = Fixture()
        var bytes = Data(#"{"format":"statectl/1","windows":[{"session":""#.utf8)
        bytes += Data([0xC3, 0x28])
        bytes += Data(#"","window":"w"}]}"#.utf8)
        let invalid = try fixture.run(["import"], stdin: bytes)
        #expect(invalid.status == 65)
        #expect(invalid.stderr.contains("UTF-8"))
        let missing = try fixture.run(["import", fixture.path("no-such.json")])
        #expect(missing.status == 66)
        #expect(!fixture.exists(fixture.database))
        #expect(try fixture.run(["import", "a.json", "b.json"]).status == 64)
    }
}
