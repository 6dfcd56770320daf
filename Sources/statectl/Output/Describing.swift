import StateStore

// How the library's values read for people: records and table cells. Routes are shown in the
// command-line form (`TYPE`, `TYPE:JSON`, or `{"type":…,"value":…}` where a type needs it), so what is
// shown can be pasted back into `set`.

extension WindowState {
    /// `show`'s and `set`'s record: the state's fields, in the order of its JSON.
    var record: Record {
        var record = Record()
        record.add("session", session)
        record.add("window", window)
        record.add("size class", sizeClass.rawValue)
        record.add("path", lines: path.map(\.description))
        record.add("item", item?.description ?? "(none)")
        record.add("item path", lines: itemPath.map(\.description))
        record.add("policy", policy.rawValue)
        addSplitViewAndTab(to: &record)
        record.add("revision", String(revision))
        record.add("updated", updatedAt.description)
        return record
    }

    /// What the window's split view and tab view bind, a field each, carried as stored: its column
    /// visibility, its preferred compact column and its selected tab. Labels as short as the
    /// others', so that a record's values stay where they were.
    func addSplitViewAndTab(to record: inout Record) {
        record.add("columns", columnVisibility.rawValue)
        record.add("compact", preferredCompactColumn?.rawValue ?? "(none)")
        record.add("tab", selectedTab ?? "(none)")
    }
}

extension Restoration {
    /// `restore`'s record: what the window shows, and where that came from.
    var record: Record {
        var record = Record()
        record.add("session", saved.session)
        record.add("window", saved.window)
        let from = layout.sizeClass == saved.sizeClass ? "saved in it" : "saved in \(saved.sizeClass.rawValue)"
        record.add("size class", "\(layout.sizeClass.rawValue) (\(from))")
        record.add("presentation", layout.presentation.summary)
        record.add("stack", lines: layout.stack.map(\.description))
        if let sheet = layout.sheet { record.add("sheet", lines: sheet.map(\.description)) }
        saved.addSplitViewAndTab(to: &record)
        record.add("revision", String(saved.revision))
        return record
    }
}

extension Presentation {
    /// The presentation in a few words.
    var summary: String {
        switch self {
        case .none: "none: no item presented"
        case .push: "push: the item is on the window's stack"
        case .sheet: "sheet: the item is in a sheet with its own stack"
        }
    }
}

extension [Route] {
    /// Routes in one table cell, bottom first.
    var cell: String {
        isEmpty ? "-" : map(\.description).joined(separator: " › ")
    }
}
