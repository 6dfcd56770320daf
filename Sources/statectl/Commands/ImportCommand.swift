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
            when FILE is '-' or left out. Each window needs 'session' and 'window'; 'sizeClass', \
            'path', 'item', 'itemPath' and 'policy' default as in a new window; 'revision' and \
            'updatedAt' are ignored: each window is written as its next revision, stamped now. \
            All or nothing: a bad window (unknown key, a window twice, itemPath without item, a \
            limit exceeded) exits 65 naming it, and nothing is written.

              statectl import mail.json
              statectl export mail | statectl --db other.db import
            """,
        arguments: [ImportCommand.file],
        options: [.json],
        run: ImportCommand.run)
}

enum ImportCommand {
    static let file = Positional(
        name: "file", help: "The document; '-' or none for standard input.", arity: .optional)

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let name = invocation.argument(file) ?? "-"
        // Read and check the whole document before the database is opened or created.
        let document = try ImportDocument(utf8: try readAll(name))
        let store = try invocation.openOrCreateStore(context)
        let written = try store.importDocument(document)
        context.hasWritten = true
        if invocation.flag(.json) {
            context.output.writeJSON { writer in
                writer.beginArray()
                for state in written { state.write(to: &writer) }
                writer.endArray()
            }
            return
        }
        let table = Table(
            [.init(title: "SESSION"), .init(title: "WINDOW"), .init(title: "REVISION", alignment: .right)],
            output: context.output, style: context.style)
        for state in written { table.add([state.session, state.window, String(state.revision)]) }
        table.finish()
        context.message("Imported \(written.count) window\(written.count == 1 ? "" : "s").")
    }

    /// The bytes of a file, or of standard input for `-`.
    private static func readAll(_ name: String) throws(StateStoreError) -> [UInt8] {
        let descriptor = name == "-" ? 0 : open(name, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { throw .notFound("no file \(name)") }
            throw ioError("cannot open \(name)", code)
        }
        defer { if descriptor != 0 { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ioError("cannot read \(name == "-" ? "standard input" : name)", errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    private static func ioError(_ what: String, _ code: Int32) -> StateStoreError {
        .damaged(SQLiteFailure(code: 10, message: "\(what): \(String(cString: strerror(code)))"))
    }
}
