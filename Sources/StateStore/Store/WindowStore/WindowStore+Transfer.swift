extension WindowStore {
    /// Writes a `statectl/1` document of whole window states — of the named sessions, or of all
    /// when `sessions` is empty — sorted by session then window, from one read snapshot. The
    /// document goes out in chunks through `output`, so memory stays flat however large the store.
    /// A named session with no windows is ``StateStoreError/notFound(_:)`` and nothing is written.
    /// A throw from `output` stops the export and reaches the caller unchanged; `output` runs with
    /// the store locked: a call it makes to this store on its thread fails with
    /// ``StateStoreError/reentrantCall(_:)``.
    public func export(sessions: [String] = [], to output: ([UInt8]) throws -> Void) throws {
        for session in sessions { try validateIdentifier(session, "session id") }
        // Byte order, once each, as `list` sorts; "once" by bytes too, since a `Set` of strings
        // would take a composed and a decomposed "é" for one session.
        var seen: Set<[UInt8]> = []
        let named = sessions.filter { seen.insert(Array($0.utf8)).inserted }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        try HostClosure.run { host throws(StateStoreError) in
            try export(named, call: #function) { chunk throws(StateStoreError) in try host.call { try output(chunk) } }
        }
    }

    /// ``export(sessions:to:)`` of sessions checked, sorted and each named once.
    private func export(
        _ named: [String], call: String, to output: ([UInt8]) throws(StateStoreError) -> Void
    ) throws(StateStoreError) {
        try withDatabase(call) { database throws(StateStoreError) in
            try database.readTransaction { () throws(StateStoreError) in
                for session in named {
                    let count = try database.integer("SELECT count(*) FROM windows WHERE session = ?") {
                        statement throws(StateStoreError) in try statement.bind(1, session)
                    }
                    guard count ?? 0 > 0 else { throw .notFound(.session(session)) }
                }
                var writer = JSONWriter(reservingCapacity: 1 << 16)
                try StateDocument.write(to: &writer) { writer throws(StateStoreError) in
                    func each(_ statement: Statement) throws(StateStoreError) {
                        try WindowRow.decode(statement).write(to: &writer)
                        if writer.bytes.count >= 1 << 16 { try output(writer.takeBytes()) }
                    }
                    if named.isEmpty {
                        try database.query(
                            "SELECT \(WindowRow.columns) FROM windows ORDER BY session, window", row: each)
                    } else {
                        for session in named {
                            try database.query(
                                "SELECT \(WindowRow.columns) FROM windows WHERE session = ? ORDER BY window",
                                bind: { statement throws(StateStoreError) in try statement.bind(1, session) },
                                row: each)
                        }
                    }
                }
                try output(writer.takeBytes())
            }
        }
    }

    /// Writes every window of `document` as its next revision (1 for a new window), all in one
    /// transaction: any failure writes nothing. Returns the stored states, in document order.
    @discardableResult
    public func importDocument(_ document: StateDocument) throws(StateStoreError) -> [WindowState] {
        for window in document.windows { try window.validate() }
        return try withDatabase { database throws(StateStoreError) in
            try database.changingWindows { () throws(StateStoreError) -> [WindowState] in
                var stored: [WindowState] = []
                stored.reserveCapacity(document.windows.count)
                for window in document.windows {
                    let current = try database.currentRevision(session: window.session, window: window.window)
                    stored.append(try database.write(window, after: current, options))
                }
                return stored
            }
        }
    }

    /// Replaces `session` with a new one made of `windows`, in one transaction: every window the
    /// session had is deleted with its history and scene facts, then each of `windows` is written
    /// as revision 1.
    /// Every window must belong to `session`. Returns the stored states, in order.
    @discardableResult
    public func replaceSession(
        _ session: String, with windows: [WindowState]
    ) throws(StateStoreError)
        -> [WindowState]
    {
        try validateIdentifier(session, "session id")
        for window in windows {
            // Bytes, not Swift's `==`, which takes "é" and "e\u{301}" for one id.
            guard window.session.utf8.elementsEqual(session.utf8) else {
                throw .invalidInput("window '\(window.session)' '\(window.window)' is not of session '\(session)'")
            }
            try window.validate()
        }
        let kept = Set(windows.map { Array($0.window.utf8) })
        guard kept.count == windows.count else {
            throw .invalidInput("a window is listed twice for session '\(session)'")
        }
        return try withDatabase { database throws(StateStoreError) in
            try database.changingWindows { () throws(StateStoreError) -> [WindowState] in
                try database.deleteWindows(session: session, window: nil)
                var stored: [WindowState] = []
                for window in windows { stored.append(try database.write(window, after: 0, options)) }
                return stored
            }
        }
    }
}
