/// The two bindings of `sheetOrNavigate` over one optional item, as a plain value: a sheet reads
/// and writes it only when the size class is not regular, a navigation destination only when it
/// is. A `nil` size class counts as not regular, as in SwiftUI.
public struct AdaptiveItem<Item> {
    /// The one source of truth both projections read.
    public var item: Item?
    /// The environment's horizontal size class.
    public var horizontalSizeClass: SizeClass?

    /// The projections of `item` in `horizontalSizeClass`.
    public init(item: Item? = nil, horizontalSizeClass: SizeClass? = nil) {
        self.item = item
        self.horizontalSizeClass = horizontalSizeClass
    }

    private var isRegular: Bool { horizontalSizeClass == .regular }

    /// The sheet's binding: the item when not regular; writes are ignored when regular.
    public var sheetItem: Item? {
        get { isRegular ? nil : item }
        set {
            guard !isRegular else { return }
            item = newValue
        }
    }

    /// The navigation destination's binding: the item when regular; writes are ignored otherwise.
    public var navigationItem: Item? {
        get { isRegular ? item : nil }
        set {
            guard isRegular else { return }
            item = newValue
        }
    }
}

extension AdaptiveItem: Equatable where Item: Equatable {}
extension AdaptiveItem: Hashable where Item: Hashable {}
extension AdaptiveItem: Sendable where Item: Sendable {}
