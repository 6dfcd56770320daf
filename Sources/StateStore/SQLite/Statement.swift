import StateStoreSQLite

/// A prepared statement, cached by its connection for the connection's life.
///
/// Use it through ``Database/run(_:bind:)`` and ``Database/query(_:bind:row:)``, which reset it
/// afterwards: a statement left mid-step would keep a read snapshot open.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    private unowned let database: Database
    /// What reading one row leaves for the next. Only its connection's owner touches it.
    @exclusivity(unchecked) var reading = RowReading()

    init(database: Database, sql: String) throws(StateStoreError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_finalize(handle)
            throw database.failure(code, sql: sql)
        }
        self.handle = handle
        self.sql = sql
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: Binding (1-based, as SQLite counts)

    func bind(_ index: Int32, _ value: String) throws(StateStoreError) {
        var value = value
        let code = value.withUTF8 { utf8 in
            bindText(index, utf8)
        }
        try check(code)
    }

    func bind(_ index: Int32, _ value: String?) throws(StateStoreError) {
        if let value { try bind(index, value) } else { try check(sqlite3_bind_null(handle, index)) }
    }

    func bind(_ index: Int32, _ value: Int64) throws(StateStoreError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ index: Int32, _ value: Int) throws(StateStoreError) {
        try bind(index, Int64(value))
    }

    /// Binds `utf8` without SQLite copying it: the caller keeps the bytes alive and unchanged until
    /// ``reset()``, which clears the binding.
    func bind(_ index: Int32, borrowing utf8: UnsafeBufferPointer<UInt8>) throws(StateStoreError) {
        try check(bindText(index, utf8, copied: false))
    }

    private func bindText(_ index: Int32, _ utf8: UnsafeBufferPointer<UInt8>, copied: Bool = true) -> Int32 {
        // An empty buffer may have no address, which SQLite would bind as NULL.
        guard let base = utf8.baseAddress, utf8.count > 0 else {
            return sqlite3_bind_text(handle, index, "", 0, nil)
        }
        return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
            sqlite3_bind_text(handle, index, $0, Int32(utf8.count), copied ? statestore_sqlite_transient() : nil)
        }
    }

    // MARK: Stepping

    /// Steps once: `true` when a row is ready, `false` when done.
    func step() throws(StateStoreError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw database.failure(code, sql: sql)
        }
    }

    /// Resets after use; the step's error, if any, was already reported by ``step()``.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Columns (0-based, as SQLite counts)

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func int(_ column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The column's integer, or `nil` when it holds anything else (text, a real, a blob, NULL),
    /// which ``int64(_:)`` would quietly turn into a number.
    func exactInt64(_ column: Int32) -> Int64? {
        // One column call, then the value's: each `sqlite3_column_*` call looks the column up
        // again (about 60 instructions). The connection is used by one thread at a time, as the
        // value calls on a column's value need.
        let value = sqlite3_column_value(handle, column)
        return sqlite3_value_type(value) == SQLITE_INTEGER ? sqlite3_value_int64(value) : nil
    }

    /// The column's text when it is text and valid UTF-8, else `nil` (a blob, a number, NULL, or
    /// bytes ``text(_:)`` would repair with U+FFFD).
    func strictText(_ column: Int32) -> String? {
        guard sqlite3_column_type(handle, column) == SQLITE_TEXT else { return nil }
        return withText(column) { $0.validatedUTF8String }
    }

    /// The column's value as SQL would write it (`'abc'`, `1.5`, `X'01'`, `NULL`), for messages
    /// about a value that is not what the store writes.
    func literal(_ column: Int32) -> String {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: return "NULL"
        case SQLITE_INTEGER, SQLITE_FLOAT: return text(column)
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            let bytes = UnsafeRawBufferPointer(start: sqlite3_column_blob(handle, column), count: count)
            let digits = Array("0123456789ABCDEF".utf8)
            var hex: [UInt8] = []
            for byte in bytes.prefix(32) { hex += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
            return "X'" + String(decoding: hex, as: UTF8.self) + (count > 32 ? "…'" : "'")
        default:
            var text = text(column)
            if text.count > 40 { text = String(text.prefix(40)) + "…" }
            return "'" + text.replacingQuote() + "'"
        }
    }

    /// The size of the column's value in bytes (its text's UTF-8, a blob's bytes; 0 for NULL).
    func byteCount(_ column: Int32) -> Int {
        Int(sqlite3_column_bytes(handle, column))
    }

    func text(_ column: Int32) -> String {
        withText(column) { String(decoding: $0, as: UTF8.self) }
    }

    /// Lends the column's UTF-8 bytes, valid only inside `body`.
    func withText<T, E: Error>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T) throws(E) -> T {
        // Text first, then its length, as SQLite's documentation orders them; one column call.
        let value = sqlite3_column_value(handle, column)
        let pointer = sqlite3_value_text(value)
        let count = Int(sqlite3_value_bytes(value))
        return try body(UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }

    private func check(_ code: Int32) throws(StateStoreError) {
        guard code == SQLITE_OK else { throw database.failure(code, sql: sql) }
    }
}

extension String {
    /// The text with each `'` doubled, as inside an SQL string literal.
    fileprivate func replacingQuote() -> String {
        var out = ""
        for character in self {
            out.append(character)
            if character == "'" { out.append("'") }
        }
        return out
    }
}
