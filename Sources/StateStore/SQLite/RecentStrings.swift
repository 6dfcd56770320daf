#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What reading rows reuses from one row to the next (``WindowRow``): where a stack's routes
/// stand, and the strings read lately.
struct RowReading {
    var spans: [JSONReader.StoredRouteSpan] = []
    /// A listing is sorted by session: the last one is nearly always the next.
    var sessions = RecentStrings(capacity: 1)
    var windows = RecentStrings(capacity: 8)
}

/// Strings a statement read from its rows lately, found again by their bytes. Ids recur from row
/// to row — a listing is sorted by session, and a session's windows are few — and a string found
/// here is shared instead of being checked and built again.
struct RecentStrings {
    private struct Entry {
        /// The first 16 bytes, zero after the end: all of a small string.
        var head: (UInt64, UInt64)
        var count: Int
        var string: String
    }

    private var entries: [Entry] = []
    private var next = 0
    private let capacity: Int

    init(capacity: Int) {
        precondition(capacity >= 1)
        self.capacity = capacity
    }

    /// The string of `bytes` (repaired as `String(decoding:as:)` repairs them), from the cache
    /// when it holds one of the same bytes.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let head = Self.head(of: bytes)
        for entry in entries where entry.count == bytes.count && entry.head == head {
            if bytes.count <= 16 || Self.tail(of: entry.string, equals: bytes) { return entry.string }
        }
        let string = String(decoding: bytes, as: UTF8.self)
        let entry = Entry(head: head, count: bytes.count, string: string)
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[next] = entry
            next = (next + 1) % capacity
        }
        return string
    }

    /// Loaded a word at a time, not copied with `memcpy`: this runs for every id and route type
    /// a row reads, and the call cost more than the copy.
    private static func head(of bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        guard let base = bytes.baseAddress else { return (0, 0) }
        let raw = UnsafeRawPointer(base)
        let count = bytes.count
        func word(at offset: Int) -> UInt64 {
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        if count >= 16 { return (word(at: 0), word(at: 8)) }
        // The last eight bytes, shifted down so that those before byte 8 drop out.
        if count > 8 { return (word(at: 0), word(at: count - 8) >> UInt64(8 * (16 - count))) }
        if count == 8 { return (word(at: 0), 0) }
        var first: UInt64 = 0
        for offset in 0..<count { first |= UInt64(bytes[offset]) << UInt64(8 * offset) }
        return (first, 0)
    }

    /// Whether the bytes of `string` after its first 16 are those of `bytes` (of the same count).
    private static func tail(of string: String, equals bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let same = string.utf8.withContiguousStorageIfAvailable { stored in
            stored.count == bytes.count
                && memcmp(stored.baseAddress! + 16, bytes.baseAddress! + 16, bytes.count - 16) == 0
        }
        return same ?? string.utf8.elementsEqual(bytes)
    }
}
