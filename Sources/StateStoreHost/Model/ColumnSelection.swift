import Foundation
import StateStore

/// A split view column's selection as the window stores it: a route of type
/// `StateStoreHost.ColumnSelection` at the head of the window's path, the sidebar's before the
/// content column's, whose value names its column, the selected value's type and the value:
///
/// ```json
/// {"column":"sidebar","type":"Cookbook.Category","value":"dessert"}
/// ```
///
/// So each column selects a value of the app's own type, the detail column's stack (the app's
/// route type) follows them, and a window's model knows which routes are the columns' without
/// being told: they are the leading routes of this type.
enum ColumnSelection {
    /// The type name of a column's selection.
    static let routeType = "StateStoreHost.ColumnSelection"

    /// The two columns that select.
    enum Column: String, Codable {
        case sidebar, content
    }

    private struct Header: Decodable {
        let column: Column
        let type: String
    }

    private struct Stored<Value: Codable>: Codable {
        let column: Column
        let type: String
        let value: Value
    }

    /// How many of `path`'s leading routes are column selections (at most two).
    static func count(in path: [Route]) -> Int {
        var count = 0
        while count < min(2, path.count) && path[count].hasType(routeType) { count += 1 }
        return count
    }

    /// `value` as the selection of `column`.
    static func route<Value: Codable & Hashable>(_ value: Value, in column: Column) throws -> Route {
        let type = String(reflecting: Value.self)
        guard RouteTypeName.isStable(type) else { throw RouteConversionError.unstableTypeName(type) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(Stored(column: column, type: type, value: value))
        } catch {
            throw RouteConversionError.unencodable(type: type, reason: "\(error)")
        }
        return try Route(type: routeType, json: String(decoding: data, as: UTF8.self))
    }

    /// The column `route` selects in, if it is a column selection that says.
    static func column(of route: Route) -> Column? {
        guard route.hasType(routeType) else { return nil }
        return try? JSONDecoder().decode(Header.self, from: route.withJSONUTF8 { Data(buffer: $0) }).column
    }

    /// The value `route` selects, when it is a `Value` (stored under its type's name, in this
    /// module or another); `nil` otherwise.
    static func value<Value: Codable & Hashable>(of route: Route, as type: Value.Type) -> Value? {
        guard route.hasType(routeType) else { return nil }
        let data = route.withJSONUTF8 { Data(buffer: $0) }
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(Header.self, from: data) else { return nil }
        let name = String(reflecting: Value.self)
        guard header.type == name || RouteTypeName.sameOutsideModule(header.type, [name]) else { return nil }
        return try? decoder.decode(Stored<Value>.self, from: data).value
    }
}
