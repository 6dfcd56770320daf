/// The limits of what a store keeps: ids, kinds, a route's value, a window's routes and its whole
/// state. Data beyond them is refused with ``StateStoreError/invalidInput(_:)`` and nothing is
/// written.
public enum Limits {
    /// Bytes of UTF-8 in a session id, a window id or a route type.
    public static let identifierBytes = 1...256
    /// Bytes of UTF-8 in a window's kind (``WindowScene/kind``).
    public static let kindBytes = 1...64
    /// Bytes of a route value as minified JSON.
    public static let routeValueBytes = 64 * 1024
    /// Routes in `path`, `item` and `itemPath` together.
    public static let routesPerWindow = 512
    /// Bytes of a whole window state as minified JSON.
    public static let windowStateBytes = 1024 * 1024
}

/// Checks an id or a route type: 1–256 bytes of UTF-8 (or as many as `bytes` says), no control
/// character (category Cc).
func validateIdentifier(
    _ value: String, _ what: String, bytes: ClosedRange<Int> = Limits.identifierBytes
) throws(StateStoreError) {
    // Printable ASCII of a length in bounds, as nearly every id is, is told in one pass over its
    // bytes: every call of the store checks its ids.
    let printable = value.utf8.withContiguousStorageIfAvailable { utf8 in
        bytes.contains(utf8.count) && utf8.isPrintableASCII
    }
    if printable == true { return }
    let count = value.utf8.count
    guard bytes.contains(count) else {
        throw .invalidInput(
            count == 0 ? "\(what) is empty" : "\(what) is \(count) bytes; the limit is \(bytes.upperBound)")
    }
    for scalar in value.unicodeScalars where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        throw .invalidInput(
            "\(what) contains a control character (U+\(String(repeating: "0", count: 4 - hex.count))\(hex))")
    }
}
