import StateStore
import Testing

/// The settle rule on the pure gate (a change of mode counts only once it has held for `settle`
/// while the window is active), with instants made up rather than waited for.
struct SizeClassGateTests {
    typealias Gate = SizeClassGate

    func at(_ milliseconds: Int) -> Duration { .milliseconds(milliseconds) }

    @Test func aFlipShorterThanSettleCommitsNothingAndHidesTheItemMeanwhile() {
        var gate = Gate(committed: .regular, settle: .milliseconds(500))
        #expect(gate.report(.regular, isActive: true, at: at(0)) == nil)
        #expect(gate.deadline == nil)

        #expect(gate.report(.compact, isActive: true, at: at(100)) == nil)
        #expect(gate.layoutClass == .compact, "the layout follows at once")
        #expect(gate.hidesDismissibleItem, "a dismiss item is hidden, not gone")
        #expect(gate.deadline == at(600))
        #expect(gate.advance(to: at(599)) == nil)

        #expect(gate.report(.regular, isActive: true, at: at(400)) == nil)
        #expect(gate.layoutClass == .regular)
        #expect(!gate.hidesDismissibleItem, "back in the item's mode: shown again")
        #expect(gate.deadline == nil)
        #expect(gate.advance(to: at(10_000)) == nil)
        #expect(gate.committed == .regular)
    }

    @Test func aChangeThatHoldsForSettleCommitsOnceWithTheModeChange() {
        var gate = Gate(committed: .regular, settle: .milliseconds(500))
        _ = gate.report(.compact, isActive: true, at: at(0))
        #expect(gate.advance(to: at(499)) == nil)
        #expect(gate.advance(to: at(500)) == .init(sizeClass: .compact, changesMode: true))
        #expect(gate.committed == .compact)
        #expect(!gate.hidesDismissibleItem)
        #expect(gate.deadline == nil)
        #expect(gate.advance(to: at(5000)) == nil, "committed once")
    }

    @Test func aNewReportRestartsTheWait() {
        var gate = Gate(committed: .regular, settle: .milliseconds(500))
        _ = gate.report(.compact, isActive: true, at: at(0))
        _ = gate.report(.unspecified, isActive: true, at: at(300))
        #expect(gate.deadline == at(800))
        #expect(gate.advance(to: at(500)) == nil)
        #expect(gate.advance(to: at(800)) == .init(sizeClass: .unspecified, changesMode: false))
    }

    @Test func classesReportedWhileInactiveAreOnlyRemembered() {
        var gate = Gate(committed: .regular, settle: .milliseconds(500))
        _ = gate.report(.regular, isActive: true, at: at(0))
        // iPadOS snapshots the window in the background in the other size class, then returns.
        #expect(gate.report(.regular, isActive: false, at: at(10)) == nil)
        #expect(gate.report(.compact, isActive: false, at: at(20)) == nil)
        #expect(gate.layoutClass == .regular, "nothing follows while inactive")
        #expect(gate.deadline == nil)
        #expect(gate.advance(to: at(10_000)) == nil)
        #expect(gate.report(.regular, isActive: false, at: at(30)) == nil)
        #expect(gate.report(.regular, isActive: true, at: at(40)) == nil)
        #expect(gate.deadline == nil)
        #expect(gate.committed == .regular)
    }

    @Test func onBecomingActiveTheLatestClassCountsFromThen() {
        var gate = Gate(committed: .regular, settle: .milliseconds(500))
        _ = gate.report(.compact, isActive: false, at: at(0))
        #expect(gate.layoutClass == .regular)
        _ = gate.report(.compact, isActive: true, at: at(1000))
        #expect(gate.layoutClass == .compact)
        #expect(gate.deadline == at(1500))
        #expect(gate.advance(to: at(1500)) == .init(sizeClass: .compact, changesMode: true))
    }

    @Test func goingInactiveCancelsAPendingChange() {
        var gate = Gate(committed: .regular, settle: .milliseconds(500))
        _ = gate.report(.compact, isActive: true, at: at(0))
        _ = gate.report(.compact, isActive: false, at: at(100))
        #expect(gate.deadline == nil)
        #expect(gate.advance(to: at(1000)) == nil)
        #expect(gate.hidesDismissibleItem, "still laid out as it was when it went inactive")
        _ = gate.report(.compact, isActive: true, at: at(2000))
        #expect(gate.deadline == at(2500), "the wait starts again on becoming active")
    }

    @Test func compactAndUnspecifiedAreOneMode() {
        var gate = Gate(committed: .compact, settle: .milliseconds(500))
        _ = gate.report(.unspecified, isActive: true, at: at(0))
        #expect(!gate.hidesDismissibleItem)
        #expect(gate.advance(to: at(500)) == .init(sizeClass: .unspecified, changesMode: false))
        _ = gate.report(.compact, isActive: true, at: at(600))
        #expect(gate.advance(to: at(1100)) == .init(sizeClass: .compact, changesMode: false))
    }

    @Test func unspecifiedNeverCarriesThePolicyEffect() {
        // Regular, then "not known" for a while, then compact: the change of mode is measured from
        // regular, where the item was last shown, not from the unspecified in between.
        var gate = Gate(committed: .regular, settle: .milliseconds(500))
        _ = gate.report(.unspecified, isActive: true, at: at(0))
        #expect(!gate.hidesDismissibleItem, "unspecified is not known: nothing is hidden for it")
        #expect(gate.advance(to: at(500)) == .init(sizeClass: .unspecified, changesMode: false))
        _ = gate.report(.compact, isActive: true, at: at(1000))
        #expect(gate.hidesDismissibleItem)
        #expect(gate.advance(to: at(1500)) == .init(sizeClass: .compact, changesMode: true))
    }

    @Test func aWindowSavedUnspecifiedWasShownAsASheet() {
        var gate = Gate(committed: .unspecified, settle: .milliseconds(500))
        _ = gate.report(.regular, isActive: true, at: at(0))
        #expect(gate.advance(to: at(500)) == .init(sizeClass: .regular, changesMode: true))

        var compact = Gate(committed: .unspecified, settle: .milliseconds(500))
        _ = compact.report(.compact, isActive: true, at: at(0))
        #expect(compact.advance(to: at(500)) == .init(sizeClass: .compact, changesMode: false))
    }

    @Test func afterSettleTheLayoutWaitsToo() {
        var gate = Gate(committed: .regular, settle: .milliseconds(500), layoutFollows: .afterSettle)
        _ = gate.report(.compact, isActive: true, at: at(0))
        #expect(gate.layoutClass == .regular)
        #expect(!gate.hidesDismissibleItem)
        #expect(gate.advance(to: at(500)) == .init(sizeClass: .compact, changesMode: true))
        #expect(gate.layoutClass == .compact)
    }

    @Test func aZeroSettleCommitsAtOnce() {
        var gate = Gate(committed: .regular, settle: .zero)
        #expect(gate.report(.compact, isActive: true, at: at(0)) == .init(sizeClass: .compact, changesMode: true))
        #expect(gate.deadline == nil)
    }

    @Test func adoptingAnOutsideStateCancelsThePendingChange() {
        var gate = Gate(committed: .regular, settle: .milliseconds(500))
        _ = gate.report(.compact, isActive: true, at: at(0))
        gate.adoptOutsideState()
        #expect(gate.deadline == nil)
        #expect(gate.advance(to: at(1000)) == nil)
        #expect(gate.layoutClass == .compact, "the window keeps laying out for the class it has")
        #expect(gate.committed == .compact)
        #expect(!gate.hidesDismissibleItem, "the adopted item is shown in the class the window has")
        _ = gate.report(.regular, isActive: true, at: at(2000))
        #expect(gate.advance(to: at(2500)) == .init(sizeClass: .regular, changesMode: true))
    }

    @Test func anItemPresentedDuringAFlipKeepsThroughItsSettleAndGoesIfTheFlipGoesBack() {
        var gate = Gate(committed: .regular, settle: .milliseconds(500))
        _ = gate.report(.compact, isActive: true, at: at(0))
        gate.itemPresented(at: at(100))
        #expect(!gate.hidesDismissibleItem, "presented in compact, shown in compact")
        #expect(gate.advance(to: at(500)) == .init(sizeClass: .compact, changesMode: false))

        var back = Gate(committed: .regular, settle: .milliseconds(500))
        _ = back.report(.compact, isActive: true, at: at(0))
        back.itemPresented(at: at(100))
        _ = back.report(.regular, isActive: true, at: at(200))
        #expect(back.hidesDismissibleItem, "presented in compact: regular is another mode for it")
        #expect(back.deadline == at(700))
        #expect(back.advance(to: at(700)) == .init(sizeClass: .regular, changesMode: true))
        #expect(!back.hidesDismissibleItem)
    }
}
