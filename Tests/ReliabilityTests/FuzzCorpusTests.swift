import Foundation
import StateStore
import Testing

/// Replays the fuzzers' committed seeds (`Fuzz/corpus/TARGET`) and every past finding
/// (`Fuzz/regressions/TARGET`) through the checks the fuzzers apply (`FuzzChecks`), so a fixed
/// finding stays fixed and the checks keep compiling and passing on every `swift test`.
struct FuzzCorpusTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func inputs(_ kind: String, _ target: String) -> [URL] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target)
        return ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: FuzzChecks.targets.map(\.name))
    func seedsAndFindingsPassTheChecks(_ target: String) throws {
        let check = try #require(FuzzChecks.targets.first { $0.name == target }?.check)
        let seeds = Self.inputs("corpus", target)
        #expect(!seeds.isEmpty, "Fuzz/corpus/\(target) has seeds")
        for file in seeds + Self.inputs("regressions", target) {
            let problem = check(Array(try Data(contentsOf: file)))
            #expect(problem == nil, "\(file.lastPathComponent): \(problem ?? "")")
        }
    }

    /// The checks can fail: inputs that break them on purpose would be findings. (A check that
    /// passes everything proves nothing.)
    @Test func checksRecogniseWhatTheyAreFor() {
        // The same(…) comparisons see bytes, not canonical equivalence, as a route's and a
        // state's == do (a state's ids and tab are compared by their bytes too).
        let composed = try! Route(type: "\u{E9}", json: "1")
        let decomposed = try! Route(type: "e\u{301}", json: "1")
        #expect(!FuzzChecks.same(composed, decomposed), "the fuzz checks say different")
        let state = { (window: String) in WindowState(session: "s", window: window) }
        #expect("\u{E9}" == "e\u{301}", "Swift's == on the ids alone says equal")
        #expect(state("\u{E9}") != state("e\u{301}"), "a state's == says different")
        #expect(!FuzzChecks.same(state("\u{E9}"), state("e\u{301}")), "the fuzz checks say different")
        // Seeds are accepted by the parsers they seed, so the fuzzers start from valid input.
        for (target, seed) in [
            ("route", "Thread:{\"id\":42}"), ("navigation-path", #"["A","1"]"#),
            ("import", #"{"format":"statectl/1","windows":[{"session":"s","window":"w"}]}"#),
            ("arguments", "list"),
        ] {
            #expect(FuzzChecks.targets.first { $0.name == target }?.check(Array(seed.utf8)) == nil, "\(target)")
        }
    }
}
