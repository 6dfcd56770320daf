import StateStore
import Testing

/// The size-class handling of `sheetOrNavigate`, the modifier for items a host keeps in memory: its
/// two bindings, the `dismiss` policy, and the settle gate that keeps a transient flip from
/// dismissing anything.
struct AdaptiveItemGateTests {
    func at(_ milliseconds: Int) -> Duration { .milliseconds(milliseconds) }

    /// Reports a class at a time; whether the gate says to dismiss the item now.
    func report(_ gate: inout AdaptiveItemGate, _ sizeClass: SizeClass, active: Bool = true, at time: Int) -> Bool {
        gate.report(sizeClass, isActive: active, at: at(time))
    }

    func advance(_ gate: inout AdaptiveItemGate, to time: Int) -> Bool {
        gate.advance(to: at(time))
    }

    @Test func theSeedsBindingsForTheReportedClass() {
        var gate = AdaptiveItemGate()
        var item: Int? = 7
        #expect(item[sheetWith: gate] == 7, "no class yet: presented as a sheet, as SwiftUI does for nil")
        #expect(item[navigationWith: gate] == nil)

        _ = report(&gate, .regular, at: 0)
        #expect(item[sheetWith: gate] == nil)
        #expect(item[navigationWith: gate] == 7)
        item[sheetWith: gate] = nil
        #expect(item == 7, "a sheet's write is ignored when regular")
        item[navigationWith: gate] = nil
        #expect(item == nil, "the navigation destination's pop clears the item")

        var compact = AdaptiveItemGate()
        _ = report(&compact, .compact, at: 0)
        item = 3
        item[navigationWith: compact] = nil
        #expect(item == 3, "a destination's write is ignored when not regular")
        item[sheetWith: compact] = nil
        #expect(item == nil, "the sheet's swipe-down clears the item")
    }

    @Test(arguments: SizeChangePolicy.allCases)
    func aTransientFlipNeverDismisses(_ policy: SizeChangePolicy) {
        var gate = AdaptiveItemGate(policy: policy, settle: .milliseconds(500))
        let item: Int? = 1
        #expect(!report(&gate, .regular, at: 0))
        #expect(!report(&gate, .compact, at: 100))
        if policy == .dismiss {
            #expect(item[sheetWith: gate] == nil, "hidden while the change settles")
            #expect(item[navigationWith: gate] == nil)
        } else {
            #expect(item[sheetWith: gate] == 1, "migrate: a sheet at once")
        }
        #expect(!report(&gate, .regular, at: 300))
        #expect(!advance(&gate, to: 10_000))
        #expect(item[navigationWith: gate] == 1)
    }

    @Test func aSettledChangeOfModeDismissesUnderDismissOnly() {
        var dismiss = AdaptiveItemGate(policy: .dismiss, settle: .milliseconds(500))
        var migrate = AdaptiveItemGate(policy: .migrate, settle: .milliseconds(500))
        #expect(!report(&dismiss, .regular, at: 0))
        #expect(!report(&migrate, .regular, at: 0))
        #expect(!report(&dismiss, .compact, at: 0), "nothing at once")
        #expect(!report(&migrate, .compact, at: 0))
        #expect(dismiss.deadline == at(500))
        #expect(!advance(&dismiss, to: 499))
        #expect(advance(&dismiss, to: 500))
        #expect(!advance(&migrate, to: 500))
        #expect(dismiss.showsItem)
    }

    @Test func flipsWhileInactiveAreOnlyRemembered() {
        var gate = AdaptiveItemGate(policy: .dismiss, settle: .milliseconds(500))
        _ = report(&gate, .regular, at: 0)
        #expect(!report(&gate, .compact, active: false, at: 10))
        #expect(gate.showsItem)
        #expect(!report(&gate, .regular, at: 20))
        #expect(!advance(&gate, to: 10_000))
    }

    @Test func anItemPresentedDuringAPendingChangeIsShownAndKept() {
        var gate = AdaptiveItemGate(policy: .dismiss, settle: .milliseconds(500))
        _ = report(&gate, .regular, at: 0)
        _ = report(&gate, .compact, at: 0)
        gate.itemPresented(at: at(100))
        let item: Int? = 9
        #expect(item[sheetWith: gate] == 9)
        #expect(!advance(&gate, to: 500), "presented in compact: the settled compact does not dismiss it")
    }
}
