/// One measured operation: each implementation's figure in `unit`, and the ratios.
struct Figure: Encodable {
    enum Unit: String, Encodable {
        case operationsPerSecond = "ops/s"
        case microsecondsPerOperation = "µs/op"
        case milliseconds = "ms"
        case mebibytes = "MiB"
        case perSecond = "/s"

        /// The unit's value for a time of `nanoseconds` per operation.
        func value(nanoseconds: Double) -> Double {
            switch self {
            case .operationsPerSecond: 1e9 / nanoseconds
            case .microsecondsPerOperation: nanoseconds / 1e3
            case .milliseconds: nanoseconds / 1e6
            case .mebibytes, .perSecond: nanoseconds
            }
        }
    }

    var operation: String
    var unit: Unit
    /// WindowStore, or statectl for the CLI figures.
    var subject: Double?
    /// The SQLite C API baseline, or sqlite3 for the CLI figures.
    var raw: Double?
    var file: Double?
    /// What the subject is compared with, for the CLI figures ("sqlite3").
    var rawName = "raw"
    /// The subject's figure over raw's and over file's, in `unit` (for ops/s, a throughput
    /// ratio): medians of the ratios within each round.
    var subjectOverRaw: Double?
    var subjectOverFile: Double?
    var note: String?

    private enum CodingKeys: String, CodingKey {
        case operation, unit, subject, raw, file, rawName, note, subjectOverRaw, subjectOverFile
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(operation, forKey: .operation)
        try container.encode(unit, forKey: .unit)
        try container.encode(subject, forKey: .subject)
        try container.encode(raw, forKey: .raw)
        try container.encode(file, forKey: .file)
        try container.encode(rawName, forKey: .rawName)
        try container.encodeIfPresent(note, forKey: .note)
        try container.encode(subjectOverRaw, forKey: .subjectOverRaw)
        try container.encode(subjectOverFile, forKey: .subjectOverFile)
    }
}

/// One row of the targets table.
struct Target: Encodable {
    enum Bound: String, Encodable {
        case atLeast = "≥"
        case atMost = "≤"
    }

    var figure: String
    var measured: Double?
    var unit: String
    var bound: Bound
    var limit: Double
    var note: String?

    var met: Bool? {
        measured.map { bound == .atLeast ? $0 >= limit : $0 <= limit }
    }

    private enum CodingKeys: String, CodingKey {
        case figure, measured, unit, bound, limit, met, note
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(figure, forKey: .figure)
        try container.encode(measured, forKey: .measured)
        try container.encode(unit, forKey: .unit)
        try container.encode(bound, forKey: .bound)
        try container.encode(limit, forKey: .limit)
        try container.encode(met, forKey: .met)
        try container.encodeIfPresent(note, forKey: .note)
    }
}
