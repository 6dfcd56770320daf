import StateStore

/// What the system does to an app, told to its session (``WindowSession/handle(_:)``): the scenes
/// StateStoreSwiftUI's views forward, or an app's own `UIApplicationDelegate`, scene delegate or
/// `NSApplicationDelegate` does. A window's activity comes through
/// ``WindowModel/environmentChanged(sizeClass:isActive:)``.
///
/// Launching in the background (a refresh, a silent push) needs no event: a session observes
/// other writers only while one of its windows is active, and its writer holds a background
/// activity while it has work, from the open on.
public enum SceneEvent: Hashable, Sendable {
    /// A scene shows `window`. `sceneSession` is the system's id for the scene (on iOS, iPadOS and
    /// visionOS, `UISceneSession.persistentIdentifier`), recorded with the window so that the
    /// window goes when the system discards that scene; `nil` where there is none (macOS, watchOS).
    case windowShown(window: String, sceneSession: String?)
    /// A scene went to the background: what is pending (a size-class change settling, the focus)
    /// is written now, inside the writer's background activity.
    case enteredBackground
    /// At launch, the scene sessions the system still keeps (`UIApplication.openSessions`):
    /// windows a scene session no longer kept recorded as its own are deleted. An empty set (a
    /// device restored from a backup, a launch before any scene) deletes nothing.
    case sceneSessionsKept(Set<String>)
    /// The system discarded these scene sessions (`application(_:didDiscardSceneSessions:)`):
    /// the windows they recorded are deleted.
    case sceneSessionsDiscarded(Set<String>)
    /// The app is about to quit (macOS's will-terminate): everything pending is written before
    /// this returns, for at most two seconds.
    case willTerminate
}

/// The scene life of a session as a plain value: what the system did in, what the session does
/// about it out. Its rules:
/// - The session observes other writers only while one of its windows is active and the app has
///   not paused it: a launch in the background, or an app in the background, neither polls nor
///   wakes nor holds a lock.
/// - A window becoming active resumes the writer (work the system gave no time for runs again).
/// - When no window is active any more (the app leaving the foreground), and when a scene goes to
///   the background, what is pending is written; the first time in a launch, old windows are
///   pruned.
/// - Only windows a scene session recorded as its own are ever discarded with one, and nothing
///   when the system keeps no scene session at all.
package struct SceneLife: Sendable {
    /// What the session does.
    package enum Effect: Hashable, Sendable {
        /// Observe other writers, or stop.
        case observe(Bool)
        /// Run again what the system gave no time for, and send writes held back.
        case resumeWriter
        /// Write what is pending now.
        case writePending
        /// Write what is pending, and wait until it is written (the process is ending).
        case writePendingAndWait
        /// Record that `sceneSession` shows `window`.
        case recordScene(window: String, sceneSession: String)
        /// Delete the windows recorded by scene sessions other than these.
        case keepOnlySceneSessions(Set<String>)
        /// Delete the windows recorded by these scene sessions.
        case discardSceneSessions(Set<String>)
        /// Delete windows not written for the session's prune age.
        case prune
    }

    /// Whether the app paused observing.
    package private(set) var isPausedByApp = false
    private var activeWindows: Set<WindowKey> = []
    private var recorded: Set<[UInt8]> = []
    private var keptChecked = false
    private var pruned = false

    package init() {}

    /// Whether the session observes other writers now.
    package var isObserving: Bool { !isPausedByApp && !activeWindows.isEmpty }

    /// A window's scene became active or inactive.
    package mutating func windowActivity(_ window: String, isActive: Bool) -> [Effect] {
        let wasObserving = isObserving
        let key = WindowKey(window)
        if isActive {
            activeWindows.insert(key)
        } else {
            guard activeWindows.remove(key) != nil else { return [] }
        }
        var effects: [Effect] = isActive ? [.resumeWriter] : []
        if isObserving != wasObserving { effects.append(.observe(isObserving)) }
        if !isActive && activeWindows.isEmpty {
            effects.append(.writePending)
            if !pruned {
                pruned = true
                effects.append(.prune)
            }
        }
        return effects
    }

    /// The window's model is gone (discarded): it is active no more.
    package mutating func windowGone(_ window: String) -> [Effect] {
        let wasObserving = isObserving
        activeWindows.remove(WindowKey(window))
        return isObserving != wasObserving ? [.observe(isObserving)] : []
    }

    /// The app paused observing, or stopped pausing it.
    package mutating func pausedByApp(_ paused: Bool) -> [Effect] {
        let wasObserving = isObserving
        isPausedByApp = paused
        return isObserving != wasObserving ? [.observe(isObserving)] : []
    }

    /// What the system did.
    package mutating func handle(_ event: SceneEvent) -> [Effect] {
        switch event {
        case .windowShown(let window, let sceneSession):
            guard let sceneSession else { return [] }
            guard recorded.insert(Array(window.utf8) + [0] + Array(sceneSession.utf8)).inserted else { return [] }
            return [.recordScene(window: window, sceneSession: sceneSession)]
        case .enteredBackground:
            return [.writePending]
        case .sceneSessionsKept(let kept):
            guard !kept.isEmpty, !keptChecked else { return [] }
            keptChecked = true
            return [.keepOnlySceneSessions(kept)]
        case .sceneSessionsDiscarded(let discarded):
            return discarded.isEmpty ? [] : [.discardSceneSessions(discarded)]
        case .willTerminate:
            return [.writePendingAndWait]
        }
    }
}

extension WindowSession {
    /// Tells the session what the system did: a scene showing a window, the app going to the
    /// background, scenes the system keeps or discarded, a quit. StateStoreSwiftUI's views tell it
    /// all; an app of its own views tells it from its delegates.
    public func handle(_ event: SceneEvent) {
        apply(life.handle(event))
    }

    /// Carries out what the scene life decided.
    func apply(_ effects: [SceneLife.Effect]) {
        for effect in effects {
            switch effect {
            case .observe(let observe):
                if observe { feedLoop?.resume() } else { feedLoop?.pause() }
            case .resumeWriter:
                writer.resume()
                for model in models.values { model.retryHeldWrites() }
            case .writePending:
                writePending()
            case .writePendingAndWait:
                writePendingAndWait(timeout: .seconds(2))
            case .recordScene(let window, let sceneSession):
                recordScene(sceneSession, window: window)
            case .keepOnlySceneSessions(let kept):
                discardScenes { !kept.contains($0) }
            case .discardSceneSessions(let discarded):
                discardScenes { discarded.contains($0) }
            case .prune:
                pruneOnce()
            }
        }
    }

    /// Writes what is pending now: held work tried again, size-class changes due committed, held
    /// writes sent, the focus recorded.
    func writePending() {
        writer.resume()
        for model in models.values { model.prepareForFlush() }
        recordFocus()
    }

    /// Writes what is pending and waits, at most `timeout`, until the writer has done it: for a
    /// process about to end, whose main actor will not run the writes' ends. A write already in
    /// flight is followed at once by the rest (each model's final write).
    func writePendingAndWait(timeout: Duration) {
        writer.resume()
        for model in models.values {
            model.prepareForFlush()
            model.sendFinalWrite()
        }
        recordFocus()
        _ = writer.drain(timeout: timeout)
    }
}
