/// When a window's size-class changes count, as a plain value that a host's window model and the
/// SwiftUI adapter share: reported classes, activity and the time in; the class to lay out for
/// and the changes that have settled out.
/// Times are durations since any origin the caller keeps to (a clock's first reading), so the
/// gate holds no clock of its own and tests pass made-up times.
///
/// iPadOS flips a window's size class for a moment to snapshot it in the background, and a
/// window being resized passes through classes it does not keep. So a reported class is only
/// remembered while the window is inactive (on becoming active the latest one counts), and a
/// change is committed — written, and under `dismiss` a change of mode clears the item — only
/// once it has held for ``settle``. Until then a `dismiss` item is hidden, not gone; a flip back
/// commits nothing. `unspecified` is "not known": it never carries a policy effect.
///
/// The host model and the SwiftUI modifier both hold one: they call ``report(_:isActive:at:)``
/// from the environment, schedule a wake-up at ``deadline``, and call ``advance(to:)`` then.
public struct SizeClassGate: Hashable, Sendable {
    /// When the layout follows a reported class.
    public enum LayoutFollows: Hashable, Sendable {
        /// At once; only the commit waits for ``SizeClassGate/settle``.
        case immediately
        /// Only once the class has settled.
        case afterSettle
    }

    /// A change that has settled out: the class to write, and whether it carries the policy's
    /// effect (a known class of another mode than the one the item was last shown in).
    public struct Settled: Hashable, Sendable {
        /// The class to store.
        public var sizeClass: SizeClass
        /// Whether the presentation mode changed, so that a `dismiss` item is now cleared.
        public var changesMode: Bool

        /// A settled change to `sizeClass`.
        public init(sizeClass: SizeClass, changesMode: Bool) {
            self.sizeClass = sizeClass
            self.changesMode = changesMode
        }
    }

    /// How long a reported class must hold before it is committed.
    public let settle: Duration
    /// When the layout follows a reported class.
    public let layoutFollows: LayoutFollows
    /// The class last committed (at first, the saved one).
    public private(set) var committed: SizeClass
    /// The class the environment last reported, if any.
    public private(set) var latest: SizeClass?
    /// Whether the window is active (only `.active` scenes are).
    public private(set) var isActive = false
    /// The class the window lays out for now.
    public private(set) var layoutClass: SizeClass
    /// Since when the latest class, which differs from the committed one, has held while active.
    private var pendingSince: Duration?
    /// The mode the item was last shown in by a known class: what a change of mode is measured from.
    private var policyMode: SizeClass.Mode

    /// A gate for a window restored (or created) in `committed`, laid out for it until the
    /// environment reports otherwise.
    public init(
        committed: SizeClass, settle: Duration = .milliseconds(500), layoutFollows: LayoutFollows = .immediately
    ) {
        self.settle = max(settle, .zero)
        self.layoutFollows = layoutFollows
        self.committed = committed
        self.layoutClass = committed
        self.policyMode = committed.mode
    }

    /// When the pending change settles, if one is pending: the caller calls ``advance(to:)`` then.
    public var deadline: Duration? { pendingSince.map { $0 + settle } }

    /// Whether the layout shows a known class of another mode than the item was last shown in,
    /// not yet committed: a `dismiss` item is hidden until the change settles or goes back.
    public var hidesDismissibleItem: Bool {
        layoutClass != .unspecified && layoutClass.mode != policyMode
    }

    /// Takes the environment's class and activity at `now`; returns the change that settles at
    /// once (a zero ``settle``), if any.
    public mutating func report(_ sizeClass: SizeClass, isActive: Bool, at now: Duration) -> Settled? {
        let wasActive = self.isActive
        let changed = sizeClass != latest
        latest = sizeClass
        self.isActive = isActive
        guard isActive else {
            pendingSince = nil  // remembered only; it counts on becoming active
            return nil
        }
        if changed || !wasActive {
            pendingSince = differsFromCommitted(sizeClass) ? now : nil
            layoutClass = layoutFollows == .immediately ? sizeClass : committed
        }
        return advance(to: now)
    }

    /// An item was presented in the layout as it is now: a pending change no longer carries the
    /// policy's effect for it, and going back to the committed class is itself a change of mode
    /// for it (so a `dismiss` item presented during a flip is cleared if the flip goes back).
    public mutating func itemPresented(at now: Duration) {
        guard layoutClass != .unspecified, layoutClass.mode != policyMode else { return }
        policyMode = layoutClass.mode
        if isActive, let latest { pendingSince = differsFromCommitted(latest) ? (pendingSince ?? now) : nil }
    }

    /// Whether `sizeClass` would be a change to commit: another class than the committed one, or a
    /// known class of another mode than the item was last shown in.
    private func differsFromCommitted(_ sizeClass: SizeClass) -> Bool {
        sizeClass != committed || (sizeClass != .unspecified && sizeClass.mode != policyMode)
    }

    /// Commits the pending change if it has held for ``settle`` by `now`.
    public mutating func advance(to now: Duration) -> Settled? {
        guard let deadline, deadline <= now, let latest else { return nil }
        pendingSince = nil
        let changesMode = latest != .unspecified && latest.mode != policyMode
        if latest != .unspecified { policyMode = latest.mode }
        committed = latest
        layoutClass = latest
        return Settled(sizeClass: latest, changesMode: changesMode)
    }

    /// Another writer's state was adopted: any pending change is cancelled, and the class the
    /// window lays out for now counts as committed — the outside size class is stored as written,
    /// but the live window keeps laying out for the class it really has.
    public mutating func adoptOutsideState() {
        pendingSince = nil
        committed = layoutClass
        if layoutClass != .unspecified { policyMode = layoutClass.mode }
    }
}
