import Foundation
import StateStoreBaselines

/// The machine and settings a run measured on.
struct Machine: Encodable {
    var cores: Int
    var cpu: String
    var memoryGiB: Double
    var system: String
    var sqlite: String
    var statectl: String?
    var quick: Bool

    static func current(quick: Bool) -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        var name = utsname()
        uname(&name)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return Machine(
            cores: ProcessInfo.processInfo.activeProcessorCount, cpu: model ?? "unknown",
            memoryGiB: (Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824).rounded(),
            system: text(name.sysname) + " " + text(name.release) + " " + text(name.machine),
            sqlite: RawStore.sqliteVersion, statectl: Bench.statectlPath(), quick: quick)
    }
}

struct Report: Encodable {
    var machine: Machine
    var figures: [Figure]
    var targets: [Target]

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The tables for people.
    func text() -> String {
        var lines: [String] = []
        lines.append(
            "statebench\(machine.quick ? " --quick" : ""): \(machine.cores) cores, \(machine.cpu), "
                + "\(Int(machine.memoryGiB)) GiB, \(machine.system), SQLite \(machine.sqlite)")
        lines.append("WAL, synchronous=NORMAL, history of 100 revisions; medians of interleaved rounds")
        lines.append("")
        let library = figures.filter { $0.rawName == "raw" }
        if !library.isEmpty {
            lines += table(
                ["operation", "unit", "StateStore", "raw", "file", "StateStore/raw", "StateStore/file"],
                library.map {
                    [
                        $0.operation, $0.unit.rawValue, number($0.subject), number($0.raw), number($0.file),
                        ratio($0.subjectOverRaw), ratio($0.subjectOverFile),
                    ]
                })
            lines.append("")
        }
        let cli = figures.filter { $0.rawName == "sqlite3" }
        if !cli.isEmpty {
            lines += table(
                ["command", "unit", "statectl", "sqlite3", "statectl/sqlite3"],
                cli.map {
                    [$0.operation, $0.unit.rawValue, number($0.subject), number($0.raw), ratio($0.subjectOverRaw)]
                })
            lines.append("")
        }
        let notify = figures.filter { $0.rawName == "polling" }
        if !notify.isEmpty {
            // Polling over notifications here, how many times fewer: the other way round is 0.00×.
            lines += table(
                ["change feed", "unit", "notifications", "polling", "polling/notifications"],
                notify.map {
                    [
                        $0.operation, $0.unit.rawValue, number($0.subject), number($0.raw),
                        ratio($0.subjectOverRaw.map { 1 / $0 }),
                    ]
                })
            lines.append("")
        }
        let host = figures.filter { $0.rawName == "host" }
        if !host.isEmpty {
            lines += table(
                ["live window (StateStoreHost)", "unit", "measured"],
                host.map { [$0.operation, $0.unit.rawValue, number($0.subject)] })
            lines.append("")
        }
        lines += table(
            ["target", "measured", "target", "met"],
            targets.map { target in
                [
                    target.figure,
                    target.measured.map { target.unit == "×" ? ratio($0) : number($0) + " " + target.unit } ?? "–",
                    target.bound.rawValue + " " + String(format: "%g", target.limit)
                        + (target.unit == "×" ? "×" : " " + target.unit),
                    target.met.map { $0 ? "yes" : "NO" } ?? "not measured",
                ]
            })
        let met = targets.filter { $0.met == true }.count
        lines.append("")
        lines.append("\(met) of \(targets.count) targets met")
        let notes =
            figures.compactMap { figure in figure.note.map { "\(figure.operation): \($0)" } }
            + targets.compactMap { target in target.note.map { "\(target.figure): \($0)" } }
        if !notes.isEmpty { lines += [""] + notes.map { "note — " + $0 } }
        return lines.joined(separator: "\n")
    }

    private func table(_ header: [String], _ rows: [[String]]) -> [String] {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max()!
        }
        return ([header] + rows).map { row in
            row.indices.map { column in
                // The first column reads left to right, figures align right.
                column == 0
                    ? row[column].padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - row[column].count) + row[column]
            }.joined(separator: "  ")
        }
    }

    private func number(_ value: Double?) -> String {
        guard let value else { return "–" }
        switch abs(value) {
        case 1000...: return String(format: "%.0f", value)
        case 100..<1000: return String(format: "%.1f", value)
        case 10..<100: return String(format: "%.2f", value)
        default: return String(format: "%.3g", value)
        }
    }

    private func ratio(_ value: Double?) -> String {
        value.map { String(format: "%.2f×", $0) } ?? "–"
    }
}
