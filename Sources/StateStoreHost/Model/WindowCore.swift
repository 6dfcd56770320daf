import Observation
import StateStore

/// What a ``WindowModel`` shows, observed: the one non-generic `@Observable` object behind each
/// model, whatever its route type. Views reading a model's properties are tracked on these.
///
/// Not generic on purpose: a key path into a generic class is built anew at every use, which made
/// hand-written accessors necessary for the verbs to stay fast; here the macro's own accessors use
/// key paths the compiler makes once.
@MainActor
@Observable
final class WindowCore {
    /// The stored revision the model is based on (0: nothing stored yet).
    var revision = 0
    /// Whether the window is still being read from the store.
    var isRestoring = false
    /// The last thing that went wrong, until the app clears it.
    var lastError: WindowError?
    /// The window as the model holds it: the stored state with the local edits not yet written.
    var state: WindowState {
        didSet { stateVersion &+= 1 }
    }
    /// When size-class changes count, and the class laid out for now.
    var gate: SizeClassGate
    /// One number per presentation of an item (``Presented/id``).
    var presentationID = 0
    /// A sheet presented by the same change that changed the window's stack waits for
    /// ``WindowModel/presentationReady()``.
    var sheetHeld = false

    /// Counts the changes of ``state``, so that a memo of it is checked without comparing states.
    @ObservationIgnored var stateVersion = 0

    init(state: WindowState, gate: SizeClassGate) {
        self.state = state
        self.gate = gate
    }
}
