/// One implementation under measurement, bound to its storage and to the operation sequences it
/// was prepared with, so that a timed loop only calls it.
package protocol BenchmarkedStore: AnyObject {
    /// Writes save operation `index` in one transaction (or one atomic file write).
    func save(_ index: Int) throws
    /// Reads and resolves restore operation `index`; returns a digest of the result, so that
    /// the work cannot be optimised away.
    func restore(_ index: Int) throws -> Int
    /// Streams every window's summary.
    func list() throws -> ListTotals
    /// Restore operation `index` as JSON text, for checking that implementations agree.
    func layoutJSON(_ index: Int) throws -> String
}

/// What a listing saw, summed over its rows.
package struct ListTotals: Hashable, Sendable, CustomStringConvertible {
    package var rows = 0
    package var depth = 0
    /// The sum of revisions; `nil` for a store that keeps none (file-per-window).
    package var revisions: Int? = 0
    package var items = 0
    /// Bytes of session and window ids.
    package var idBytes = 0

    package init() {}

    package var description: String {
        "\(rows) rows, depth \(depth), revisions \(revisions.map(String.init) ?? "-"), \(items) items, \(idBytes) id bytes"
    }
}

/// Failures of the baselines themselves.
package struct BenchmarkError: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// How a restore is written for comparison: `{"presentation":…,"stack":[…],"sheet":[…]|null}`.
enum LayoutText {
    static func make(presentation: String, stack: String, sheet: String?) -> String {
        "{\"presentation\":\"\(presentation)\",\"stack\":\(stack),\"sheet\":\(sheet ?? "null")}"
    }
}
