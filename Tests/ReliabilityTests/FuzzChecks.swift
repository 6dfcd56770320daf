import Foundation
import StateStore
import StateStoreSQLite

@testable import statectl

/// What must hold for any input to the four parsers that take outside text. The libFuzzer
/// targets (`Fuzz/*.swift`, built and run by `Scripts/fuzz.sh`) compile this file in and crash
/// on a finding; `FuzzCorpusTests` runs the committed seeds and every past finding through it.
/// Each check returns nil when the input was handled as it should be, else what went wrong.
/// A crash inside a parser is a finding by itself.
enum FuzzChecks {
    static let targets: [(name: String, check: @Sendable ([UInt8]) -> String?)] = [
        ("route", route),
        ("import", importDocument),
        ("navigation-path", navigationPath),
        ("arguments", arguments),
    ]

    // MARK: Routes: Route(parsing:), Route(type:json:)

    /// The input as a command-line route (`TYPE[:JSON]`), and split at its first NUL as
    /// `Route(type:json:)` arguments. An accepted route keeps to the limits, reads back from its
    /// own command-line form and JSON, and its value is already minified.
    static func route(_ data: [UInt8]) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        if let route = try? Route(parsing: text) {
            if let problem = acceptedRoute(route) { return "Route(parsing:): \(problem)" }
            guard let again = try? Route(parsing: route.description), same(again, route) else {
                return "Route(parsing:): its description \(route.description) does not parse back to it"
            }
        }
        // Differential: the store's JSON scanner and SQLite's json_valid (RFC 8259 in 3.40, as
        // strict about control characters, trailing commas and byte order marks) agree on the
        // same text, within the store's limits (a value of 64 KiB, nesting 512 deep). SQLite's
        // parser stops at a NUL, so text holding one is left out.
        if data.count <= Limits.routeValueBytes, !data.contains(0), let valid = SQLiteJSON.isValid(text) {
            let ours = Result { () throws(StateStoreError) in try Route(type: "T", json: text) }
            switch (ours, valid) {
            case (.success, false):
                return "Route(type:json:) takes JSON that SQLite refuses: \(text.prefix(200))"
            case (.failure(let error), true) where !error.description.contains("nested deeper than"):
                return "Route(type:json:) refuses JSON that SQLite takes: \(text.prefix(200)): \(error)"
            default:
                break
            }
        }
        if let problem = storedReading(data) { return problem }
        let parts = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let type = String(decoding: parts[0], as: UTF8.self)
        let json = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : "null"
        if let route = try? Route(type: type, json: json) {
            if let problem = acceptedRoute(route) { return "Route(type:json:): \(problem)" }
            // Through Codable too: it may refuse (1e999 is no Double), but never crash, and what it
            // encodes decodes again.
            if let encoded = try? JSONEncoder().encode(route) {
                guard (try? JSONDecoder().decode(Route.self, from: encoded)) != nil else {
                    return "Codable: \(String(decoding: encoded, as: UTF8.self)) does not decode"
                }
            }
        }
        return nil
    }

    /// Rows are read along fast paths that decide only what they are sure of: a value the minified
    /// scan accepts, the general scan accepts too, ending at the same byte, without whitespace, and
    /// holds no byte past ASCII where the scan says it saw none (a listing then lends it without
    /// checking its UTF-8); and the input as a stored value, or a stored type, inside a stack reads
    /// as the general reader reads it, or is refused by both.
    static func storedReading(_ data: [UInt8]) -> String? {
        let ends = StoredColumn.valueEnds(data)
        if let end = ends.minified {
            guard let general = ends.general, general.end == end, !general.hasWhitespace else {
                return
                    "the minified scan ends \(data.prefix(200)) at \(end), the general one at \(String(describing: ends.general))"
            }
            if ends.sawOnlyASCII, let byte = data[..<end].first(where: { $0 >= 0x80 }) {
                return "the minified scan of \(data.prefix(200)) saw only ASCII, but it holds \(byte)"
            }
        }
        let text = String(decoding: data, as: UTF8.self)
        let columns = [
            #"[{"type":"T","value":\#(text)}]"#,
            #"[{"type":"T","value":1},{"type":"T","value":\#(text)},{"type":"U","value":[]}]"#,
            #"[{"type":"\#(text)","value":1},{"type":"U","value":2}]"#,
        ]
        for column in columns {
            let fast = Result { () throws(StateStoreError) in try StoredColumn.routes(column) }
            let general = Result { () throws(StateStoreError) in try StoredColumn.routesByTheGeneralReader(column) }
            switch (fast, general) {
            case (.success(let a), .success(let b)) where a.count == b.count && zip(a, b).allSatisfy({ same($0, $1) }):
                continue
            case (.failure, .failure): continue
            default: return "the stored column \(column.prefix(200)) reads as \(fast) but generally as \(general)"
            }
        }
        return nil
    }

    private static func acceptedRoute(_ route: Route) -> String? {
        guard Limits.identifierBytes.contains(route.type.utf8.count) else {
            return "type of \(route.type.utf8.count) bytes"
        }
        guard !route.type.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return "control character in type"
        }
        guard route.json.utf8.count <= Limits.routeValueBytes else { return "value of \(route.json.utf8.count) bytes" }
        guard let minified = try? Route(type: route.type, json: route.json), same(minified, route) else {
            return "value \(route.json) is not minified or does not validate again"
        }
        // One element of a NavigationPath representation, and back.
        guard let routes = try? NavigationPathCoding.routes(from: NavigationPathCoding.json(for: [route])),
            routes.count == 1, same(routes[0], route)
        else { return "does not survive NavigationPathCoding" }
        return nil
    }

    // MARK: Import documents: StateDocument(utf8:), importDocument

    /// An accepted document writes out and parses back to the same windows, and imports into a
    /// store whole, every window reading back as given.
    static func importDocument(_ data: [UInt8]) -> String? {
        guard let document = try? StateDocument(utf8: data) else { return nil }
        var writer = JSONWriter()
        document.write(to: &writer)
        guard let again = try? StateDocument(utf8: writer.bytes) else {
            return "the document written back (\(writer.text.prefix(200))) does not parse"
        }
        guard again.windows.count == document.windows.count,
            zip(again.windows, document.windows).allSatisfy({ same($0, $1) })
        else { return "the document written back parses to other windows" }
        do {
            let store = try WindowStore.inMemory()
            let stored = try store.importDocument(document)
            guard stored.map(\.revision) == Array(repeating: 1, count: document.windows.count) else {
                return "imported revisions \(stored.map(\.revision))"
            }
            for window in document.windows {
                let read = try store.windows(session: window.session).first {
                    $0.window.utf8.elementsEqual(window.window.utf8)
                }
                guard let read, same(read, window) else {
                    return "window '\(window.session)' '\(window.window)' does not read back as imported"
                }
            }
        } catch {
            return "a parsed document did not import: \(error)"
        }
        return nil
    }

    // MARK: NavigationPath: NavigationPathCoding.routes(from:)

    /// Accepted routes write out to a representation that reads back to the same routes, and
    /// that writes out again to the same text.
    static func navigationPath(_ data: [UInt8]) -> String? {
        guard let routes = try? NavigationPathCoding.routes(from: String(decoding: data, as: UTF8.self)) else {
            return nil
        }
        for route in routes {
            if let problem = acceptedRoute(route) { return "route \(route): \(problem)" }
        }
        let json = NavigationPathCoding.json(for: routes)
        guard let again = try? NavigationPathCoding.routes(from: json), again.count == routes.count,
            zip(again, routes).allSatisfy({ same($0, $1) })
        else { return "\(json.prefix(200)) does not read back to the same routes" }
        guard NavigationPathCoding.json(for: again) == json else { return "writing is not stable" }
        return nil
    }

    // MARK: statectl's argument parser

    /// The input split at NUL bytes into arguments (as argv would carry them). Parsing is
    /// deterministic, and every outcome renders: a usage error as `Error: …` and a usage line,
    /// help as text, a command as one of the arguments.
    static func arguments(_ data: [UInt8]) -> String? {
        let arguments = data.split(separator: 0, omittingEmptySubsequences: false).prefix(256).map { bytes in
            bytes.withUnsafeBufferPointer { RawArgument(bytes: $0) }
        }
        let parser = Parser(commands: Command.all)
        let first = Result { () throws(UsageError) in try parser.parse(arguments) }
        let second = Result { () throws(UsageError) in try parser.parse(arguments) }
        guard String(describing: first) == String(describing: second) else { return "parsing is not deterministic" }
        switch first {
        case .failure(let error):
            let report = error.report
            guard report.hasPrefix("Error: "), report.contains("\nUsage: statectl") else {
                return "usage error renders as \(report)"
            }
        case .success(.help(let command)):
            guard Help.text(for: command).contains("USAGE:") else { return "help for \(command?.name ?? "statectl")" }
        case .success(.version):
            guard arguments.contains(where: { $0.text == "--version" }) else { return "version without --version" }
        case .success(.run(let invocation)):
            guard arguments.contains(where: { $0.text == invocation.command.name }) else {
                return "ran \(invocation.command.name), which is not among the arguments"
            }
            guard invocation.positionals.count <= arguments.count else { return "more positionals than arguments" }
        }
        return nil
    }

    // MARK: Byte-wise comparison (Swift's == on ids would take "é" and "e\u{301}" as equal)

    static func same(_ a: Route, _ b: Route) -> Bool {
        a.type.utf8.elementsEqual(b.type.utf8) && a.json.utf8.elementsEqual(b.json.utf8)
    }

    static func same(_ a: WindowState, _ b: WindowState) -> Bool {
        func same(_ a: [Route], _ b: [Route]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { FuzzChecks.same($0, $1) }
        }
        return a.session.utf8.elementsEqual(b.session.utf8) && a.window.utf8.elementsEqual(b.window.utf8)
            && a.sizeClass == b.sizeClass && a.policy == b.policy && same(a.path, b.path)
            && same(a.item.map { [$0] } ?? [], b.item.map { [$0] } ?? []) && same(a.itemPath, b.itemPath)
    }
}

/// SQLite's own JSON validator, as a second opinion for the route check: one in-memory connection,
/// used under a lock.
final class SQLiteJSON: @unchecked Sendable {
    private static let shared = SQLiteJSON()
    private let lock = NSLock()
    private var handle: OpaquePointer?
    private var statement: OpaquePointer?

    private init() {
        guard sqlite3_open(":memory:", &handle) == SQLITE_OK else { return }
        sqlite3_prepare_v2(handle, "SELECT json_valid(?1)", -1, &statement, nil)
    }

    /// Whether SQLite's `json_valid` takes `text`; nil when it could not be asked.
    static func isValid(_ text: String) -> Bool? {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        guard let statement = shared.statement else { return nil }
        defer { sqlite3_reset(statement) }
        var text = text
        let bound = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else { return sqlite3_bind_text(statement, 1, "", 0, nil) }
                return sqlite3_bind_text(statement, 1, base, Int32(chars.count), statestore_sqlite_transient())
            }
        }
        guard bound == SQLITE_OK, sqlite3_step(statement) == SQLITE_ROW else { return nil }
        return sqlite3_column_int(statement, 0) == 1
    }
}
