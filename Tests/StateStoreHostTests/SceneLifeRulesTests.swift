import StateStore
import StateStoreHost
import Testing

/// The scene life's rules as a table (`SceneLife`, a plain value): what the system does in, what
/// the session does out, with no session, no scene and no clock.
struct SceneLifeRulesTests {
    /// An input: a system event, a window's activity, or the app pausing.
    enum Input: Sendable, CustomStringConvertible {
        case event(SceneEvent)
        case active(String, Bool)
        case paused(Bool)
        case gone(String)

        var description: String {
            switch self {
            case .event(let event): "\(event)"
            case .active(let window, let active): "\(window) \(active ? "active" : "inactive")"
            case .paused(let paused): paused ? "paused by the app" : "resumed by the app"
            case .gone(let window): "\(window) discarded"
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let inputs: [Input]
        /// The effects of the last input.
        let effects: [SceneLife.Effect]
        /// Whether the session observes other writers at the end.
        let observing: Bool

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a launch in the background observes nothing", inputs: [], effects: [], observing: false),
        Case(
            name: "the first active window starts observing and resumes the writer", inputs: [.active("a", true)],
            effects: [.resumeWriter, .observe(true)], observing: true),
        Case(
            name: "a second active window only resumes the writer",
            inputs: [.active("a", true), .active("b", true)], effects: [.resumeWriter], observing: true),
        Case(
            name: "the last window leaving stops observing, writes what is pending, prunes once",
            inputs: [.active("a", true), .active("a", false)], effects: [.observe(false), .writePending, .prune],
            observing: false),
        Case(
            name: "the second time in a launch, no prune",
            inputs: [.active("a", true), .active("a", false), .active("a", true), .active("a", false)],
            effects: [.observe(false), .writePending], observing: false),
        Case(
            name: "an inactive window that never was active changes nothing", inputs: [.active("a", false)],
            effects: [], observing: false),
        Case(
            name: "one window of two leaving keeps observing",
            inputs: [.active("a", true), .active("b", true), .active("a", false)], effects: [], observing: true),
        Case(
            name: "an app's pause holds while a window becomes active",
            inputs: [.paused(true), .active("a", true)], effects: [.resumeWriter], observing: false),
        Case(
            name: "resumed by the app with a window active",
            inputs: [.paused(true), .active("a", true), .paused(false)],
            effects: [.observe(true)], observing: true),
        Case(
            name: "the active window discarded stops observing", inputs: [.active("a", true), .gone("a")],
            effects: [.observe(false)], observing: false),
        Case(
            name: "a window shown by a scene session is recorded",
            inputs: [.event(.windowShown(window: "a", sceneSession: "S1"))],
            effects: [.recordScene(window: "a", sceneSession: "S1")], observing: false),
        Case(
            name: "the same scene session again is not recorded twice",
            inputs: [
                .event(.windowShown(window: "a", sceneSession: "S1")),
                .event(.windowShown(window: "a", sceneSession: "S1")),
            ], effects: [], observing: false),
        Case(
            name: "a window shown by no scene session (macOS, watchOS) records nothing",
            inputs: [.event(.windowShown(window: "a", sceneSession: nil))], effects: [], observing: false),
        Case(
            name: "at launch, windows of scene sessions the system no longer keeps go",
            inputs: [.event(.sceneSessionsKept(["S1"]))], effects: [.keepOnlySceneSessions(["S1"])],
            observing: false),
        Case(
            name: "no scene session kept at all (a device restored from a backup) deletes nothing",
            inputs: [.event(.sceneSessionsKept([]))], effects: [], observing: false),
        Case(
            name: "the kept scene sessions count once a launch",
            inputs: [.event(.sceneSessionsKept(["S1"])), .event(.sceneSessionsKept(["S2"]))], effects: [],
            observing: false),
        Case(
            name: "scene sessions the system discards take their windows",
            inputs: [.event(.sceneSessionsDiscarded(["S1"]))], effects: [.discardSceneSessions(["S1"])],
            observing: false),
        Case(
            name: "a scene going to the background writes what is pending", inputs: [.event(.enteredBackground)],
            effects: [.writePending], observing: false),
        Case(
            name: "a quit writes what is pending and waits", inputs: [.event(.willTerminate)],
            effects: [.writePendingAndWait], observing: false),
    ]

    @Test(arguments: cases)
    func rules(_ test: Case) {
        var life = SceneLife()
        var last: [SceneLife.Effect] = []
        for input in test.inputs {
            switch input {
            case .event(let event): last = life.handle(event)
            case .active(let window, let active): last = life.windowActivity(window, isActive: active)
            case .paused(let paused): last = life.pausedByApp(paused)
            case .gone(let window): last = life.windowGone(window)
            }
        }
        #expect(last == test.effects)
        #expect(life.isObserving == test.observing)
    }

    /// Window ids are bytes: a composed and a decomposed "é" are two windows, each active on its own.
    @Test func windowsThatDifferOnlyInUnicodeFormAreActiveApart() {
        var life = SceneLife()
        _ = life.windowActivity("w\u{E9}", isActive: true)
        _ = life.windowActivity("we\u{301}", isActive: true)
        #expect(life.windowActivity("w\u{E9}", isActive: false) == [], "the other one is still active")
        #expect(life.isObserving)
    }
}
