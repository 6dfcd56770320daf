import Foundation
import StateStore
import Testing

/// Hostile import documents and NavigationPath representations through the `statectl` binary
/// (`import`, `set --navigation-path`) and the library (`NavigationPathCoding`): refused whole
/// with a clear error and nothing written, or stored byte for byte.
struct HostileTransferTests {
    static func statectl(_ path: String, _ arguments: [String], stdin: [UInt8]? = nil) throws -> Outcome {
        try ReliabilityTests.statectl(["--db", path] + arguments, stdin: stdin)
    }

    @Test func refusedImportDocumentsThroughTheBinary() throws {
        let folder = TemporaryFolder()
        let path = try HostileInputTests.seededDatabase(in: folder)
        let before = try rawDump(path)
        for (name, bytes) in HostileImportTests.refused {
            let outcome = try Self.statectl(path, ["import", "-"], stdin: bytes)
            #expect(outcome.termination == .exited(65), "\(name): \(outcome.err)")
            #expect(outcome.err.hasPrefix("Error: import document"), "\(name): \(outcome.err)")
            #expect(outcome.stdout.isEmpty, "\(name)")
        }
        // From a file too, and files that are not there or not files.
        let file = folder.file("doc.json")
        try Data(HostileImportTests.refused[0].1).write(to: URL(fileURLWithPath: file))
        #expect(try Self.statectl(path, ["import", file]).termination == .exited(65))
        #expect(try Self.statectl(path, ["import", folder.file("missing.json")]).termination == .exited(66))
        let aFolder = try Self.statectl(path, ["import", folder.path])
        #expect(aFolder.termination == .exited(74), "\(aFolder.err)")
        #expect(aFolder.err.hasPrefix("Error: "))
        #expect(try rawDump(path) == before, "nothing written")
    }

    /// A missing database is not created by an import that fails.
    @Test func aRefusedImportCreatesNoDatabase() throws {
        let folder = TemporaryFolder()
        let path = folder.file("new/state.db")
        let outcome = try Self.statectl(path, ["import"], stdin: Array("{\"format\":\"statectl/1\",\"windows\":[".utf8))
        #expect(outcome.termination == .exited(65), "\(outcome.err)")
        #expect(!exists(folder.file("new")))
    }

    /// Export, then import into a new file: every value, and ids that differ only in their
    /// bytes, come back exactly.
    @Test func hostileButValidWindowsRoundTripThroughTheBinary() throws {
        let folder = TemporaryFolder()
        let source = folder.file("source.db")
        let sets: [[String]] = [
            ["set", "'; DROP TABLE windows; --", "\" OR 1=1", "--push", "N:1e999", "--push", #"D:{"a":1,"a":2}"#],
            ["set", "s", "e\u{301}", "--present", #"S:"\u0000\ud83d\ude80""#, "--push", "E:-0.0E-0"],
            ["set", "s", "\u{E9}", "--size-class", "regular", "--policy", "dismiss"],
            [
                "set", "👩‍👩‍👧", "\u{202E}", "--push",
                "Deep:" + String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
            ],
        ]
        for arguments in sets {
            let outcome = try Self.statectl(source, arguments)
            #expect(outcome.status == 0, "\(arguments.prefix(3)): \(outcome.err)")
        }
        let exported = try Self.statectl(source, ["export"])
        #expect(exported.status == 0, "\(exported.err)")
        let copy = folder.file("copy.db")
        let imported = try Self.statectl(copy, ["import", "-"], stdin: exported.stdout)
        #expect(imported.status == 0, "\(imported.err)")
        let again = try Self.statectl(copy, ["export"])
        // Everything but the stamps of the new revisions.
        let stamps = /"updatedAt":"[^"]*"/
        #expect(again.out.replacing(stamps, with: "") == exported.out.replacing(stamps, with: ""))
        #expect(try WindowStore(path: copy).windows(session: "s").count == 2)
    }

    static let navigationPaths: [(name: String, json: String, stored: [String]?)] = [
        ("empty", "[]", []),
        ("two elements, last first", #"["B","2","A","\"x\""]"#, ["A:\"x\"", "B:2"]),
        ("whitespace around entries", " [ \"A\" , \" { \\\"k\\\" : 1 } \" ] ", [#"A:{"k":1}"#]),
        ("1e999 and duplicate keys", #"["N","1e999","D","{\"a\":1,\"a\":2}"]"#, [#"D:{"a":1,"a":2}"#, "N:1e999"]),
        ("SQL in a type", #"["x'); DELETE FROM windows; --","null"]"#, ["x'); DELETE FROM windows; --"]),
        ("an odd count", #"["A","1","B"]"#, nil),
        ("a number entry", #"["A",1]"#, nil),
        ("a null entry", #"[null,"1"]"#, nil),
        ("an object", #"{"A":"1"}"#, nil),
        ("element JSON that does not parse", #"["A","{"]"#, nil),
        ("element JSON nested 10,000 deep", "[\"A\",\"" + String(repeating: "[", count: 10_000) + "\"]", nil),
        ("an empty type", #"["","1"]"#, nil),
        ("a control character in a type", #"["A\u0007","1"]"#, nil),
        ("a NUL escape in a type", #"["A\u0000","1"]"#, nil),
        ("an empty element value", #"["A",""]"#, nil),
        ("a value over 64 KiB", "[\"A\",\"\\\"" + String(repeating: "v", count: 65_536) + "\\\"\"]", nil),
        ("513 elements", "[" + Array(repeating: #""A","1""#, count: 513).joined(separator: ",") + "]", nil),
        (
            "nested 10,000 deep outside", String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
            nil
        ),
        ("trailing text", #"["A","1"] x"#, nil),
        ("unterminated", #"["A","1""#, nil),
    ]

    @Test func navigationPathsThroughTheLibraryAndTheBinary() throws {
        let folder = TemporaryFolder()
        let path = try HostileInputTests.seededDatabase(in: folder)
        for (name, json, stored) in Self.navigationPaths {
            let before = try rawDump(path)
            // The library: the representation parsed, then as a window's path (the limits apply
            // to a window, not to a representation).
            let library = Result { () throws(StateStoreError) -> [Route] in
                let routes = try NavigationPathCoding.routes(from: json)
                try WindowState(session: "base", window: "w", path: routes).validate()
                return routes
            }
            let binary = try Self.statectl(path, ["set", "base", "w", "--navigation-path", json])
            if let stored {
                let routes = try #require(try? library.get(), "\(name)")
                #expect(routes.map(\.description) == stored, "\(name): library")
                #expect(binary.status == 0, "\(name): \(binary.err)")
                let state = try #require(try WindowStore(path: path).window(session: "base", window: "w"))
                #expect(
                    state.path.map { Array($0.description.utf8) } == stored.map { Array($0.utf8) }, "\(name): binary")
                let shown = try Self.statectl(path, ["show", "base", "w", "--navigation-path"])
                #expect(shown.status == 0)
                #expect(shown.out == NavigationPathCoding.json(for: routes) + "\n", "\(name): shown back")
            } else {
                guard case .failure(let error) = library else {
                    Issue.record("\(name): the library accepted it")
                    continue
                }
                #expect(error.isInvalidInput, "\(name): \(error)")
                #expect(binary.termination == .exited(65), "\(name): \(binary.err)")
                #expect(binary.err.hasPrefix("Error: "), "\(name): \(binary.err)")
                #expect(try rawDump(path) == before, "\(name): nothing written")
            }
        }
    }
}
