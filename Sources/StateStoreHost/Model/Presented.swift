/// The root of a presented sheet, as `sheet(item:)` binds it: the route, and an id for the
/// presentation that stays the same while the same item stays presented — through size-class
/// changes and edits above it — so SwiftUI does not dismiss and present the sheet again.
public struct Presented<R>: Identifiable {
    /// One presentation of an item: a new id whenever another item is presented, or the same one
    /// again after a dismissal.
    public let id: Int
    /// The presented route.
    public let route: R

    /// A presentation of `route` known by `id`.
    public init(id: Int, route: R) {
        self.id = id
        self.route = route
    }
}

extension Presented: Equatable where R: Equatable {}
extension Presented: Hashable where R: Hashable {}
extension Presented: Sendable where R: Sendable {}
