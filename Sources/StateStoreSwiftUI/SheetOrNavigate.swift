#if canImport(SwiftUI)
    import StateStore
    import SwiftUI

    extension View {
        /// The adaptive rule as a modifier, for an item the host keeps in memory itself: `item` is pushed as a
        /// navigation destination when the window is regular and presented as a sheet (in a
        /// `NavigationStack` of its own) otherwise. Under `policy` `.dismiss`, a change of
        /// presentation mode that holds for 500 ms clears the item; a transient flip never does, and
        /// under `.migrate` nothing is lost. The decisions are ``AdaptiveItemGate``'s.
        public func sheetOrNavigate<Item: Identifiable & Hashable, Destination: View>(
            item: Binding<Item?>, policy: SizeChangePolicy = .migrate,
            @ViewBuilder destination: @escaping (Item) -> Destination
        ) -> some View {
            modifier(SheetOrNavigateItemModifier(item: item, policy: policy, destination: destination))
        }
    }

    /// ``View/sheetOrNavigate(item:policy:destination:)``: a push binding and a sheet binding, through
    /// ``AdaptiveItemGate``'s key paths, and the gate held in `@State`.
    struct SheetOrNavigateItemModifier<Item: Identifiable & Hashable, Destination: View>: ViewModifier {
        @Binding var item: Item?
        let destination: (Item) -> Destination
        @State private var gate: AdaptiveItemGate
        @State private var origin = ContinuousClock.now
        /// Counts wake-ups at the gate's deadline; a change runs the settle check on the main actor.
        @State private var wakeUps = 0
        @Environment(\.horizontalSizeClass) private var horizontalSizeClass
        @Environment(\.scenePhase) private var scenePhase

        init(item: Binding<Item?>, policy: SizeChangePolicy, destination: @escaping (Item) -> Destination) {
            _item = item
            _gate = State(initialValue: AdaptiveItemGate(policy: policy))
            self.destination = destination
        }

        private var environment: SceneEnvironment {
            SceneEnvironment(horizontalSizeClass: horizontalSizeClass, phase: scenePhase)
        }

        private var now: Duration { origin.duration(to: .now) }

        func body(content: Content) -> some View {
            content
                .navigationDestination(item: $item[navigationWith: gate]) { value in destination(value) }
                .sheet(item: $item[sheetWith: gate]) { value in
                    NavigationStack { destination(value) }
                }
                .onChange(of: environment, initial: true) { _, environment in
                    if gate.report(environment.sizeClass, isActive: environment.isActive, at: now) { item = nil }
                    scheduleWakeUp()
                }
                .onChange(of: item) { old, new in
                    if new != nil && new != old { gate.itemPresented(at: now) }
                    scheduleWakeUp()
                }
                .onChange(of: wakeUps) { _, _ in
                    if gate.advance(to: now) { item = nil }
                    scheduleWakeUp()
                }
        }

        /// Wakes the view at the gate's deadline, if it has one.
        private func scheduleWakeUp() {
            guard let deadline = gate.deadline else { return }
            let wake = origin.advanced(by: deadline)
            let wakeUps = $wakeUps
            Task { @MainActor in
                try? await Task.sleep(until: wake, clock: .continuous)
                wakeUps.wrappedValue += 1
            }
        }
    }
#endif
