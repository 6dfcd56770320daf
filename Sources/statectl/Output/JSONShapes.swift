import StateStore

// The JSON documents of SPEC §5 that the library does not write itself. Routes always go out
// through `Route.write(to:)`, so a value leaves exactly as it was stored.

extension JSONWriter {
    /// A route object, or `null`.
    mutating func route(_ route: Route?) {
        if let route { route.write(to: &self) } else { null() }
    }

    /// An array of strings.
    mutating func strings(_ values: [String]) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    /// An array of `{"version": n, "name": "..."}` objects.
    mutating func migrations(_ migrations: [MigrationInfo]) {
        beginArray()
        for migration in migrations {
            beginObject()
            key("version")
            integer(migration.version)
            key("name")
            string(migration.name)
            endObject()
        }
        endArray()
    }
}

extension WindowSummary {
    /// `list --json`'s row: `{session, window, sizeClass, depth, item, revision, updatedAt}`.
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("session")
        writer.string(session)
        writer.key("window")
        writer.string(window)
        writer.key("sizeClass")
        writer.string(sizeClass.rawValue)
        writer.key("depth")
        writer.integer(depth)
        writer.key("item")
        writer.route(item)
        writer.key("revision")
        writer.integer(revision)
        writer.key("updatedAt")
        writer.timestamp(updatedAt)
        writer.endObject()
    }
}

extension Restoration {
    /// `restore --json`: `{session, window, sizeClass, savedSizeClass, presentation, stack, sheet,
    /// revision}`, `sheet` being `{"stack": [...]}` or `null`.
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("session")
        writer.string(saved.session)
        writer.key("window")
        writer.string(saved.window)
        writer.key("sizeClass")
        writer.string(layout.sizeClass.rawValue)
        writer.key("savedSizeClass")
        writer.string(saved.sizeClass.rawValue)
        writer.key("presentation")
        writer.string(layout.presentation.rawValue)
        writer.key("stack")
        layout.stack.write(to: &writer)
        writer.key("sheet")
        if let sheet = layout.sheet {
            writer.beginObject()
            writer.key("stack")
            sheet.write(to: &writer)
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("revision")
        writer.integer(saved.revision)
        writer.endObject()
    }
}
