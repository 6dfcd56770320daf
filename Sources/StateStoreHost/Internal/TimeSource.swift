/// The session's clock (``WindowSession/Options/clock``) behind one concrete type: readings as
/// durations since its first one, as ``SizeClassGate`` takes them, and sleeping until one.
struct TimeSource: Sendable {
    let now: @Sendable () -> Duration
    let sleep: @Sendable (Duration) async throws -> Void

    /// The latest moment a sleep waits for: a clock's instant cannot reach `Duration`'s range (a
    /// settle of `.seconds(Int64.max)` would trap), and nothing here waits a century.
    static let farthest = Duration.seconds(100 * 365 * 24 * 3600)

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { moment in
            try await clock.sleep(until: origin.advanced(by: min(max(moment, .zero), Self.farthest)), tolerance: nil)
        }
    }
}
