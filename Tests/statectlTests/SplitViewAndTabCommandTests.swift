import Foundation
import StateStore
import Testing

/// What a window's split view and tab view bind, set and read from outside through `statectl`, as
/// a user runs it: `set`, `show`, `restore`, `history`, `revert`, `export`, `import`, `watch`.
struct SplitViewAndTabCommandTests {
    /// The value of a record's field: the text after its label and the blanks that pad it.
    private func field(_ label: String, in record: String) throws -> String {
        let line = try #require(record.split(separator: "\n").first { $0.hasPrefix(label + "  ") }, "\(record)")
        return String(line.dropFirst(label.count).drop { $0 == " " })
    }

    @Test func setFromOutsideIsReadBackByTheAppAndShown() throws {
        let fixture = Fixture()
        try fixture.save("recipes", "main") { $0.push(route("Category", #""desserts""#)) }
        let run = try fixture.run([
            "set", "recipes", "main", "--column-visibility", "doubleColumn", "--compact-column", "detail", "--tab",
            "Two columns",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try field("columns", in: run.stdout) == "doubleColumn")
        #expect(try field("compact", in: run.stdout) == "detail")
        #expect(try field("tab", in: run.stdout) == "Two columns")
        #expect(try field("size class", in: run.stdout) == "unspecified", "labels as wide as before")
        #expect(run.stdout.hasPrefix("session     recipes\n"))

        // What an app reads, with the rest as it was.
        let stored = try #require(try fixture.store().window(session: "recipes", window: "main"))
        #expect(stored.columnVisibility == .doubleColumn && stored.preferredCompactColumn == .detail)
        #expect(stored.selectedTab == "Two columns" && stored.revision == 2)
        #expect(stored.path == [route("Category", #""desserts""#)])

        let json = try jsonObject(try fixture.run(["show", "recipes", "main", "--json"]).stdout)
        #expect(json["columnVisibility"] as? String == "doubleColumn")
        #expect(json["preferredCompactColumn"] as? String == "detail")
        #expect(json["selectedTab"] as? String == "Two columns")

        // Back to none: the view's own columns, no preference, no tab.
        let cleared = try fixture.run([
            "set", "recipes", "main", "--column-visibility", "automatic", "--compact-column", "none", "--no-tab",
            "--json",
        ])
        #expect(cleared.status == 0, "\(cleared.stderr)")
        let state = try jsonObject(cleared.stdout)
        #expect(state["columnVisibility"] as? String == "automatic")
        #expect(state["preferredCompactColumn"] is NSNull)
        #expect(state["selectedTab"] is NSNull)
        #expect(state["revision"] as? Int == 3)
        let shown = try fixture.run(["show", "recipes", "main"]).stdout
        #expect(try field("compact", in: shown) == "(none)")
        #expect(try field("tab", in: shown) == "(none)")
        let back = try #require(try fixture.store().window(session: "recipes", window: "main"))
        #expect(back.preferredCompactColumn == nil && back.selectedTab == nil && back.columnVisibility == .automatic)
    }

    @Test func mutationsApplyInOrderAndMakeAWindowThatHasNone() throws {
        let fixture = Fixture()
        let run = try fixture.run(["set", "mail", "new", "--tab", "inbox", "--no-tab", "--tab", "sent", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try jsonObject(run.stdout)["selectedTab"] as? String == "sent")
        #expect(try jsonObject(run.stdout)["revision"] as? Int == 1, "one write for all of them")
        // An outside writer addressing the focused window selects its tab the same way.
        try fixture.store().focus(session: "mail", window: "new", kind: "mail")
        let focused = try fixture.run(["set", "mail", "--focused", "--kind", "mail", "--tab", "drafts"])
        #expect(focused.status == 0, "\(focused.stderr)")
        #expect(try fixture.store().window(session: "mail", window: "new")?.selectedTab == "drafts")
    }

    /// A value outside the choices is a usage error before anything is opened; a tab the store
    /// would refuse is bad data naming the mutation. Nothing is written either way.
    @Test(arguments: [
        (["--column-visibility", "wide"], 64, "invalid value 'wide' for '--column-visibility <visibility>'"),
        (["--column-visibility", "Automatic"], 64, "Did you mean 'automatic'?"),
        (["--compact-column", "middle"], 64, "expected one of sidebar, content, detail, none"),
        (["--compact-column"], 64, "missing value for '--compact-column <column>'"),
        (["--tab"], 64, "missing value for '--tab <tab>'"),
        (["--no-tab=x"], 64, "option '--no-tab' takes no value"),
        (["--push", "A", "--tab", ""], 65, "mutation 2 of 2 (--tab ''): selected tab is empty"),
        (["--tab", "a\u{7}"], 65, "mutation 1 of 1 (--tab 'a\\u{7}'): selected tab contains a control character"),
        (["--tab", String(repeating: "t", count: 257)], 65, "selected tab is 257 bytes; the limit is 256"),
    ])
    func badValuesAreRefusedAndNothingWritten(_ arguments: [String], _ status: Int32, _ message: String) throws {
        let fixture = Fixture()
        try fixture.save("s", "w") { $0.selectedTab = "kept" }
        let before = try fixture.dump()
        let run = try fixture.run(["set", "s", "w"] + arguments)
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(try fixture.dump() == before, "nothing written")
        // On a missing database, nothing is created.
        let fresh = Fixture()
        #expect(try fresh.run(["set", "s", "w"] + arguments).status == status)
        if status == 64 { #expect(!fresh.exists(fresh.database)) }
    }

    @Test func historyListsThemAndRevertWritesThemBack() throws {
        let fixture = Fixture()
        for arguments in [
            ["--column-visibility", "all", "--tab", "inbox"], ["--compact-column", "sidebar"], ["--no-tab"],
        ] {
            #expect(try fixture.run(["set", "s", "w"] + arguments).status == 0)
        }
        let history = try jsonArray(try fixture.run(["history", "s", "w", "--json"]).stdout)
        let states = history.compactMap { $0["state"] as? [String: Any] }
        #expect(states.map { $0["columnVisibility"] as? String } == ["all", "all", "all"])
        #expect(states.map { $0["preferredCompactColumn"] as? String } == ["sidebar", "sidebar", nil])
        #expect(states.map { $0["selectedTab"] as? String } == [nil, "inbox", "inbox"])

        let table = try fixture.run(["history", "s", "w"]).stdout
        let lines = table.split(separator: "\n")
        #expect(lines.first?.hasSuffix("POLICY   COLUMNS  COMPACT  TAB") == true, "\(table)")
        #expect(lines.last?.hasSuffix("migrate  all      -        inbox") == true, "\(table)")

        let reverted = try fixture.run(["revert", "s", "w", "2", "--json"])
        #expect(reverted.status == 0, "\(reverted.stderr)")
        let state = try jsonObject(reverted.stdout)
        #expect(state["selectedTab"] as? String == "inbox" && state["preferredCompactColumn"] as? String == "sidebar")
        #expect(try fixture.store().window(session: "s", window: "w")?.selectedTab == "inbox")
    }

    @Test func restoreCarriesThemAsSaved() throws {
        let fixture = Fixture()
        #expect(
            try fixture.run([
                "set", "s", "w", "--size-class", "regular", "--present", "Recipe:7", "--column-visibility",
                "detailOnly",
                "--compact-column", "content", "--tab", "x",
            ]).status == 0)
        for sizeClass in SizeClass.allCases {
            let run = try fixture.run(["restore", "s", "w", "--size-class", sizeClass.rawValue, "--json"])
            let restored = try jsonObject(run.stdout)
            #expect(restored["columnVisibility"] as? String == "detailOnly")
            #expect(restored["preferredCompactColumn"] as? String == "content")
            #expect(restored["selectedTab"] as? String == "x")
            #expect(restored["presentation"] as? String == (sizeClass == .regular ? "push" : "sheet"))
        }
        let text = try fixture.run(["restore", "s", "w"]).stdout
        #expect(try field("columns", in: text) == "detailOnly")
        #expect(try field("compact", in: text) == "content")
        #expect(try field("tab", in: text) == "x")
    }

    @Test func exportAndImportCarryThem() throws {
        let source = Fixture()
        #expect(
            try source.run(["set", "s", "w", "--column-visibility", "all", "--compact-column", "detail", "--tab", "t"])
                .status == 0)
        #expect(try source.run(["set", "s", "plain", "--push", "A"]).status == 0)
        let exported = try source.run(["export"])
        #expect(exported.status == 0, "\(exported.stderr)")
        // Key order: the content, then what the store stamps.
        #expect(
            exported.stdout.contains(
                #""policy":"migrate","columnVisibility":"all","preferredCompactColumn":"detail","selectedTab":"t","revision":1,"#
            ))
        #expect(
            exported.stdout.contains(
                #""columnVisibility":"automatic","preferredCompactColumn":null,"selectedTab":null,"revision":1,"#))

        let target = Fixture()
        let imported = try target.run(["import", "--json"], stdin: Data(exported.stdout.utf8))
        #expect(imported.status == 0, "\(imported.stderr)")
        let window = try #require(try target.store().window(session: "s", window: "w"))
        #expect(
            window.columnVisibility == .all && window.preferredCompactColumn == .detail && window.selectedTab == "t")
        #expect(try target.store().window(session: "s", window: "plain")?.selectedTab == nil)
    }

    /// A document from before the state had them imports as new windows have them.
    @Test func anOldDocumentStillImports() throws {
        let fixture = Fixture()
        let document = #"""
            {"format":"statectl/1","windows":[{"session":"s","window":"w","sizeClass":"compact","path":[],"item":null,"itemPath":[],"policy":"dismiss","revision":3,"updatedAt":"2026-11-30T05:45:14.123Z"}]}
            """#
        let run = try fixture.run(["import"], stdin: Data(document.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        let state = try #require(try fixture.store().window(session: "s", window: "w"))
        #expect(state.policy == .dismiss && state.columnVisibility == .automatic)
        #expect(state.preferredCompactColumn == nil && state.selectedTab == nil)
    }

    @Test(arguments: [
        (
            #""columnVisibility":"double-column""#,
            "windows[1].columnVisibility: 'double-column' is not a column visibility"
        ),
        (#""preferredCompactColumn":"none""#, "windows[1].preferredCompactColumn: 'none' is not a split view column"),
        (#""selectedTab":"""#, "windows[1]: selected tab is empty"),
        (#""selectedTab":true"#, "windows[1].selectedTab"),
    ])
    func anUnknownValueIsBadDataAndNothingIsWritten(_ member: String, _ message: String) throws {
        let fixture = Fixture()
        try fixture.save("s", "first") { $0.push(route("A")) }
        let before = try fixture.dump()
        let document =
            #"{"format":"statectl/1","windows":[{"session":"s","window":"first"},{"session":"s","window":"w","#
            + member + "}]}"
        let run = try fixture.run(["import"], stdin: Data(document.utf8))
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(try fixture.dump() == before, "nothing written, not even the good window")
    }

    @Test func watchPrintsThem() throws {
        let fixture = Fixture()
        let json = try WatchCommandTests.Watcher(fixture, ["--json", "--count", "2", "--timeout", "20"])
        let text = try WatchCommandTests.Watcher(fixture, ["--count", "2", "--timeout", "20"])
        try json.waitForMessage("Waiting for \(fixture.database) to be created")
        try text.waitForMessage("Waiting for \(fixture.database) to be created")
        #expect(try fixture.run(["set", "s", "w", "--push", "A"]).status == 0)
        #expect(
            try fixture.run(["set", "s", "w", "--column-visibility", "all", "--compact-column", "detail", "--tab", "t"])
                .status == 0)
        let (jsonStatus, jsonLines) = try json.finish()
        #expect(jsonStatus == 0)
        let states = try jsonLines.map { try #require(try jsonObject($0)["state"] as? [String: Any]) }
        #expect(states.map { $0["columnVisibility"] as? String } == ["automatic", "all"])
        #expect(states.map { $0["preferredCompactColumn"] as? String } == [nil, "detail"])
        #expect(states.map { $0["selectedTab"] as? String } == [nil, "t"])
        let (textStatus, textLines) = try text.finish()
        #expect(textStatus == 0)
        #expect(textLines.count == 2)
        #expect(textLines.first?.contains("item path -") == true && textLines.first?.contains("tab") == false)
        #expect(textLines.last?.contains("item path -, columns all, compact column detail, tab t (") == true)
    }

    @Test func helpAndTheManualPageDescribeThem() throws {
        let help = try statectl(["help", "set"]).stdout
        for option in [
            "--column-visibility <visibility>", "--compact-column <column>", "--tab <tab>", "--no-tab",
        ] {
            #expect(help.contains("  \(option)"), "\(option)")
        }
        #expect(help.contains("automatic, all, doubleColumn, detailOnly"))
        let manual = try statectl(["help", "--man"]).stdout
        #expect(manual.contains(#"\-\-column\-visibility"#) && manual.contains(#"\-\-no\-tab"#))
        let importHelp = try statectl(["help", "import"]).stdout
        #expect(importHelp.contains("'selectedTab'"))
    }
}
