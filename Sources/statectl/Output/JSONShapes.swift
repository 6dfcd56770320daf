import StateStore

// Every `--json` shape statectl prints that the library does not write itself (a WindowState, a
// StateDocument), in one place, each an object's members as data. Routes always go out through
// `Route.write(to:)`, so a value leaves exactly as it was stored.

/// The value of one member of a `--json` object.
indirect enum Field {
    case integer(Int)
    case string(String)
    case bool(Bool)
    case null
    case strings([String])
    case timestamp(Timestamp)
    /// A route object, or `null`.
    case route(Route?)
    case routes([Route])
    /// A WindowState, or `null`.
    case state(WindowState?)
    /// An array of `{"version": n, "name": "..."}` objects.
    case migrations([MigrationInfo])
    case object(KeyValuePairs<String, Field>)
}

extension JSONWriter {
    /// An object of these members, in this order.
    mutating func object(_ members: KeyValuePairs<String, Field>) {
        beginObject()
        for (name, value) in members {
            key(name)
            field(value)
        }
        endObject()
    }

    /// An array of `elements`, each written by `element`.
    mutating func array<Element>(_ elements: some Sequence<Element>, _ element: (inout JSONWriter, Element) -> Void) {
        beginArray()
        for each in elements { element(&self, each) }
        endArray()
    }

    /// An array of strings.
    mutating func strings(_ values: [String]) {
        array(values) { $0.string($1) }
    }

    /// An array of WindowStates (`show SESSION`, `import`).
    mutating func states(_ states: [WindowState]) {
        array(states) { $1.write(to: &$0) }
    }

    /// `restore SESSION --json`: an array of restorations.
    mutating func restorations(_ restorations: [Restoration]) {
        array(restorations) { $1.write(to: &$0) }
    }

    /// `history --json`: `[{revision, state}]`, newest first.
    mutating func history(_ states: [WindowState]) {
        array(states) { $0.object(["revision": .integer($1.revision), "state": .state($1)]) }
    }

    /// `delete --json`: `{session, windows}`.
    mutating func deleted(session: String, windows: [String]) {
        object(["session": .string(session), "windows": .strings(windows)])
    }

    /// `migrate --json`: `{schemaVersion, applied}`.
    mutating func migrated(schemaVersion: Int, applied: [MigrationInfo]) {
        object(["schemaVersion": .integer(schemaVersion), "applied": .migrations(applied)])
    }

    /// `prune --json`: `{dryRun, sessions: [{session, windows, lastWrite}]}`.
    mutating func pruned(_ sessions: [PrunedSession], dryRun: Bool) {
        beginObject()
        key("dryRun")
        bool(dryRun)
        key("sessions")
        array(sessions) { writer, session in
            writer.object([
                "session": .string(session.session), "windows": .strings(session.windows),
                "lastWrite": .timestamp(session.lastWrite),
            ])
        }
        endObject()
    }

    private mutating func field(_ value: Field) {
        switch value {
        case .integer(let value): integer(value)
        case .string(let value): string(value)
        case .bool(let value): bool(value)
        case .null: null()
        case .strings(let values): strings(values)
        case .timestamp(let value): timestamp(value)
        case .route(let route): if let route { route.write(to: &self) } else { null() }
        case .routes(let routes): routes.write(to: &self)
        case .state(let state): if let state { state.write(to: &self) } else { null() }
        case .migrations(let migrations):
            array(migrations) { $0.object(["version": .integer($1.version), "name": .string($1.name)]) }
        case .object(let members): object(members)
        }
    }
}

extension ListedWindow {
    /// `list --json`'s row: `{session, window, sizeClass, depth, item, revision, updatedAt}`,
    /// the ids and the item from the bytes the store lends.
    func write(to writer: inout JSONWriter) {
        // Member by member, not as `Field`s: `list` writes one row per window, a million of them.
        writer.beginObject()
        writer.key("session")
        withSessionUTF8 { writer.string(utf8: $0) }
        writer.key("window")
        withWindowUTF8 { writer.string(utf8: $0) }
        writer.key("sizeClass")
        sizeClass.withRawValueUTF8 { writer.string(utf8: $0) }
        writer.key("depth")
        writer.integer(depth)
        writer.key("item")
        if withItemJSON({ writer.json(utf8: $0) }) == nil { writer.null() }
        writer.key("revision")
        writer.integer(revision)
        writer.key("updatedAt")
        writer.timestamp(updatedAt)
        writer.endObject()
    }
}

extension Restoration {
    /// `restore --json`: `{session, window, sizeClass, savedSizeClass, presentation, stack, sheet,
    /// columnVisibility, preferredCompactColumn, selectedTab, revision}`, `sheet` being
    /// `{"stack": [...]}` or `null`; the split view's and tab view's values as the state holds them.
    func write(to writer: inout JSONWriter) {
        writer.object([
            "session": .string(saved.session), "window": .string(saved.window),
            "sizeClass": .string(layout.sizeClass.rawValue), "savedSizeClass": .string(saved.sizeClass.rawValue),
            "presentation": .string(layout.presentation.rawValue), "stack": .routes(layout.stack),
            "sheet": layout.sheet.map { .object(["stack": .routes($0)]) } ?? .null,
            "columnVisibility": .string(saved.columnVisibility.rawValue),
            "preferredCompactColumn": saved.preferredCompactColumn.map { .string($0.rawValue) } ?? .null,
            "selectedTab": saved.selectedTab.map { .string($0) } ?? .null,
            "revision": .integer(saved.revision),
        ])
    }
}

extension MigrationStatus {
    /// `migrate --status --json`: `{schemaVersion, latestVersion, applied, pending}`.
    func write(to writer: inout JSONWriter) {
        writer.object([
            "schemaVersion": .integer(schemaVersion), "latestVersion": .integer(latestVersion),
            "applied": .migrations(applied), "pending": .migrations(pending),
        ])
    }
}

extension CheckReport {
    /// `check --json`: `{path, exists, ok, integrity, schemaProblems, rowProblems, schemaVersion,
    /// latestVersion, pending, freePages, freeBytes}`.
    func write(to writer: inout JSONWriter, path: String, exists: Bool) {
        writer.object([
            "path": .string(path), "exists": .bool(exists), "ok": .bool(isOK), "integrity": .strings(integrity),
            "schemaProblems": .strings(schemaProblems), "rowProblems": .strings(rowProblems),
            "schemaVersion": .integer(migrations.schemaVersion), "latestVersion": .integer(migrations.latestVersion),
            "pending": .migrations(migrations.pending), "freePages": .integer(freePages),
            "freeBytes": .integer(freeBytes),
        ])
    }
}

extension BackupReport {
    /// `backup --json`: `{path, windows, bytes}`.
    func write(to writer: inout JSONWriter) {
        writer.object(["path": .string(path), "windows": .integer(windows), "bytes": .integer(bytes)])
    }
}

extension WindowChange {
    /// A `watch --json` line: `{session, window, revision, state}`, the last two `null` for a deletion.
    func write(to writer: inout JSONWriter) {
        writer.object([
            "session": .string(session), "window": .string(window), "revision": revision.map { .integer($0) } ?? .null,
            "state": .state(state),
        ])
    }
}

extension ChangeGap {
    /// A `watch --json` line for changes the log no longer holds: `{"gap": {first, last, count}}`.
    func write(to writer: inout JSONWriter) {
        writer.object([
            "gap": .object(["first": .integer(Int(first)), "last": .integer(Int(last)), "count": .integer(Int(count))])
        ])
    }
}
