import Foundation
import StateStore
import Testing

struct ListTests {
    /// Windows in several sessions, saved in an order unlike the listing's.
    private func populate(_ fixture: Fixture) throws {
        try fixture.save("mail", "main") {
            $0.changeSizeClass(to: .regular)
            $0.push(route("Folder", #""inbox""#))
            $0.push(route("Label", #""work""#))
            $0.present(route("Thread", #"{"id":42,"b":1,"a":1.50}"#))
        }
        try fixture.save("mail", "compose") { $0.changeSizeClass(to: .compact) }
        try fixture.save("Zeta", "w") { $0.changeSizeClass(to: .compact) }
        try fixture.save("élan", "w") { $0.push(route("Settings")) }
        try fixture.save("mail", "Main") { $0.changeSizeClass(to: .regular) }
        try fixture.save("mail", "compose") { $0.push(route("Draft")) }  // revision 2
    }

    @Test func tableHasAHeaderAndAlignedRowsInByteOrder() throws {
        let fixture = Fixture()
        try populate(fixture)
        let run = try fixture.run(["list"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        let titles = ["SESSION", "WINDOW", "SIZE CLASS", "DEPTH", "ITEM", "REVISION", "UPDATED"]
        let header = lines[0]
        var positions: [String.Index] = []
        for title in titles {
            let range = try #require(header.range(of: title), "\(title)")
            positions.append(range.lowerBound)
        }
        #expect(positions == positions.sorted(), "columns in the order of titles")
        #expect(!header.contains("\u{1B}"), "no colour when not on a terminal")
        // Sorted by session then window, in UTF-8 byte order: uppercase before lowercase, é last.
        let keys = lines.dropFirst().map { $0.split(separator: " ").prefix(2).joined(separator: "/") }
        #expect(keys == ["Zeta/w", "mail/Main", "mail/compose", "mail/main", "élan/w"])
        // Aligned: every row's cells start under their titles (left columns) or end under them.
        let windowColumn = header.distance(from: header.startIndex, to: positions[1])
        for line in lines.dropFirst() {
            let characters = Array(line)
            #expect(characters[windowColumn - 1] == " " && characters[windowColumn] != " ", "\(line)")
        }
        let mainRow = try #require(lines.first { $0.hasPrefix("mail ") && $0.contains(" main ") })
        #expect(mainRow.contains(" regular "))
        #expect(mainRow.contains(#"Thread:{"id":42,"b":1,"a":1.50}"#), "the item as stored")
        #expect(mainRow.range(of: #"\s2\s"#, options: .regularExpression) != nil, "depth 2")
        let composeRow = try #require(lines.first { $0.contains(" compose ") })
        #expect(composeRow.contains(" compact "))
        #expect(composeRow.range(of: #"\s-\s+2\s+\d{4}-"#, options: .regularExpression) != nil, "no item, revision 2")
    }

    @Test func jsonIsAnArrayOfSummaries() throws {
        let fixture = Fixture()
        try populate(fixture)
        let run = try fixture.run(["list", "--json"])
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("]\n"))
        #expect(run.stdout.filter { $0 == "\n" }.count == 1, "one document, one newline")
        let rows = try jsonArray(run.stdout)
        #expect(
            rows.map { "\($0["session"]!)/\($0["window"]!)" } == [
                "Zeta/w", "mail/Main", "mail/compose", "mail/main", "élan/w",
            ])
        for row in rows {
            #expect(Set(row.keys) == ["session", "window", "sizeClass", "depth", "item", "revision", "updatedAt"])
            #expect(Timestamp(rfc3339: row["updatedAt"] as? String ?? "") != nil)
        }
        let main = rows[3]
        #expect(main["sizeClass"] as? String == "regular")
        #expect(main["depth"] as? Int == 2)
        #expect(main["revision"] as? Int == 1)
        #expect(routeText(main["item"]) == #"Thread:{"a":1.5,"b":1,"id":42}"#)
        #expect(run.stdout.contains(#"{"type":"Thread","value":{"id":42,"b":1,"a":1.50}}"#), "value exactly as stored")
        #expect(rows[2]["item"] is NSNull)
        #expect(rows[2]["revision"] as? Int == 2)
        #expect(rows[4]["sizeClass"] as? String == "unspecified")
    }

    /// `list --json` writes rows from the bytes the store lends; rows another program wrote — an
    /// item in another shape, ids that are not UTF-8 — still come out as valid JSON, as `show`
    /// reads them.
    @Test func jsonOfRowsWrittenByHandIsValidAndAsShowReadsThem() throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.push(route("A")) }
        try fixture.save("t", "w") { $0.push(route("A")) }
        try rawSQL(
            fixture.database,
            #"""
            UPDATE windows SET item = ' {"value" : [1, "a\"b"], "type" : "T\u0041"} ' WHERE session = 's';
            UPDATE windows SET session = CAST(x'74FF' AS TEXT), window = 'w"\',
                item = '{"type":"B","value":"' || CAST(x'C328' AS TEXT) || '"}' WHERE session = 't';
            """#)
        let run = try fixture.run(["list", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try jsonArray(run.stdout)
        #expect(rows.map { $0["session"] as? String } == ["s", "t\u{FFFD}"])
        #expect(rows.map { $0["window"] as? String } == ["w", #"w"\"#])
        #expect(run.stdout.contains(#""item":{"type":"TA","value":[1,"a\"b"]}"#), "\(run.stdout)")
        #expect(routeText(rows[1]["item"]) == "B:\"\u{FFFD}(\"")
        let shown = try jsonObject(try fixture.run(["show", "s", "w", "--json"]).stdout)
        #expect(routeText(shown["item"]) == routeText(rows[0]["item"]))
    }

    @Test func filtersBySessionAndSizeClass() throws {
        let fixture = Fixture()
        try populate(fixture)
        func windows(_ arguments: [String]) throws -> [String] {
            try jsonArray(try fixture.run(["list", "--json"] + arguments).stdout).map {
                "\($0["session"]!)/\($0["window"]!)"
            }
        }
        #expect(try windows(["mail"]) == ["mail/Main", "mail/compose", "mail/main"])
        #expect(try windows(["--size-class", "regular"]) == ["mail/Main", "mail/main"])
        #expect(try windows(["mail", "--size-class", "compact"]) == ["mail/compose"])
        #expect(try windows(["nobody"]) == [])
        let empty = try fixture.run(["list", "nobody"])
        #expect(empty.status == 0)
        #expect(empty.stdout.isEmpty)
        #expect(empty.stderr == "No windows.\n")
    }

    @Test func manyRowsStreamAndStayAligned() throws {
        let fixture = Fixture()
        let store = try fixture.store()
        // More rows than the table measures before it starts writing.
        for index in 0..<1500 {
            try store.save(WindowState(session: "s", window: String(format: "w%04d", index), sizeClass: .compact))
        }
        try store.save(WindowState(session: "s", window: "w9999-a-much-longer-window-id", sizeClass: .regular))
        let json = try jsonArray(try fixture.run(["list", "--json"]).stdout)
        #expect(json.count == 1501)
        let table = try fixture.run(["list"]).stdout.split(separator: "\n")
        #expect(table.count == 1502)
        let sizeColumn = try #require(table[0].range(of: "SIZE CLASS")).lowerBound
        let offset = table[0].distance(from: table[0].startIndex, to: sizeColumn)
        for line in table[1..<1501] {
            #expect(Array(line)[offset...].starts(with: "compact"), "\(line)")
        }
    }

    @Test func invalidSessionIsBadData() throws {
        let fixture = Fixture()
        let run = try fixture.run(["list", String(repeating: "x", count: 257)])
        #expect(run.status == 65)
        #expect(run.stderr == "Error: session id is 257 bytes; the limit is 256\n")
        #expect(!fixture.exists(fixture.database))
    }
}
