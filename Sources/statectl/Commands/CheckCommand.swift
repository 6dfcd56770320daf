import StateStore

extension Command {
    static let check = Command(
        name: "check",
        abstract: "Check the database's integrity and schema.",
        discussion: """
            Runs SQLite's integrity check, compares the schema (tables, indexes, triggers and the \
            recorded migrations) with what this build's migrations create, and reads every row of \
            every table as the store would, naming each problem: the window, the revision, the \
            change. Exits 74 when anything is wrong. Also says how much of the file is free pages \
            (a write gives them back once they pass a quarter of the file, a delete at once). \
            Changes and creates nothing, and takes no write lock; a missing database is exit 66.
            """,
        options: [.json],
        run: CheckCommand.run)
}

enum CheckCommand {
    static func run(_ invocation: Invocation, _ context: Context) throws {
        let path = try invocation.databasePath(context)
        let report = try invocation.openStoreToInspect(context).check()
        let status = report.migrations
        if invocation.flag(.json) {
            context.output.writeJSON { report.write(to: &$0, path: path, exists: true) }
        } else {
            var record = Record()
            record.add("database", path)
            record.add("integrity", lines: report.integrity.flatMap { $0.split(separator: "\n").map(String.init) })
            record.add("schema", "version \(status.schemaVersion) (this build: \(status.latestVersion))")
            record.add("pending", lines: status.pending.map(\.description))
            record.add("problems", lines: report.schemaProblems)
            record.add("bad rows", lines: report.rowProblems)
            record.add("free", "\(report.freePages) pages (\(report.freeBytes) bytes)")
            record.add("result", report.isOK ? "ok" : "DAMAGED")
            context.output.write(record.text(style: context.style))
        }
        guard report.isOK else {
            var what: [String] = []
            if report.integrity != ["ok"] { what.append("the integrity check failed") }
            if !report.schemaProblems.isEmpty { what.append(count(report.schemaProblems.count, "schema problem")) }
            if !report.rowProblems.isEmpty { what.append("rows it cannot read (listed as bad rows)") }
            throw CommandFailure(
                status: ExitStatus.ioError, message: "\(path) is damaged: \(what.joined(separator: "; "))")
        }
    }

    private static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
