import Foundation
import StateStore

/// A host's route type: what a window's navigation stack holds, converted to and from the
/// store's ``/StateStore/Route`` (a type name and a JSON value, one element of SwiftUI's
/// `NavigationPath.CodableRepresentation`).
///
/// A route type is `Codable` and `Hashable`, and gets all four requirements by declaring the
/// conformance: ``routeType`` is `String(reflecting:)` of the type, as `NavigationPath` writes it,
/// and the value is its `JSONEncoder` encoding with sorted keys. A type that is not `Codable` is
/// refused at its conformance (`extension Recipe: RouteRepresentable {}` does not compile until
/// `Recipe` is `Codable`). ``/StateStore/Route`` conforms itself, for stacks of mixed types.
///
/// The type must be declared at file scope or nested in such a type, `internal` or `public`: a
/// `private`, `fileprivate` or local type's name is not stable from one build to the next, so what
/// one build wrote another could not read. Such a type is refused at its first use, by
/// ``WindowSession/window(_:as:kind:)`` and ``WindowModel/tab(_:kind:)``, in the model's
/// ``WindowModel/lastError`` (``WindowError/unstableRouteType(_:)``).
///
/// A renamed type lists its old names in ``formerRouteTypes``; a renamed enum case is decoded by
/// the type's own `init(from:)`, which may accept the old case name
/// (<doc:GettingStarted#Renaming-a-route>).
public protocol RouteRepresentable: Codable, Hashable {
    /// Decodes a stored route; throws for a route of another type or a value that does not fit.
    init(route: Route) throws
    /// Encodes the value as a route of ``routeType``.
    func route() throws -> Route
    /// The type name routes of this type are stored under.
    static var routeType: String { get }
    /// Names routes of this type were stored under before a rename: still read, never written.
    static var formerRouteTypes: [String] { get }
}

/// Why a route could not be converted to or from a host's route type.
public enum RouteConversionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stored route is of another type than the host's.
    case otherType(stored: String, expected: String)
    /// The stored value does not decode as the host's type.
    case undecodable(type: String, json: String, reason: String)
    /// The type's name is not stable (a local or private type), so a route of it could not be
    /// read back by another build.
    case unstableTypeName(String)
    /// The value did not encode.
    case unencodable(type: String, reason: String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case let .otherType(stored, expected):
            "a route of type '\(stored)' is not a '\(expected)'"
        case let .undecodable(type, json, reason):
            "the stored '\(type)' value \(json.prefix(120)) does not decode: \(reason)"
        case let .unstableTypeName(name):
            "'\(name)' is a local, private or fileprivate type, whose name is not stable from one build to the next; declare it at file scope (or inside such a type) with internal or public access"
        case let .unencodable(type, reason):
            "a '\(type)' value does not encode: \(reason)"
        }
    }
}

extension RouteRepresentable {
    /// The type's full name, as SwiftUI's `NavigationPath` writes it: `MailApp.Thread`.
    public static var routeType: String { String(reflecting: Self.self) }

    /// No former names.
    public static var formerRouteTypes: [String] { [] }

    /// Decodes the route's value with `JSONDecoder` when its type is ``routeType`` or one of
    /// ``formerRouteTypes``, in this module or another: a route file compiled into an app and its
    /// extension is `App.Route` in one and `Extension.Route` in the other, and each reads the other's.
    public init(route: Route) throws {
        guard
            route.hasType(Self.routeType) || Self.formerRouteTypes.contains(where: route.hasType)
                || RouteTypeName.sameOutsideModule(route.type, [Self.routeType] + Self.formerRouteTypes)
        else {
            throw RouteConversionError.otherType(stored: route.type, expected: Self.routeType)
        }
        do {
            self = try JSONDecoder().decode(Self.self, from: route.withJSONUTF8 { Data(buffer: $0) })
        } catch {
            throw RouteConversionError.undecodable(type: route.type, json: route.json, reason: "\(error)")
        }
    }

    /// Encodes the value with `JSONEncoder`, keys sorted, as a route of ``routeType``.
    public func route() throws -> Route {
        let type = Self.routeType
        guard RouteTypeName.isStable(type) else { throw RouteConversionError.unstableTypeName(type) }
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(self)
        } catch {
            throw RouteConversionError.unencodable(type: type, reason: "\(error)")
        }
        return try Route(type: type, json: String(decoding: data, as: UTF8.self))
    }
}

extension Route: RouteRepresentable {
    /// The route itself: a stack of ``Route`` holds routes of any type.
    public init(route: Route) {
        self = route
    }

    /// The route itself.
    public func route() -> Route { self }

    /// Not used to check a ``Route``: it takes routes of every type.
    public static var routeType: String { "StateStore.Route" }

    /// None.
    public static var formerRouteTypes: [String] { [] }
}

/// Type names as `String(reflecting:)` writes them, `Module.Type` (nested: `Module.Outer.Inner`).
enum RouteTypeName {
    /// Whether `name` is the same in every build: not a private, fileprivate or local type's
    /// (`Module.(unknown context at $10a3f).Name`).
    static func isStable(_ name: String) -> Bool {
        !name.contains("(unknown context at ")
    }

    /// Whether `stored` names one of `names` declared in another module: everything after the
    /// module's name is the same. A name without a module matches only itself.
    static func sameOutsideModule(_ stored: String, _ names: [String]) -> Bool {
        guard let storedRest = withoutModule(stored) else { return false }
        return names.contains { withoutModule($0) == storedRest }
    }

    private static func withoutModule(_ name: String) -> Substring? {
        guard let dot = name.firstIndex(of: "."), dot != name.startIndex else { return nil }
        let rest = name[name.index(after: dot)...]
        return rest.isEmpty ? nil : rest
    }
}
