import StateStore

// Presentation ids and the held sheet: a new id for each presentation of an item, so that SwiftUI
// keeps a sheet up while the same item stays presented; and a sheet that one change both presents
// and changes the stack under waits for the stack to appear (SwiftUI presents one step per update).

/// What a model remembers of its presentations, apart from what views observe.
struct PresentationTracker {
    /// What a snapshot is made from: a change's "after" is the next change's "before", taken again
    /// over the same state unless something moved.
    struct Key: Equatable {
        var stateVersion: Int
        var hides: Bool
        var layoutClass: SizeClass
        var presentationID: Int
    }

    /// The item the current presentation id is for.
    var presentedRoute: Route?
    /// The last snapshot and what it was made from.
    var memo: (key: Key, snapshot: PresentationSnapshot)?
    /// The presentation id the view last read through the sheet: a `nil` written for an older one
    /// is late.
    var sheetIDRead: Int?
}

/// The stack shown and the sheet's presentation, before and after a change.
struct PresentationSnapshot: Equatable {
    var stack: [Route]
    var sheetID: Int?
}

extension WindowModel {
    var presentationSnapshot: PresentationSnapshot {
        let gate = core.gate
        let key = PresentationTracker.Key(
            stateVersion: core.stateVersion, hides: gate.hidesDismissibleItem, layoutClass: gate.layoutClass,
            presentationID: core.presentationID)
        if let memo = presentation.memo, memo.key == key { return memo.snapshot }
        let layout = visible.state.layout(for: gate.layoutClass)
        let snapshot = PresentationSnapshot(
            stack: layout.stack, sheetID: layout.sheet == nil ? nil : key.presentationID)
        presentation.memo = (key, snapshot)
        return snapshot
    }

    /// After any change: a new presentation gets a new id, a sheet presented by the same change
    /// that changed the window's stack waits for ``presentationReady()``, and a stored route that
    /// does not decode is named once.
    func refreshPresentation(since before: PresentationSnapshot) {
        if core.state.item != presentation.presentedRoute {
            if core.state.item != nil { core.presentationID += 1 }
            presentation.presentedRoute = core.state.item
        }
        let after = presentationSnapshot
        if after.sheetID == nil {
            if core.sheetHeld { core.sheetHeld = false }
        } else if after.sheetID != before.sheetID && after.stack != before.stack {
            core.sheetHeld = true
        }
        let hidden = visible.hidden
        if hidden != routes.reportedHidden {
            routes.reportedHidden = hidden
            if let hidden, let reason = routes.failure(of: hidden) {
                report(.undecodableRoute(hidden, reason: reason))
            }
        }
        trimDecodings()
    }
}
