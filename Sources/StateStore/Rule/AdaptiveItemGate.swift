/// The size-class handling of the SwiftUI adapter's `sheetOrNavigate(item:policy:destination:)`,
/// for an item a host keeps in memory itself, as a plain value: under the `dismiss` policy a
/// change of presentation mode dismisses the item, gated like a live window (``SizeClassGate``) so
/// that a transient flip — iPadOS snapshotting a window in the background — never dismisses.
///
/// A view holds one in its state, reports the environment to it, wakes it at ``deadline``, and
/// binds the item's two presentations through `item[sheetWith: gate]` and
/// `item[navigationWith: gate]`.
public struct AdaptiveItemGate: Hashable, Sendable {
    /// What a change of presentation mode does to the item.
    public let policy: SizeChangePolicy
    /// How long a reported class must hold before it counts.
    public let settle: Duration
    private var gate: SizeClassGate?

    /// A gate for `policy`; the first class the environment reports is where the view starts.
    public init(policy: SizeChangePolicy = .migrate, settle: Duration = .milliseconds(500)) {
        self.policy = policy
        self.settle = settle
    }

    /// The class the item is laid out for, `nil` until the environment has reported one (as
    /// SwiftUI's `nil` size class, it presents as a sheet).
    public var sizeClass: SizeClass? { gate?.layoutClass }

    /// Whether the item is shown at all: a `dismiss` item is hidden, not gone, while a change of
    /// mode settles.
    public var showsItem: Bool { !(policy == .dismiss && gate?.hidesDismissibleItem == true) }

    /// When the pending change settles, if one is pending: call ``advance(to:)`` then.
    public var deadline: Duration? { gate?.deadline }

    /// Takes the environment's class and activity at `now` (a duration since any origin the view
    /// keeps to); `true` when the item is to be dismissed now.
    public mutating func report(_ sizeClass: SizeClass, isActive: Bool, at now: Duration) -> Bool {
        if gate == nil { gate = SizeClassGate(committed: sizeClass, settle: settle) }
        return dismisses(gate?.report(sizeClass, isActive: isActive, at: now))
    }

    /// Lets a pending change settle if its time has come; `true` when the item is to be dismissed now.
    public mutating func advance(to now: Duration) -> Bool {
        dismisses(gate?.advance(to: now))
    }

    /// The host presented an item at `now`, in the layout as it is: a pending change no longer
    /// dismisses it for the mode it was presented in.
    public mutating func itemPresented(at now: Duration) {
        gate?.itemPresented(at: now)
    }

    private func dismisses(_ settled: SizeClassGate.Settled?) -> Bool {
        policy == .dismiss && settled?.changesMode == true
    }

    /// The two bindings over `item` (``AdaptiveItem``) for the class laid out now.
    func projection<Item>(of item: Item?) -> AdaptiveItem<Item> {
        AdaptiveItem(item: item, horizontalSizeClass: sizeClass)
    }
}

extension Optional {
    /// The item as a sheet presents it: ``AdaptiveItem/sheetItem`` (the item when not regular;
    /// writes ignored when regular), and nothing while `gate` hides a `dismiss` item. A key path,
    /// so that a view binds `$item[sheetWith: gate]` without a closure of its own.
    public subscript(sheetWith gate: AdaptiveItemGate) -> Wrapped? {
        get { gate.showsItem ? gate.projection(of: self).sheetItem : nil }
        set {
            guard gate.showsItem else { return }
            var projection = gate.projection(of: self)
            projection.sheetItem = newValue
            self = projection.item
        }
    }

    /// The item as a navigation destination pushes it: ``AdaptiveItem/navigationItem`` (the item
    /// when regular; writes ignored otherwise), and nothing while `gate` hides a `dismiss` item.
    public subscript(navigationWith gate: AdaptiveItemGate) -> Wrapped? {
        get { gate.showsItem ? gate.projection(of: self).navigationItem : nil }
        set {
            guard gate.showsItem else { return }
            var projection = gate.projection(of: self)
            projection.navigationItem = newValue
            self = projection.item
        }
    }
}
