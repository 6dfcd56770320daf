import Foundation
import Testing

/// statebench leaves nothing in `$TMPDIR` (a full run's fixtures are about 1.3 GB): the folder it
/// makes there goes at the end of the run, unless `--keep` keeps it for the next run; a folder
/// `--dir` names is the user's, and stays. Run with the built statebench's quickest section.
struct FixtureFolderTests {
    let temporary = NSTemporaryDirectory() + "statebench-folder-tests-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    }

    /// The statebench built beside this test bundle.
    static let statebench: String = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("statebench").path),
            folder.path != "/"
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("statebench").path
    }()

    /// Runs `statebench --quick --only host` and `arguments` with `$TMPDIR` the test's folder.
    func run(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.statebench)
        process.arguments = ["--quick", "--only", "host"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary + "/"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    func contents(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func aRunLeavesNothingInTheTemporaryFolderUnlessKept() throws {
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        #expect(FileManager.default.isExecutableFile(atPath: Self.statebench), "\(Self.statebench) is built")
        #expect(try run([]) == 0)
        #expect(contents(temporary) == [], "nothing left behind")

        #expect(try run(["--keep"]) == 0)
        let kept = contents(temporary)
        #expect(kept.count == 1 && kept[0].hasPrefix("statebench-fixtures-"), "\(kept)")
        #expect(contents(temporary + "/" + (kept.first ?? "")).contains("host.db"))
        // The next run reuses it, and, without --keep, removes it.
        #expect(try run([]) == 0)
        #expect(contents(temporary) == [])

        let chosen = temporary + "/chosen"
        #expect(try run(["--dir", chosen]) == 0)
        #expect(contents(chosen).contains("host.db"), "the user's folder stays")
        #expect(try run(["--dir", chosen, "--keep"]) == 1, "--keep is for the default folder")
    }
}
