import StateStore

extension Command {
    static let check = Command(
        name: "check",
        abstract: "Check the database's integrity and schema.",
        discussion: """
            Runs SQLite's integrity check and compares the recorded migrations with this build's. \
            Changes and creates nothing: a missing database reports an empty store.
            """,
        options: [.json],
        run: CheckCommand.run)
}

enum CheckCommand {
    static func run(_ invocation: Invocation, _ context: Context) throws {
        let path = try invocation.databasePath(context)
        let store = try invocation.openStoreIfPresent(context, migrating: false)
        let report = try (store ?? emptyStore()).check()
        let status = report.migrations
        if invocation.flag(.json) {
            context.output.writeJSON { writer in
                writer.beginObject()
                writer.key("path")
                writer.string(path)
                writer.key("exists")
                writer.bool(store != nil)
                writer.key("ok")
                writer.bool(report.isOK)
                writer.key("integrity")
                writer.strings(report.integrity)
                writer.key("schemaProblems")
                writer.strings(report.schemaProblems)
                writer.key("schemaVersion")
                writer.integer(status.schemaVersion)
                writer.key("latestVersion")
                writer.integer(status.latestVersion)
                writer.key("pending")
                writer.migrations(status.pending)
                writer.endObject()
            }
        } else {
            var record = Record()
            record.add("database", store == nil ? "\(path) (missing: an empty store)" : path)
            record.add("integrity", lines: report.integrity.flatMap { $0.split(separator: "\n").map(String.init) })
            record.add("schema", "version \(status.schemaVersion) (this build: \(status.latestVersion))")
            record.add("pending", lines: status.pending.map(\.description))
            record.add("problems", lines: report.schemaProblems)
            record.add("result", report.isOK ? "ok" : "DAMAGED")
            context.output.write(record.text(style: context.style))
        }
        guard report.isOK else {
            let what = report.integrity == ["ok"] ? "its schema record is wrong" : "the integrity check failed"
            throw CommandFailure(status: 74, message: "\(path) is damaged: \(what)")
        }
    }
}
