import StateStore
import Testing

/// `AdaptiveItem`, the two bindings `sheetOrNavigate` is built on: the sheet reads and writes only
/// when not regular, the navigation destination only when regular; `nil` counts as not regular.
struct AdaptiveItemTests {
    @Test(
        "projections read the item only in their own mode",
        arguments: [SizeClass?.none, .compact, .regular, .unspecified])
    func reads(_ sizeClass: SizeClass?) {
        let binding = AdaptiveItem(item: 5, horizontalSizeClass: sizeClass)
        let regular = sizeClass == .regular
        #expect(binding.sheetItem == (regular ? nil : 5))
        #expect(binding.navigationItem == (regular ? 5 : nil))
    }

    @Test(
        "writes through the other mode's projection are ignored",
        arguments: [SizeClass?.none, .compact, .regular, .unspecified])
    func writes(_ sizeClass: SizeClass?) {
        let regular = sizeClass == .regular
        var binding = AdaptiveItem(item: 1, horizontalSizeClass: sizeClass)
        binding.sheetItem = 2
        #expect(binding.item == (regular ? 1 : 2))
        binding.navigationItem = 3
        #expect(binding.item == (regular ? 3 : 2))
        binding.sheetItem = nil
        binding.navigationItem = nil
        #expect(binding.item == nil)
    }
}
