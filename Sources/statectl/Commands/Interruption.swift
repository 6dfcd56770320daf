import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Work that leaves files behind if the process dies midway (a backup's partial copy, hundreds of
/// megabytes for a large store), run with SIGINT, SIGTERM and SIGHUP held back: a thread of its
/// own waits for them (`sigwait`), and one that comes interrupts the store's running statement,
/// so the library removes what it made; then the process says so and ends by that signal, as it
/// would have without the wait.
enum Interruption {
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    static func run<T>(interrupting store: WindowStore, _ context: Context, _ body: () throws -> T) throws -> T {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &set, &previous)
        // The thread reaches the store only through this, until the work is over: a store it kept
        // would never close, and its -wal and -shm would outlive the process.
        let state = SignalState(store)
        let waiting = set
        do {
            try startThread {
                var wanted = waiting
                var received: Int32 = 0
                guard sigwait(&wanted, &received) == 0 else { return }
                state.received(received)
                // Again until the work is over: a statement that had not begun when the first
                // interrupt came would run to its end.
                while let store = state.store {
                    store.interrupt()
                    usleep(10_000)
                }
            }
        } catch {
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            return try body()  // no thread: the signals work as they did
        }
        let result = Result { try body() }
        state.end()
        if let caught = state.signal {
            let name = caught == SIGINT ? "SIGINT" : caught == SIGTERM ? "SIGTERM" : "SIGHUP"
            context.message("Error: interrupted by \(name); the partial copy was removed")
            context.output.flush()
            context.errors.flush()
            signal(caught, SIG_DFL)
            var one = sigset_t()
            sigemptyset(&one)
            sigaddset(&one, caught)
            pthread_sigmask(SIG_UNBLOCK, &one, nil)
            raise(caught)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return try result.get()
    }
}

/// The signal received, if any, and the store while the work is not over: shared by the waiting
/// thread and the one doing the work.
private final class SignalState: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var received: Int32?
    private var working: WindowStore?

    init(_ store: WindowStore) {
        working = store
        pthread_mutex_init(&mutex, nil)
    }
    deinit { pthread_mutex_destroy(&mutex) }

    var signal: Int32? { locked { received } }
    /// The store to interrupt; `nil` once the work is over.
    var store: WindowStore? { locked { working } }
    func received(_ signal: Int32) { locked { received = signal } }
    func end() { locked { working = nil } }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}

/// Runs `body` on a new detached thread.
private func startThread(_ body: @escaping @Sendable () -> Void) throws {
    let code = startDetachedThread(body)
    guard code == 0 else {
        throw CommandFailure(status: ExitStatus.ioError, message: "cannot start a thread: \(code)")
    }
}
