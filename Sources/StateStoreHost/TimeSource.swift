/// The session's clock (``WindowSession/Options/clock``) behind one concrete type: readings as
/// durations since its first one, as ``SizeClassGate`` takes them, and sleeping until one.
struct TimeSource: Sendable {
    let now: @Sendable () -> Duration
    let sleep: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { moment in try await clock.sleep(until: origin.advanced(by: moment), tolerance: nil) }
    }
}
