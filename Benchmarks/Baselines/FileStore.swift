import Foundation
import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file-per-window baseline: what many apps do by hand. Each window is one JSON file,
/// `ROOT/SESSION/WINDOW.json`, written with JSONEncoder to a temporary file that is then renamed
/// over it (atomic, and like SQLite's `synchronous=NORMAL` not flushed to the disk: it survives a
/// crash of the process), read back with JSONDecoder. No revisions, no history.
package final class FileStore: BenchmarkedStore {
    /// A window as the app's own Codable model; route values are JSON text, as in SwiftUI's
    /// `NavigationPath.CodableRepresentation`.
    struct Window: Codable {
        var session: String
        var window: String
        var sizeClass: String
        var path: [FileRoute]
        var item: FileRoute?
        var itemPath: [FileRoute]
        var policy: String
        var updatedAt: Int64
    }

    struct FileRoute: Codable {
        var type: String
        var value: String
    }

    package let root: String
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()
    private let contents: [Window]
    private let saves: [(file: String, temporary: String, session: String, window: String, content: Int)]
    private let restores: [(file: String, sizeClass: String)]

    package init(
        root: String, workload: Workload, saves: [SaveOperation] = [], restores: [RestoreOperation] = []
    ) {
        self.root = root
        contents = workload.contents.map { content in
            func file(_ route: Route) -> FileRoute { FileRoute(type: route.type, value: route.json) }
            return Window(
                session: "", window: "", sizeClass: content.sizeClass.rawValue, path: content.path.map(file),
                item: content.item.map(file), itemPath: content.itemPath.map(file), policy: content.policy.rawValue,
                updatedAt: 0)
        }
        self.saves = saves.map { operation in
            let session = workload.session(operation.window)
            let window = workload.window(operation.window)
            let folder = root + "/" + session + "/"
            return (folder + window + ".json", folder + "." + window + ".json.tmp", session, window, operation.content)
        }
        self.restores = restores.map { operation in
            (
                root + "/" + workload.session(operation.window) + "/" + workload.window(operation.window) + ".json",
                operation.sizeClass.rawValue
            )
        }
    }

    package func save(_ index: Int) throws {
        let operation = saves[index]
        var window = contents[operation.content]
        window.session = operation.session
        window.window = operation.window
        window.updatedAt = Timestamp.now().millisecondsSince1970
        try write(try encoder.encode(window), to: operation.file, through: operation.temporary)
    }

    package func restore(_ index: Int) throws -> Int {
        let operation = restores[index]
        let window = try decoder.decode(Window.self, from: try Self.read(operation.file))
        let layout = Self.resolve(window, into: operation.sizeClass)
        return layout.stack.count &+ (layout.sheet?.count ?? 0)
    }

    package func list() throws -> ListTotals {
        var totals = ListTotals()
        totals.revisions = nil
        let manager = FileManager.default
        for session in try manager.contentsOfDirectory(atPath: root).sorted(by: Self.byteOrder) {
            let folder = root + "/" + session
            for name in try manager.contentsOfDirectory(atPath: folder).sorted(by: Self.byteOrder)
            where name.hasSuffix(".json") && !name.hasPrefix(".") {
                let window = try decoder.decode(Window.self, from: try Self.read(folder + "/" + name))
                totals.rows += 1
                totals.depth += window.path.count
                totals.items += window.item == nil ? 0 : 1
                totals.idBytes += window.session.utf8.count + window.window.utf8.count
            }
        }
        return totals
    }

    package func layoutJSON(_ index: Int) throws -> String {
        let operation = restores[index]
        let window = try decoder.decode(Window.self, from: try Self.read(operation.file))
        let layout = Self.resolve(window, into: operation.sizeClass)
        func array(_ routes: [FileRoute]) -> String {
            var writer = JSONWriter()
            writer.beginArray()
            for route in routes { writer.route(type: route.type, json: route.value) }
            writer.endArray()
            return writer.text
        }
        return LayoutText.make(
            presentation: layout.presentation, stack: array(layout.stack), sheet: layout.sheet.map(array))
    }

    /// Writes every window of `workload` as a file, in its initial content.
    package static func populate(root: String, workload: Workload, updatedAt: Int64 = 1_795_000_000_000) throws {
        let store = FileStore(root: root, workload: workload)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        var created = Set<String>()
        for index in 0..<workload.windowCount {
            let session = workload.session(index)
            let folder = root + "/" + session
            if created.insert(session).inserted, mkdir(folder, 0o755) != 0 {
                throw failure("mkdir", folder)
            }
            var window = store.contents[workload.initialContent(index)]
            window.session = session
            window.window = workload.window(index)
            window.updatedAt = updatedAt + Int64(index)
            // A fixture needs no atomic replacement: written in place.
            try store.write(try store.encoder.encode(window), to: folder + "/" + window.window + ".json", through: nil)
        }
    }

    // MARK: The app's own rule, over its own model

    private static func resolve(
        _ window: Window, into sizeClass: String
    ) -> (presentation: String, stack: [FileRoute], sheet: [FileRoute]?) {
        var item = window.item
        var itemPath = window.itemPath
        let regular = sizeClass == "regular"
        if window.policy == "dismiss" && regular != (window.sizeClass == "regular") {
            item = nil
            itemPath = []
        }
        guard let item else { return ("none", window.path, nil) }
        return regular ? ("push", window.path + [item] + itemPath, nil) : ("sheet", window.path, [item] + itemPath)
    }

    // MARK: Files

    /// Writes `data` to `temporary`, then renames it over `file`; straight to `file` without one.
    private func write(_ data: Data, to file: String, through temporary: String?) throws {
        let target = temporary ?? file
        let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.failure("open", target) }
        let written = data.withUnsafeBytes { posixWrite(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == data.count else { throw Self.failure("write", target) }
        if let temporary, rename(temporary, file) != 0 { throw Self.failure("rename", file) }
    }

    private static func read(_ file: String) throws -> Data {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open", file) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("stat", file) }
        var data = Data(count: Int(info.st_size))
        let count = data.withUnsafeMutableBytes { posixRead(descriptor, $0.baseAddress, $0.count) }
        guard count == data.count else { throw failure("read", file) }
        return data
    }

    private static func byteOrder(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private static func failure(_ call: String, _ file: String) -> BenchmarkError {
        BenchmarkError("file store: \(call) \(file): \(String(cString: strerror(errno)))")
    }
}

// The C calls, under names the store's own `read` and `write` do not shadow.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func posixRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, bytes, count)
}
