import Foundation
import StateStore

extension Timestamp {
    /// The moment `date` names, to the millisecond (rounded down).
    public init(_ date: Date) {
        self.init(millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// The moment as a `Date`.
    public var date: Date {
        Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000)
    }
}

extension WindowStore {
    /// Opens (or creates) the store at a file URL.
    public convenience init(url: URL, options: Options = Options()) throws(StateStoreError) {
        guard url.isFileURL else { throw .invalidInput("\(url) is not a file URL") }
        try self.init(path: url.path, options: options)
    }
}
