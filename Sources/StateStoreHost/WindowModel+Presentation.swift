import StateStore

// Presentation ids and the held sheet: a new id for each presentation of an item, so SwiftUI keeps
// a sheet up while the same item stays presented; and a sheet that one change both presents and
// changes the stack under waits for the stack to appear (SwiftUI presents one step per update).

extension WindowModel {
    struct PresentationSnapshot: Equatable {
        var stack: [Route]
        var sheetID: Int?
    }

    /// What a snapshot is made from: a change's "after" is the next change's "before", taken again
    /// over the same state unless something moved.
    struct PresentationSnapshotKey: Equatable {
        var stateVersion: Int
        var hides: Bool
        var layoutClass: SizeClass
        var presentationID: Int
    }

    var presentationSnapshot: PresentationSnapshot {
        let gate = core.gate
        let key = PresentationSnapshotKey(
            stateVersion: core.stateVersion, hides: gate.hidesDismissibleItem, layoutClass: gate.layoutClass,
            presentationID: core.presentationID)
        if let memo = snapshotMemo, memo.key == key { return memo.snapshot }
        let layout = visible.state.layout(for: gate.layoutClass)
        let snapshot = PresentationSnapshot(
            stack: layout.stack, sheetID: layout.sheet == nil ? nil : key.presentationID)
        snapshotMemo = (key, snapshot)
        return snapshot
    }

    /// After any change: a new presentation gets a new id, and a sheet presented by the same change
    /// that changed the window's stack waits for ``presentationReady()``.
    func refreshPresentation(since before: PresentationSnapshot) {
        if core.state.item != presentedRoute {
            if core.state.item != nil { core.presentationID += 1 }
            presentedRoute = core.state.item
        }
        let after = presentationSnapshot
        if after.sheetID == nil {
            if core.sheetHeld { core.sheetHeld = false }
        } else if after.sheetID != before.sheetID && after.stack != before.stack {
            core.sheetHeld = true
        }
        let hidden = visible.hidden
        if hidden != reportedHidden {
            reportedHidden = hidden
            if let hidden, case .failure(let reason)? = decodings[hidden] {
                report(.undecodableRoute(hidden, reason: reason))
            }
        }
        trimDecodings()
    }
}
