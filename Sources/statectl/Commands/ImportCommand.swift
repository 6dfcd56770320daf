import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Command {
    static let `import` = Command(
        name: "import",
        abstract: "Write the windows of an exported JSON document.",
        discussion: """
            Reads {"format": "statectl/1", "windows": [...]} from FILE, or from standard input \
            when FILE is '-' or left out (a byte order mark at its start is skipped). Each window needs 'session' and 'window'; 'sizeClass', \
            'path', 'item', 'itemPath', 'policy', 'columnVisibility', 'preferredCompactColumn' and \
            'selectedTab' default as in a new window (documents from before the last three still \
            import); 'revision' and 'updatedAt' are ignored: each window is written as its next \
            revision, stamped now. All or nothing: a bad window (unknown key or value, a window \
            twice, itemPath without item, a limit exceeded) exits 65 naming it, and nothing is written. Reads at most 256 MiB, \
            and stops at once at a NUL byte or a first byte other than '{': bad data too.

              statectl import mail.json
              statectl export mail | statectl --db other.db import
            """,
        arguments: [ImportCommand.file.positional],
        options: [.json],
        run: ImportCommand.run)
}

enum ImportCommand {
    static let file = Argument(
        "file", as: String.self, help: "The document; '-' or none for standard input.", arity: .optional,
        completion: .files)

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let name = invocation.argument(file) ?? "-"
        if name == "-" && isatty(0) == 1 {
            // Otherwise a user who forgot the file sees a command that hangs.
            context.message("Reading the document from standard input (a terminal); end it with Ctrl-D.")
        }
        // Read and check the whole document before the database is opened or created.
        let document = try StateDocument(utf8: try readAll(name))
        let store = try invocation.openOrCreateStore(context)
        let written = try store.importDocument(document)
        context.hasWritten = true
        if invocation.flag(.json) {
            context.output.writeJSON { $0.states(written) }
            return
        }
        let table = Table(
            [.init(title: "SESSION"), .init(title: "WINDOW"), .init(title: "REVISION", alignment: .right)],
            output: context.output, style: context.style)
        for state in written { table.add([state.session, state.window, String(state.revision)]) }
        table.finish()
        context.message("Imported \(written.count) window\(written.count == 1 ? "" : "s").")
    }

    /// The most `import` reads: far above any real export (a window is at most 1 MiB of JSON, and
    /// a thousand windows of a few KiB each make a few MiB), yet an endless or runaway input
    /// stops here, long before memory runs out.
    static let documentLimit = 256 * 1024 * 1024

    /// The bytes of a file, or of standard input for `-`, refused as bad data as soon as they
    /// cannot be a document: over ``documentLimit`` (a regular file by its size, before a byte is
    /// read), a NUL byte (never in JSON text: `/dev/zero`), or a first byte other than `{` after
    /// an optional byte order mark and whitespace (`yes | statectl import`).
    private static func readAll(_ name: String) throws -> [UInt8] {
        let descriptor = name == "-" ? 0 : open(name, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            // Not the store's notFound: that names the database file.
            if code == ENOENT { throw CommandFailure(status: ExitStatus.notFound, message: "no file \(name)") }
            throw ioError("cannot open \(name)", code)
        }
        defer { if descriptor != 0 { close(descriptor) } }
        let source = name == "-" ? "standard input" : name
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > documentLimit {
            throw StateStoreError.invalidInput("import document: \(source) is \(status.st_size) bytes; \(limitText)")
        }
        var bytes: [UInt8] = []
        var scan = DocumentStart()
        var chunk = [UInt8](repeating: 0, count: 1024 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ioError("cannot read \(source)", errno)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= documentLimit else {
                throw StateStoreError.invalidInput(
                    "import document: \(source) holds more than \(documentLimit) bytes; \(limitText)")
            }
            if let nul = firstNUL(in: chunk, count: count) {
                throw StateStoreError.invalidInput(
                    "import document: byte \(bytes.count + nul) is a NUL byte, which JSON text never holds: not a document"
                )
            }
            if let offset = scan.unexpected(in: chunk[..<count]) {
                throw StateStoreError.invalidInput(
                    "import document: expected an object ('{') at byte \(offset): not a \(StateDocument.format) document"
                )
            }
            chunk.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// Where the first NUL byte is among the first `count` bytes of `chunk` (`memchr`: a debug
    /// build reads 256 MiB in a fraction of a second too).
    private static func firstNUL(in chunk: [UInt8], count: Int) -> Int? {
        chunk.withUnsafeBytes { buffer in
            guard let found = memchr(buffer.baseAddress!, 0, count) else { return nil }
            return UnsafeRawPointer(found) - buffer.baseAddress!
        }
    }

    private static let limitText = "the limit is \(documentLimit / 1024 / 1024) MiB; nothing was written"

    /// Follows the start of a document across reads: a byte order mark, whitespace, then `{`.
    /// What it lets through, the parser checks in full.
    private struct DocumentStart {
        private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        private var position = 0
        private var decided = false

        /// The offset in the input of the first byte that cannot start a document, if `chunk`
        /// (the input's next bytes) holds it.
        mutating func unexpected(in chunk: ArraySlice<UInt8>) -> Int? {
            guard !decided else { return nil }
            for byte in chunk {
                defer { position += 1 }
                if position < 3 && byte == Self.byteOrderMark[position] { continue }
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    continue
                case UInt8(ascii: "{"):
                    decided = true
                    return nil
                default:
                    decided = true
                    return position
                }
            }
            return nil
        }
    }

    private static func ioError(_ what: String, _ code: Int32) -> StateStoreError {
        .io(SQLiteFailure(code: .ioErr, message: "\(what): \(String(cString: strerror(code)))"))
    }
}
