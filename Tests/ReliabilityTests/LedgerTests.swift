import Foundation
import Testing

/// `Documentation/Reliability.md` names, for each promise, the tests that prove it. A name that no
/// test bears any more (renamed, deleted) would leave a promise proved by nothing, so every name
/// the ledger gives is looked up in `Tests/` and in the benchmarks' own tests.
struct LedgerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func everyTestTheLedgerNamesExists() throws {
        let ledger = try String(
            contentsOf: Self.root.appendingPathComponent("Documentation/Reliability.md"), encoding: .utf8)
        let sources = try Self.testSources()
        let references = Ledger.references(in: ledger)
        #expect(references.count > 100, "the ledger names \(references.count) tests: was it read?")
        for reference in references {
            let declared = Ledger.isDeclared(reference, in: sources)
            #expect(declared, "Reliability.md names \(reference), which no test declares")
        }
    }

    @Test func aNameNoTestBearsIsFound() throws {
        let sources = try Self.testSources()
        let ledger = """
            | promise | proved by |
            |---|---|
            | a | `LedgerTests.everyTestTheLedgerNamesExists`, `noSuchTest` (beside `xcrun`) |
            | b | `NoSuchTests` |
            | c | `FaultTests.readOnly…` |
            """
        let references = Ledger.references(in: ledger)
        #expect(
            references.map(\.description) == [
                "LedgerTests.everyTestTheLedgerNamesExists", "LedgerTests.noSuchTest", "NoSuchTests",
                "FaultTests.readOnly…",
            ])
        let declared = references.map { Ledger.isDeclared($0, in: sources) }
        #expect(declared == [true, false, false, true])
    }

    /// The folders of test sources: `Tests/`, and the benchmarks' tests (`Benchmarks/BaselinesTests`).
    static let testFolders = ["Tests", "Benchmarks/BaselinesTests"]

    /// The text of every Swift file under ``testFolders``.
    static func testSources() throws -> String {
        var text = ""
        for folder in testFolders {
            let files = FileManager.default.enumerator(
                at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                if file.pathExtension == "swift" { text += try String(contentsOf: file, encoding: .utf8) + "\n" }
            }
        }
        return text
    }
}

/// The test names a ledger's "proved by" cells give: `Type.test` (a trailing `…` meaning a prefix),
/// `Type` alone, and a bare `test` listed (after a comma) behind a `Type.test` of the same cell,
/// which is that type's; other code in a cell (`xcrun`) is not a name.
/// Test target names (`StateStoreTests`: a folder of `Tests/`) are not names of tests.
enum Ledger {
    struct Reference: CustomStringConvertible {
        let type: String
        let test: String?

        var description: String { test.map { "\(type).\($0)" } ?? type }
    }

    static func references(in ledger: String) -> [Reference] {
        let targets = Set(
            ((try? FileManager.default.contentsOfDirectory(
                atPath: LedgerTests.root.appendingPathComponent("Tests").path))
                ?? []) + ["BaselinesTests"])
        var references: [Reference] = []
        for line in ledger.split(separator: "\n") where line.hasPrefix("|") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count >= 3 else { continue }
            let provedBy = cells[cells.count - 2]
            var type: String?
            let parts = provedBy.split(separator: "`", omittingEmptySubsequences: false).map(String.init)
            for (index, span) in parts.enumerated() where index % 2 == 1 {
                let name = String(span)
                guard !targets.contains(name), let first = name.first,
                    name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "…" })
                else { continue }
                if let dot = name.firstIndex(of: ".") {
                    type = String(name[..<dot])
                    references.append(
                        Reference(type: String(name[..<dot]), test: String(name[name.index(after: dot)...])))
                } else if first.isUppercase, name.hasSuffix("Tests") {
                    type = name
                    references.append(Reference(type: name, test: nil))
                } else if first.isLowercase, let type, parts[index - 1].trimmingCharacters(in: .whitespaces) == "," {
                    references.append(Reference(type: type, test: name))
                }
            }
        }
        return references
    }

    static func isDeclared(_ reference: Reference, in sources: String) -> Bool {
        let declared = ["struct", "final class", "class", "extension", "enum"].contains {
            sources.contains("\($0) \(reference.type) ") || sources.contains("\($0) \(reference.type):")
        }
        guard declared, var test = reference.test else { return declared }
        let isPrefix = test.hasSuffix("…")
        if isPrefix { test.removeLast() }
        return sources.contains("func \(test)" + (isPrefix ? "" : "("))
    }
}
