#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a mutex, for the one shared mutable thing a store or a feed has: its
/// connection. It knows whether the calling thread holds it already, so that a store called
/// from inside a closure it is running says so instead of waiting for itself forever.
///
/// A `pthread_mutex_t` (iOS 17 and macOS 14 have it; `Synchronization.Mutex` needs iOS 18),
/// recursive, so that asking from the holding thread returns at once; the flag that says it is
/// held is read and written only with the mutex held.
final class Lock<Value>: @unchecked Sendable {
    // Allocated once and never moved: a pthread mutex must keep its address.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Guarded by the mutex, so the run-time exclusivity check (a tenth of a microsecond on every
    // call of the store) has nothing to find.
    @exclusivity(unchecked) private var value: Value
    private var isHeld = false

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, waiting while another thread holds it. When the calling thread
    /// holds it already (a call from inside `body`), `body` does not run: `reentered`'s error is
    /// thrown instead.
    func withLock<T, E: Error>(
        reentered: () -> E, _ body: (inout Value) throws(E) -> T
    ) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !isHeld else { throw reentered() }
        isHeld = true
        defer { isHeld = false }
        return try body(&value)
    }

    /// Runs `body` with the value once no other thread holds it, waiting at most `milliseconds`
    /// by the clock (tried again every 100 µs: Darwin has no `pthread_mutex_timedlock`); `nil` if
    /// it stayed held, or the calling thread holds it.
    func withLock<T, E: Error>(waitingAtMost milliseconds: Int, _ body: (inout Value) throws(E) -> T) throws(E) -> T? {
        // Measured on the clock: a 100 µs sleep can take twice that, so counting the sleeps would
        // wait up to twice as long as asked.
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(milliseconds)
        while pthread_mutex_trylock(mutex) != 0 {
            guard clock.now < deadline else { return nil }
            var pause = timespec(tv_sec: 0, tv_nsec: 100_000)
            nanosleep(&pause, nil)
        }
        defer { pthread_mutex_unlock(mutex) }
        guard !isHeld else { return nil }
        isHeld = true
        defer { isHeld = false }
        return try body(&value)
    }

    /// Runs `body` with the value, waiting while another thread holds it, for a caller whose `body`
    /// never asks for this lock again (a feed's poll runs no closure of anyone else's).
    func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        precondition(!isHeld, "a lock was asked for again from inside its own body")
        isHeld = true
        defer { isHeld = false }
        return try body(&value)
    }
}
