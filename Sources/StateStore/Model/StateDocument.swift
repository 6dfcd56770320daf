/// A `statectl/1` document of whole window states, as `export` writes and `import` reads:
/// `{"format": "statectl/1", "windows": [WindowState…]}`.
public struct StateDocument: Hashable, Sendable {
    /// The format identifier this build reads and writes.
    public static let format = "statectl/1"

    /// The windows to write, in document order. Fields a window leaves out are as in a new window;
    /// `revision` and `updatedAt` are ignored (the store stamps its own).
    public var windows: [WindowState]

    /// A document of `windows`, in that order.
    public init(windows: [WindowState]) {
        self.windows = windows
    }

    /// Parses and validates a document from bytes that must be UTF-8.
    public init(utf8 bytes: [UInt8]) throws(StateStoreError) {
        guard let text = bytes.withUnsafeBufferPointer(\.validatedUTF8String) else {
            let valid = bytes.withUnsafeBufferPointer { Self.validUTF8Prefix($0) }
            throw .invalidInput("import document is not valid UTF-8 (at byte \(valid))")
        }
        try self.init(parsing: text)
    }

    /// Parses and validates a document; a UTF-8 byte order mark at its start is skipped. Unknown keys, a window twice, `itemPath` without `item`,
    /// a bad id or route and a limit exceeded are ``StateStoreError/invalidInput(_:)``, naming the
    /// window and the field.
    public init(parsing text: String) throws(StateStoreError) {
        var format: String?
        var windows: [WindowState] = []
        var context = "document"
        do {
            try JSONReader.read(text) { reader throws(JSONReader.Failure) in
                // Offsets stay those of the input, the mark included.
                reader.skipByteOrderMark()
                var sawWindows = false
                try reader.readObject { reader, key throws(JSONReader.Failure) in
                    switch key {
                    case "format" where format == nil:
                        context = "format"
                        format = try reader.readString()
                        guard format == Self.format else {
                            throw JSONReader.Failure(
                                message: "format is '\(format ?? "")'; this build reads '\(Self.format)'",
                                offset: reader.index)
                        }
                    case "windows" where !sawWindows:
                        sawWindows = true
                        try reader.readArray { reader throws(JSONReader.Failure) in
                            context = "windows[\(windows.count)]"
                            windows.append(try Self.readWindow(&reader, index: windows.count, context: &context))
                        }
                    case "format", "windows":
                        throw JSONReader.Failure(message: "'\(key)' appears twice", offset: reader.index)
                    default:
                        throw JSONReader.Failure(message: "unknown key '\(key)'", offset: reader.index)
                    }
                    context = "document"
                }
                try reader.expectEnd()
                guard format != nil else { throw JSONReader.Failure(message: "no 'format'", offset: 0) }
                guard sawWindows else { throw JSONReader.Failure(message: "no 'windows'", offset: 0) }
            }
        } catch {
            throw .invalidInput("import document: \(context): \(error.description)")
        }
        var seen: [WindowKey: Int] = [:]
        for (index, window) in windows.enumerated() {
            let key = WindowKey(session: Array(window.session.utf8), window: Array(window.window.utf8))
            if let first = seen[key] {
                throw .invalidInput(
                    "import document: windows[\(index)]: window '\(window.session)' '\(window.window)' is also windows[\(first)]"
                )
            }
            seen[key] = index
            do {
                try window.validate()
            } catch {
                throw .invalidInput("import document: windows[\(index)]: \(error)")
            }
        }
        self.windows = windows
    }

    /// Ids as bytes, as the store compares them: Swift's `==` takes a composed and a decomposed
    /// "é" for one id, where the store keeps two windows.
    private struct WindowKey: Hashable {
        var session: [UInt8]
        var window: [UInt8]
    }

    private static func readWindow(
        _ reader: inout JSONReader, index: Int, context: inout String
    )
        throws(JSONReader.Failure) -> WindowState
    {
        var session: String?
        var window: String?
        var content = WindowContent()
        var seen: Set<String> = []
        let start = reader.index
        try reader.readObject { reader, key throws(JSONReader.Failure) in
            context = "windows[\(index)].\(key)"
            guard seen.insert(key).inserted else {
                throw JSONReader.Failure(message: "'\(key)' appears twice", offset: reader.index)
            }
            // WindowState's own keys, as its `write(to:)` and `Codable` have them.
            switch WindowState.CodingKeys(rawValue: key) {
            case .session: session = try reader.readString()
            case .window: window = try reader.readString()
            case .sizeClass: content.sizeClass = try reader.readChoice("a size class")
            case .policy: content.policy = try reader.readChoice("a policy")
            case .path: content.path = try reader.readRoutes()
            case .itemPath: content.itemPath = try reader.readRoutes()
            case .item: content.item = try reader.consumeNull() ? nil : try reader.readRoute()
            case .columnVisibility: content.columnVisibility = try reader.readChoice("a column visibility")
            case .preferredCompactColumn:
                content.preferredCompactColumn =
                    try reader.consumeNull() ? nil : try reader.readChoice("a split view column")
            case .selectedTab: content.selectedTab = try reader.consumeNull() ? nil : try reader.readString()
            case .revision, .updatedAt: _ = try reader.readValueText()  // stamped anew on import
            case nil: throw JSONReader.Failure(message: "unknown key '\(key)'", offset: reader.index)
            }
        }
        context = "windows[\(index)]"
        guard let session else { throw JSONReader.Failure(message: "no 'session'", offset: start) }
        guard let window else { throw JSONReader.Failure(message: "no 'window'", offset: start) }
        if content.item == nil && !content.itemPath.isEmpty {
            throw JSONReader.Failure(message: "'itemPath' without an 'item'", offset: start)
        }
        return WindowState(session: session, window: window, content: content)
    }

    private static func validUTF8Prefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput, .error: return offset
            }
        }
    }

    /// Writes the document, windows in their order.
    package func write(to writer: inout JSONWriter) {
        Self.write(to: &writer) { writer in
            for window in windows { window.write(to: &writer) }
        }
    }

    /// Writes a document whose windows `windows` writes into its array, as they come (an export
    /// streams them from the store): the one place the envelope is written.
    package static func write<E: Error>(
        to writer: inout JSONWriter, windows: (inout JSONWriter) throws(E) -> Void
    ) throws(E) {
        writer.beginObject()
        writer.key("format")
        writer.string(format)
        writer.key("windows")
        writer.beginArray()
        try windows(&writer)
        writer.endArray()
        writer.endObject()
    }
}

extension JSONReader {
    /// Reads a string that must be one of `T`'s raw values.
    fileprivate mutating func readChoice<T: RawRepresentable & CaseIterable>(_ what: String) throws(Failure) -> T
    where T.RawValue == String {
        let text = try readString()
        guard let value = T(rawValue: text) else {
            let choices = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw Failure(message: "'\(text)' is not \(what) (\(choices))", offset: index)
        }
        return value
    }
}
