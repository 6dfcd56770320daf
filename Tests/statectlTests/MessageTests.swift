import Foundation
import StateStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Messages that say what happened: which mutation failed, a byte order mark that is not an
/// error, and an `import` that waits for a terminal.
struct MessageTests {
    static let failingMutations: [([String], String)] = [
        (["--pop", "1", "--pop", "1"], "mutation 2 of 2 (--pop 1): cannot pop 1: window 's' 'w' has only 0 routes"),
        (["--push", "A", "--pop", "2", "--pop", "1", "--dismiss"], "mutation 3 of 4 (--pop 1): cannot pop 1"),
        (["--dismiss", "--push", "Folder:"], "mutation 2 of 2 (--push 'Folder:'): route 'Folder:': nothing after ':'"),
        (["--present", #"T:{"id":}"#, "--dismiss"], #"mutation 1 of 2 (--present 'T:{"id":}'): route 'T'"#),
        (["--navigation-path", "[1]"], "mutation 1 of 1 (--navigation-path '[1]'): "),
        (
            ["--push", "A:\"" + String(repeating: "x", count: 70_000) + "\""],
            "mutation 1 of 1 (--push 'A:\"" + String(repeating: "x", count: 48) + "…): route 'A': value is"
        ),
    ]

    @Test(arguments: failingMutations)
    func aFailingMutationIsNamedByPositionAndText(_ mutations: [String], _ message: String) throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("P")) }
        let before = try fixture.dump()
        let run = try fixture.run(["set", "s", "w"] + mutations)
        #expect(run.status == 65)
        #expect(run.stderr.hasPrefix("Error: " + message), "\(run.stderr)")
        #expect(try fixture.dump() == before)
    }

    @Test func aByteOrderMarkAtTheStartOfAnImportDocumentIsSkipped() throws {
        let fixture = Fixture()
        let document =
            Data([0xEF, 0xBB, 0xBF]) + Data(#"{"format":"statectl/1","windows":[{"session":"s","window":"w"}]}"#.utf8)
        let file = fixture.path("bom.json")
        try document.write(to: URL(fileURLWithPath: file))
        let run = try fixture.run(["import", file])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "Imported 1 window.\n", "no word of a terminal: stdin is not one")
        #expect(try fixture.store().window(session: "s", window: "w")?.revision == 1)
        // Through standard input too; offsets in messages count the mark.
        let bad = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"format":"statectl/1","windows":[{"session":1}]}"#.utf8)
        let refused = try fixture.run(["import"], stdin: bad)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("windows[0].session: expected a string at byte 48"), "\(refused.stderr)")
        // Anywhere else it is no whitespace of JSON.
        let late = Data(" ".utf8) + Data([0xEF, 0xBB, 0xBF]) + Data(#"{"format":"statectl/1","windows":[]}"#.utf8)
        #expect(try fixture.run(["import"], stdin: late).status == 65)
    }

    @Test func importFromATerminalSaysItIsReadingStandardInput() throws {
        let fixture = Fixture()
        let master = PseudoTerminal.open(O_RDWR | O_NOCTTY)
        guard master >= 0, PseudoTerminal.grant(master) == 0, PseudoTerminal.unlock(master) == 0,
            let name = PseudoTerminal.name(master)
        else { throw FixtureError(message: "no pseudo-terminal") }
        defer { close(master) }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        let terminal = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { throw FixtureError(message: "cannot open \(name)") }
        defer { close(terminal) }
        var said = ""
        let run = try statectl(
            spawning: ["--db", fixture.database, "import"], environment: fixture.environment,
            stdin: .descriptor(terminal), stderr: terminal
        ) { _ in
            // What the user sees before typing anything, read from the terminal as it comes.
            said = try readTerminal(master, until: "Ctrl-D.")
            let typed = #"{"format":"statectl/1","windows":[{"session":"s","window":"w"}]}"# + "\n\u{4}"
            _ = typed.utf8CString.withUnsafeBytes { write(master, $0.baseAddress, $0.count - 1) }
        }
        #expect(said.contains("Reading the document from standard input (a terminal); end it with Ctrl-D."))
        #expect(run.status == 0)
        #expect(try fixture.store().window(session: "s", window: "w")?.revision == 1)
    }

    /// What appears on the terminal's master side until `marker`; gives up after 10 seconds
    /// without it (statectl then waits for input that never comes, and is killed).
    private func readTerminal(_ master: Int32, until marker: String) throws -> String {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !text.contains(marker) {
            var request = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, 10_000) == 1 else {
                throw FixtureError(message: "nothing more on the terminal after: \(text)")
            }
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { throw FixtureError(message: "the terminal closed after: \(text)") }
            text += String(decoding: buffer[..<count], as: UTF8.self)
        }
        return text
    }
}
