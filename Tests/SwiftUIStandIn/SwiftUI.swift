// The stand-in `SwiftUI` module: the API `Sources/StateStoreSwiftUI` uses, declared as the Xcode 16.0
// SDK declares it (see README.md). Each declaration cites the page of Apple's documentation it copies.
// Bodies only satisfy the compiler.

import Foundation
import Observation

// MARK: - Views

/// https://developer.apple.com/documentation/swiftui/view
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swiftui/viewmodifier
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

/// https://developer.apple.com/documentation/swiftui/viewmodifier/content
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/modifiedcontent
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@frozen public struct ModifiedContent<Content, Modifier> {
    /// https://developer.apple.com/documentation/swiftui/modifiedcontent/content
    public var content: Content
    /// https://developer.apple.com/documentation/swiftui/modifiedcontent/modifier
    public var modifier: Modifier

    /// https://developer.apple.com/documentation/swiftui/modifiedcontent/init(content:modifier:)
    @inlinable public init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }
}

/// https://developer.apple.com/documentation/swiftui/modifiedcontent (conforms to View when its
/// content is a View and its modifier a ViewModifier)
extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/never/body-swift.property (primitive views'
/// `Body` is `Never`)
extension Never: View {
    /// The body of a view with none.
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/emptyview
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@frozen public struct EmptyView: View {
    /// https://developer.apple.com/documentation/swiftui/emptyview/init()
    @inlinable nonisolated public init() {}
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/tupleview
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@frozen public struct TupleView<T>: View {
    /// https://developer.apple.com/documentation/swiftui/tupleview/value
    nonisolated(unsafe) public var value: T
    /// https://developer.apple.com/documentation/swiftui/tupleview/init(_:)
    nonisolated public init(_ value: T) { self.value = value }
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@resultBuilder public struct ViewBuilder {
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildexpression(_:)
    public static func buildExpression<Content>(_ content: Content) -> Content where Content: View { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock()
    public static func buildBlock() -> EmptyView { EmptyView() }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
    public static func buildBlock<Content>(_ content: Content) -> Content where Content: View { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildif(_:)
    public static func buildIf<Content>(_ content: Content?) -> Content? where Content: View { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:)
    public static func buildEither<TrueContent, FalseContent>(
        first: TrueContent
    )
        -> _ConditionalContent<TrueContent, FalseContent> where TrueContent: View, FalseContent: View
    { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(second:)
    public static func buildEither<TrueContent, FalseContent>(
        second: FalseContent
    )
        -> _ConditionalContent<TrueContent, FalseContent> where TrueContent: View, FalseContent: View
    { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)-4xnxm
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    public static func buildBlock<each Content>(_ content: repeat each Content) -> TupleView<(repeat each Content)>
    where repeat each Content: View { TupleView((repeat each content)) }
}

/// https://developer.apple.com/documentation/swiftui/_conditionalcontent
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@frozen public struct _ConditionalContent<TrueContent, FalseContent>: View
where TrueContent: View, FalseContent: View {
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/view (`Optional: View where Wrapped: View`)
extension Optional: View where Wrapped: View {
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/localizedstringkey
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@frozen public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation {
    /// https://developer.apple.com/documentation/swiftui/localizedstringkey/init(stringliteral:)
    public init(stringLiteral value: String) {}
    /// https://developer.apple.com/documentation/swiftui/localizedstringkey/init(stringinterpolation:)
    /// (SwiftUI's own interpolation type keeps the arguments for translation; the default one
    /// accepts what it accepts, for the check)
    public init(stringInterpolation: DefaultStringInterpolation) {}
}

/// https://developer.apple.com/documentation/swiftui/list
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency public struct List<SelectionValue, Content>: View
where SelectionValue: Hashable, Content: View {
    /// https://developer.apple.com/documentation/swiftui/list/init(selection:content:)-4u3iw
    @available(watchOS 10.0, *)
    public init(selection: Binding<SelectionValue?>?, @ViewBuilder content: () -> Content) {}
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

extension List where SelectionValue == Never {
    /// https://developer.apple.com/documentation/swiftui/list/init(content:)
    public init(@ViewBuilder content: () -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/navigationlink
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency public struct NavigationLink<Label, Destination>: View where Label: View, Destination: View {
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

extension NavigationLink where Destination == Never {
    /// https://developer.apple.com/documentation/swiftui/navigationlink/init(value:label:)-4jswo
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
    public init<P>(value: P?, @ViewBuilder label: () -> Label) where P: Hashable {}
}

/// https://developer.apple.com/documentation/swiftui/label
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
public struct Label<Title, Icon>: View where Title: View, Icon: View {
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

extension Label where Title == Text, Icon == EmptyView {
    /// https://developer.apple.com/documentation/swiftui/label/init(_:systemimage:)-7fwfr (Icon
    /// is `Image` there; the stand-in has no images)
    @_disfavoredOverload public init<S>(_ title: S, systemImage name: String) where S: StringProtocol {}
}

/// https://developer.apple.com/documentation/swiftui/text
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@frozen public struct Text: Equatable, Sendable, View {
    /// https://developer.apple.com/documentation/swiftui/text/init(_:tablename:bundle:comment:)
    nonisolated public init(_ key: LocalizedStringKey) {}
    /// https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4
    @_disfavoredOverload nonisolated public init<S>(_ content: S) where S: StringProtocol {}
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/button
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency public struct Button<Label>: View where Label: View {
    /// https://developer.apple.com/documentation/swiftui/button/init(action:label:)
    @preconcurrency public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

extension Button where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/button/init(_:action:)-1asy
    @preconcurrency public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {}
    /// https://developer.apple.com/documentation/swiftui/button (`init(_:action:)`, a `StringProtocol` title)
    @_disfavoredOverload @preconcurrency public init<S>(_ title: S, action: @escaping @MainActor () -> Void)
    where S: StringProtocol {}
}

/// https://developer.apple.com/documentation/swiftui/foreach
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
public struct ForEach<Data, ID, Content> where Data: RandomAccessCollection, ID: Hashable {
    /// https://developer.apple.com/documentation/swiftui/foreach/data
    public var data: Data
    /// https://developer.apple.com/documentation/swiftui/foreach/content
    public var content: (Data.Element) -> Content
}

extension ForEach: View where Content: View {
    /// https://developer.apple.com/documentation/swiftui/foreach/init(_:id:content:)
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)
    {
        self.data = data
        self.content = content
    }

    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

extension ForEach where ID == Data.Element.ID, Content: View, Data.Element: Identifiable {
    /// https://developer.apple.com/documentation/swiftui/foreach/init(_:content:)
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
}

/// https://developer.apple.com/documentation/swiftui/group
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@frozen public struct Group<Content> {
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

extension Group: View where Content: View {
    /// https://developer.apple.com/documentation/swiftui/group/init(content:)
    nonisolated public init(@ViewBuilder content: () -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/picker
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency public struct Picker<Label, SelectionValue, Content>: View
where Label: View, SelectionValue: Hashable, Content: View {
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

extension Picker where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/picker/init(_:selection:content:)-5njtq
    public init(
        _ titleKey: LocalizedStringKey, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content
    ) {}
}

// MARK: - Scenes

/// https://developer.apple.com/documentation/swiftui/scene
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@MainActor @preconcurrency public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swiftui/scenebuilder
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@resultBuilder public struct SceneBuilder {
    /// https://developer.apple.com/documentation/swiftui/scenebuilder/buildexpression(_:)
    public static func buildExpression<Content>(_ content: Content) -> Content where Content: Scene { content }
    /// https://developer.apple.com/documentation/swiftui/scenebuilder/buildblock(_:)
    public static func buildBlock<Content>(_ content: Content) -> Content where Content: Scene { content }
    /// https://developer.apple.com/documentation/swiftui/scenebuilder/buildblock(_:)-6ckmt
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    public static func buildBlock<each Content>(_ content: repeat each Content) -> some Scene
    where repeat each Content: Scene { _TupleScene((repeat each content)) }
}

/// The scenes a `SceneBuilder` block gives (SwiftUI's own type is internal).
public struct _TupleScene<T>: Scene {
    nonisolated(unsafe) let value: T
    nonisolated init(_ value: T) { self.value = value }
    /// A primitive scene: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/never/body-swift.property (primitive scenes'
/// `Body` is `Never`)
extension Never: Scene {}

/// https://developer.apple.com/documentation/swiftui/windowgroup
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@MainActor @preconcurrency public struct WindowGroup<Content>: Scene where Content: View {
    /// https://developer.apple.com/documentation/swiftui/windowgroup/init(id:content:)
    @preconcurrency public init(id: String, @ViewBuilder content: () -> Content) {}
    /// https://developer.apple.com/documentation/swiftui/windowgroup/init(content:)
    @preconcurrency public init(@ViewBuilder content: () -> Content) {}
    /// A primitive scene: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/app
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@MainActor @preconcurrency public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

extension App {
    /// https://developer.apple.com/documentation/swiftui/app/main()
    @MainActor @preconcurrency public static func main() {}
}

// MARK: - State and bindings

/// https://developer.apple.com/documentation/swiftui/dynamicproperty
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
public protocol DynamicProperty {
    mutating func update()
}

extension DynamicProperty {
    /// https://developer.apple.com/documentation/swiftui/dynamicproperty/update()-29hjo (does nothing by default)
    public mutating func update() {}
}

/// https://developer.apple.com/documentation/swiftui/binding
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@frozen @propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
    private let read: @Sendable () -> Value
    private let write: @Sendable (Value) -> Void

    // Binding(get:set:) is left out on purpose: the adapter binds only through @Bindable, and a
    // call to it here fails the check.
    @usableFromInline init(read: @escaping @Sendable () -> Value, write: @escaping @Sendable (Value) -> Void) {
        self.read = read
        self.write = write
    }

    /// https://developer.apple.com/documentation/swiftui/binding/wrappedvalue
    public var wrappedValue: Value {
        get { read() }
        nonmutating set { write(newValue) }
    }

    /// https://developer.apple.com/documentation/swiftui/binding/projectedvalue
    public var projectedValue: Binding<Value> { self }

    /// https://developer.apple.com/documentation/swiftui/binding/subscript(dynamicmember:)
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError("stand-in")
    }
}

/// https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-7ufcp ("A binding
/// conforms to Sendable only if its wrapped value type also conforms to Sendable.")
extension Binding: Sendable where Value: Sendable {}

/// https://developer.apple.com/documentation/swiftui/bindable
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@dynamicMemberLookup @propertyWrapper public struct Bindable<Value> {
    /// https://developer.apple.com/documentation/swiftui/bindable/wrappedvalue
    public var wrappedValue: Value

    /// https://developer.apple.com/documentation/swiftui/bindable/projectedvalue
    public var projectedValue: Bindable<Value> { self }

    /// https://developer.apple.com/documentation/swiftui/bindable/subscript(dynamicmember:)
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject>
    where Value: AnyObject {
        fatalError("stand-in")
    }

    /// https://developer.apple.com/documentation/swiftui/bindable/init(wrappedvalue:)
    public init(wrappedValue: Value) where Value: AnyObject, Value: Observable {
        self.wrappedValue = wrappedValue
    }

    /// https://developer.apple.com/documentation/swiftui/bindable/init(_:)-7mpvv
    public init(_ wrappedValue: Value) where Value: AnyObject, Value: Observable {
        self.wrappedValue = wrappedValue
    }
}

/// https://developer.apple.com/documentation/swiftui/state
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@frozen @propertyWrapper public struct State<Value>: DynamicProperty {
    /// https://developer.apple.com/documentation/swiftui/state/init(wrappedvalue:)
    public init(wrappedValue value: Value) { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/swiftui/state/init(initialvalue:)
    public init(initialValue value: Value) { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/swiftui/state/wrappedvalue
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        nonmutating set {}
    }

    /// https://developer.apple.com/documentation/swiftui/state/projectedvalue
    public var projectedValue: Binding<Value> { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/scenestorage
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@frozen @propertyWrapper public struct SceneStorage<Value>: DynamicProperty {
    @usableFromInline init(key: String) {}

    /// https://developer.apple.com/documentation/swiftui/scenestorage/wrappedvalue
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        nonmutating set {}
    }

    /// https://developer.apple.com/documentation/swiftui/scenestorage/projectedvalue
    public var projectedValue: Binding<Value> { fatalError("stand-in") }
}

extension SceneStorage {
    /// https://developer.apple.com/documentation/swiftui/scenestorage/init(wrappedvalue:_:)-8wz5o
    public init(wrappedValue: Value, _ key: String) where Value == String { self.init(key: key) }
}

// MARK: - The environment

/// https://developer.apple.com/documentation/swiftui/environment
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@frozen @propertyWrapper public struct Environment<Value>: DynamicProperty {
    /// https://developer.apple.com/documentation/swiftui/environment/init(_:)-8slkf
    @inlinable public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}

    /// https://developer.apple.com/documentation/swiftui/environment/wrappedvalue
    @inlinable public var wrappedValue: Value { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/environmentvalues
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
public struct EnvironmentValues {
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/horizontalsizeclass
    /// (iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1; `@backDeployed(before: macOS 14.0,
    /// tvOS 17.0, watchOS 10.0)`: declared on macOS by the Xcode 15 SDKs on, so by Xcode 16.0's).
    public var horizontalSizeClass: UserInterfaceSizeClass? {
        get { nil }
        set {}
    }

    /// https://developer.apple.com/documentation/swiftui/environmentvalues/scenephase
    @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
    public var scenePhase: ScenePhase {
        get { .active }
        set {}
    }

    /// https://developer.apple.com/documentation/swiftui/environmentvalues/openwindow (iOS 16,
    /// iPadOS 16, Mac Catalyst 16, macOS 13, visionOS 1; not tvOS or watchOS)
    @available(iOS 16.0, macOS 13.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    #if STANDIN_WATCHOS
        @available(*, unavailable, message: "not in this platform's SwiftUI")
    #endif
    public var openWindow: OpenWindowAction { OpenWindowAction() }
}

/// https://developer.apple.com/documentation/swiftui/openwindowaction (iOS 16, iPadOS 16, Mac
/// Catalyst 16, macOS 13, visionOS 1; not tvOS or watchOS)
@available(iOS 16.0, macOS 13.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
#if STANDIN_WATCHOS
    @available(*, unavailable, message: "not in this platform's SwiftUI")
#endif
@MainActor @preconcurrency public struct OpenWindowAction {
    nonisolated init() {}
    /// https://developer.apple.com/documentation/swiftui/openwindowaction/callasfunction(id:)
    public func callAsFunction(id: String) {}
}

/// https://developer.apple.com/documentation/swiftui/userinterfacesizeclass (iOS 13, macOS 10.15,
/// tvOS 13, watchOS 6, visionOS 1)
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
public enum UserInterfaceSizeClass: Sendable {
    case compact
    case regular
}

/// https://developer.apple.com/documentation/swiftui/scenephase
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
public enum ScenePhase: Comparable, Sendable {
    case background
    case inactive
    case active
}

// MARK: - Navigation

/// https://developer.apple.com/documentation/swiftui/navigationpath
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
public struct NavigationPath {
    /// https://developer.apple.com/documentation/swiftui/navigationpath/init()
    public init() {}
}

/// https://developer.apple.com/documentation/swiftui/navigationstack
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
@MainActor @preconcurrency public struct NavigationStack<Data, Root>: View where Root: View {
    /// https://developer.apple.com/documentation/swiftui/navigationstack/init(path:root:)-3bt4q
    @MainActor @preconcurrency public init(path: Binding<Data>, @ViewBuilder root: () -> Root)
    where
        Data: MutableCollection, Data: RandomAccessCollection, Data: RangeReplaceableCollection, Data.Element: Hashable
    {}

    /// https://developer.apple.com/documentation/swiftui/navigationstack/init(root:)
    @MainActor @preconcurrency public init(@ViewBuilder root: () -> Root) where Data == NavigationPath {}

    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/navigationsplitview
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
@MainActor @preconcurrency public struct NavigationSplitView<Sidebar, Content, Detail>: View
where Sidebar: View, Content: View, Detail: View {
    /// https://developer.apple.com/documentation/swiftui/navigationsplitview/init(sidebar:content:detail:)
    public init(
        @ViewBuilder sidebar: () -> Sidebar, @ViewBuilder content: () -> Content, @ViewBuilder detail: () -> Detail
    ) {}
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

extension NavigationSplitView {
    /// https://developer.apple.com/documentation/swiftui/navigationsplitview/init(columnvisibility:preferredcompactcolumn:sidebar:content:detail:)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    public init(
        columnVisibility: Binding<NavigationSplitViewVisibility>,
        preferredCompactColumn: Binding<NavigationSplitViewColumn>, @ViewBuilder sidebar: () -> Sidebar,
        @ViewBuilder content: () -> Content, @ViewBuilder detail: () -> Detail
    ) {}
}

extension NavigationSplitView where Content == EmptyView {
    /// https://developer.apple.com/documentation/swiftui/navigationsplitview/init(sidebar:detail:)
    public init(@ViewBuilder sidebar: () -> Sidebar, @ViewBuilder detail: () -> Detail) {}

    /// https://developer.apple.com/documentation/swiftui/navigationsplitview/init(columnvisibility:preferredcompactcolumn:sidebar:detail:)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    public init(
        columnVisibility: Binding<NavigationSplitViewVisibility>,
        preferredCompactColumn: Binding<NavigationSplitViewColumn>, @ViewBuilder sidebar: () -> Sidebar,
        @ViewBuilder detail: () -> Detail
    ) {}
}

/// https://developer.apple.com/documentation/swiftui/navigationsplitviewvisibility
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
public struct NavigationSplitViewVisibility: Equatable, Codable, Sendable {
    private let value: Int
    /// https://developer.apple.com/documentation/swiftui/navigationsplitviewvisibility/automatic
    public static var automatic: NavigationSplitViewVisibility { NavigationSplitViewVisibility(value: 0) }
    /// https://developer.apple.com/documentation/swiftui/navigationsplitviewvisibility/all
    public static var all: NavigationSplitViewVisibility { NavigationSplitViewVisibility(value: 1) }
    /// https://developer.apple.com/documentation/swiftui/navigationsplitviewvisibility/doublecolumn
    public static var doubleColumn: NavigationSplitViewVisibility { NavigationSplitViewVisibility(value: 2) }
    /// https://developer.apple.com/documentation/swiftui/navigationsplitviewvisibility/detailonly
    public static var detailOnly: NavigationSplitViewVisibility { NavigationSplitViewVisibility(value: 3) }
}

/// https://developer.apple.com/documentation/swiftui/navigationsplitviewcolumn
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public struct NavigationSplitViewColumn: Hashable, Sendable {
    private let value: Int
    /// https://developer.apple.com/documentation/swiftui/navigationsplitviewcolumn/sidebar
    public static var sidebar: NavigationSplitViewColumn { NavigationSplitViewColumn(value: 0) }
    /// https://developer.apple.com/documentation/swiftui/navigationsplitviewcolumn/content
    public static var content: NavigationSplitViewColumn { NavigationSplitViewColumn(value: 1) }
    /// https://developer.apple.com/documentation/swiftui/navigationsplitviewcolumn/detail
    public static var detail: NavigationSplitViewColumn { NavigationSplitViewColumn(value: 2) }
}

/// https://developer.apple.com/documentation/swiftui/tabview
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 7.0, *)
@MainActor @preconcurrency public struct TabView<SelectionValue, Content>: View
where SelectionValue: Hashable, Content: View {
    /// https://developer.apple.com/documentation/swiftui/tabview/init(selection:content:)
    public init(selection: Binding<SelectionValue>?, @ViewBuilder content: () -> Content) {}
    /// A primitive view: no body of its own.
    public var body: Never { fatalError("stand-in") }
}

// MARK: - UIKit views in SwiftUI

#if canImport(UIKit)
    import UIKit

    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable (iOS 13, iPadOS 13, Mac
    /// Catalyst 13, tvOS 13, visionOS 1; not macOS or watchOS)
    @available(iOS 13.0, macCatalyst 13.0, tvOS 13.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    #if STANDIN_WATCHOS || STANDIN_MACOS
        @available(*, unavailable, message: "not in this platform's SwiftUI")
    #endif
    @MainActor @preconcurrency public protocol UIViewRepresentable: View where Self.Body == Never {
        associatedtype UIViewType: UIView
        typealias Context = UIViewRepresentableContext<Self>
        @MainActor @preconcurrency func makeUIView(context: Self.Context) -> Self.UIViewType
        @MainActor @preconcurrency func updateUIView(_ uiView: Self.UIViewType, context: Self.Context)
    }

    #if STANDIN_WATCHOS || STANDIN_MACOS
        @available(*, unavailable, message: "not in this platform's SwiftUI")
    #endif
    extension UIViewRepresentable where Self.Body == Never {
        /// A representable view has no body of its own.
        public var body: Never { fatalError("stand-in") }
    }

    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentablecontext (iOS 13, iPadOS
    /// 13, Mac Catalyst 13, tvOS 13, visionOS 1; not macOS or watchOS)
    @available(iOS 13.0, macCatalyst 13.0, tvOS 13.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    #if STANDIN_WATCHOS || STANDIN_MACOS
        @available(*, unavailable, message: "not in this platform's SwiftUI")
    #endif
    @MainActor @preconcurrency public struct UIViewRepresentableContext<Representable>
    where Representable: UIViewRepresentable {}
#endif

// MARK: - Modifiers

/// The opaque result of the stand-in's modifiers.
public struct _StandInModifier: ViewModifier {
    /// The modifier every stand-in modifier applies.
    nonisolated public init() {}
    /// The content unchanged.
    public func body(content: Content) -> some View { content }
}

@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
extension View {
    /// https://developer.apple.com/documentation/swiftui/view/modifier(_:)
    @inlinable nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> {
        ModifiedContent(content: self, modifier: modifier)
    }

    /// https://developer.apple.com/documentation/swiftui/view/navigationdestination(for:destination:)
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
    nonisolated public func navigationDestination<D, C>(
        for data: D.Type, @ViewBuilder destination: @escaping (D) -> C
    ) -> some View where D: Hashable, C: View {
        modifier(_StandInModifier())
    }

    /// https://developer.apple.com/documentation/swiftui/view/navigationdestination(item:destination:)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public func navigationDestination<D, C>(
        item: Binding<D?>, @ViewBuilder destination: @escaping (D) -> C
    ) -> some View where D: Hashable, C: View {
        modifier(_StandInModifier())
    }

    /// https://developer.apple.com/documentation/swiftui/view/sheet(item:ondismiss:content:)
    nonisolated public func sheet<Item, Content>(
        item: Binding<Item?>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping (Item) -> Content
    ) -> some View where Item: Identifiable, Content: View {
        modifier(_StandInModifier())
    }

    /// https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)-4psgg
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public func onChange<V>(
        of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
    ) -> some View where V: Equatable {
        modifier(_StandInModifier())
    }

    /// https://developer.apple.com/documentation/swiftui/view/onappear(perform:)
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View {
        modifier(_StandInModifier())
    }

    /// https://developer.apple.com/documentation/swiftui/view/ondisappear(perform:)
    nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View {
        modifier(_StandInModifier())
    }

    /// https://developer.apple.com/documentation/swiftui/view/background(alignment:content:)
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    nonisolated public func background<V>(@ViewBuilder content: () -> V) -> some View where V: View {
        modifier(_StandInModifier())
    }

    /// https://developer.apple.com/documentation/swiftui/view/toolbar(content:)-5w0tj
    @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
    nonisolated public func toolbar<Content>(@ViewBuilder content: () -> Content) -> some View where Content: View {
        modifier(_StandInModifier())
    }

    /// https://developer.apple.com/documentation/swiftui/view/tabitem(_:)
    nonisolated public func tabItem<V>(@ViewBuilder _ label: () -> V) -> some View where V: View {
        modifier(_StandInModifier())
    }

    /// https://developer.apple.com/documentation/swiftui/view/onopenurl(perform:)
    @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
    nonisolated public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View {
        modifier(_StandInModifier())
    }

    /// https://developer.apple.com/documentation/swiftui/view/tag(_:)
    nonisolated public func tag<V>(_ tag: V) -> some View where V: Hashable {
        modifier(_StandInModifier())
    }

    /// https://developer.apple.com/documentation/swiftui/view/alert(_:ispresented:presenting:actions:message:)-29bp4
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    nonisolated public func alert<A, M, T>(
        _ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, presenting data: T?,
        @ViewBuilder actions: (T) -> A, @ViewBuilder message: (T) -> M
    ) -> some View where A: View, M: View {
        modifier(_StandInModifier())
    }

    /// https://developer.apple.com/documentation/swiftui/view/alert(_:ispresented:presenting:actions:message:)-8584l
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    @_disfavoredOverload nonisolated public func alert<S, A, M, T>(
        _ title: S, isPresented: Binding<Bool>, presenting data: T?, @ViewBuilder actions: (T) -> A,
        @ViewBuilder message: (T) -> M
    ) -> some View where S: StringProtocol, A: View, M: View {
        modifier(_StandInModifier())
    }
}
