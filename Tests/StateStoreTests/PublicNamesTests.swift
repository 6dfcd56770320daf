import Foundation
import Testing

/// An app imports `SwiftUI`, `UIKit` or `Foundation` beside `StateStore` in the same file, and the
/// module shares its name with its main class, so a clashing name cannot be qualified: none of the
/// public top-level names of `StateStore` and `StateStoreHost` may be one of theirs.
struct PublicNamesTests {
    /// Top-level names those frameworks declare (types, protocols, functions), among them the
    /// ones this package's domain comes near: layout, presentation, navigation, windows, state,
    /// scenes, documents, time and files. Not every name they have; every one here is real.
    static let frameworkNames: Set<String> = [
        // SwiftUI
        "App", "AppStorage", "Alignment", "Anchor", "Angle", "Animation", "AnyLayout", "AnyView", "Binding",
        "Bindable", "Button", "Color", "ContentUnavailableView", "DocumentGroup", "EditMode", "EmptyView",
        "Environment", "EnvironmentObject", "EnvironmentValues", "FileDocument", "FocusState", "Font", "ForEach",
        "Form", "GeometryProxy", "GeometryReader", "Gesture", "Group", "HStack", "Image", "Label", "Layout",
        "LayoutSubviews", "Link", "List", "Menu", "Namespace", "NavigationLink", "NavigationPath",
        "NavigationSplitView", "NavigationStack", "ObservedObject", "OpenWindowAction", "Path", "Picker",
        "PresentationAdaptation", "PresentationDetent", "PresentationMode", "ReferenceFileDocument", "Scene",
        "ScenePhase", "SceneStorage", "ScrollView", "Section", "Shape", "Spacer", "State", "StateObject", "TabView",
        "Table", "Text", "Toggle", "ToolbarItem", "Transaction", "UIHostingController", "UnitPoint",
        "UserInterfaceSizeClass", "VStack",
        "View", "ViewBuilder", "ViewModifier", "Window", "WindowGroup", "WindowLayoutRoot", "WindowPlacement",
        "WindowResizability", "WindowStyle", "withAnimation", "withTransaction",
        // UIKit
        "UIApplication", "UINavigationController", "UIPresentationController", "UIScene",
        "UISceneSession", "UITraitCollection", "UIUserInterfaceSizeClass", "UIView", "UIViewController", "UIWindow",
        "UIWindowScene",
        // Foundation (and Observation, which apps import with it)
        "AttributedString", "Bundle", "Calendar", "CharacterSet", "Data", "Date", "DateComponents", "DateFormatter",
        "DateInterval", "Decimal", "FileHandle", "FileManager", "IndexPath", "IndexSet", "ISO8601DateFormatter",
        "JSONDecoder", "JSONEncoder", "JSONSerialization", "Locale", "Measurement", "Notification",
        "NotificationCenter", "NSLock", "NSUserActivity", "Observable", "OperationQueue", "Pipe", "Predicate",
        "Process", "ProcessInfo", "Progress", "PropertyListDecoder", "PropertyListEncoder", "RunLoop",
        "SortDescriptor", "Thread", "TimeZone", "Timer", "URL", "URLComponents", "URLRequest", "URLSession", "UUID",
        "UserDefaults",
    ]

    /// The public top-level declarations of a module's sources: `(kind, name)`, such as
    /// `("struct", "WindowState")`.
    static func publicDeclarations(in module: String) throws -> [(kind: String, name: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources/" + module).path
        let pattern = try NSRegularExpression(
            pattern:
                #"^public\s+(?:final\s+)?(struct|enum|class|protocol|actor|typealias|func|let|var)\s+([A-Za-z_][A-Za-z0-9_]*)"#,
            options: [.anchorsMatchLines])
        var declarations: [(kind: String, name: String)] = []
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            for match in pattern.matches(in: text, range: range) {
                let kind = String(text[Range(match.range(at: 1), in: text)!])
                let name = String(text[Range(match.range(at: 2), in: text)!])
                declarations.append((kind, name))
            }
        }
        return declarations
    }

    @Test(arguments: ["StateStore", "StateStoreHost"])
    func noPublicTopLevelNameIsAFrameworksName(_ module: String) throws {
        let declarations = try Self.publicDeclarations(in: module)
        #expect(declarations.count >= 5, "the scan finds \(module)'s declarations")
        for (kind, name) in declarations {
            #expect(!Self.frameworkNames.contains(name), "\(module) declares public \(kind) \(name)")
        }
    }

    @Test(arguments: ["StateStore", "StateStoreHost"])
    func thereAreNoPublicFreeFunctionsOrGlobals(_ module: String) throws {
        let loose = try Self.publicDeclarations(in: module).filter { ["func", "let", "var"].contains($0.kind) }
        #expect(loose.isEmpty, "\(loose)")
    }

    @Test func theScanSeesWhatItLooksFor() throws {
        let names = Set(try Self.publicDeclarations(in: "StateStore").map(\.name))
        #expect(names.isSuperset(of: ["WindowStore", "WindowState", "WindowLayout", "Route", "StateDocument"]))
        #expect(!names.contains("Layout"))
    }
}
