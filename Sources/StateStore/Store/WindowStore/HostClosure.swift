/// Runs a host's closure inside the store's own work, which is typed to throw only
/// ``StateStoreError`` and rolls back on any: an error of the host's own is parked here while a
/// stand-in unwinds the store's work, then handed back to the caller unchanged.
///
/// One instance serves one call of the API, on one thread.
final class HostClosure {
    private var parked: (any Error)?

    private init() {}

    /// Runs `work`, giving it the means to call the host's closures; rethrows what a closure threw
    /// as it was, and the store's own failures as they are.
    static func run<T>(_ work: (HostClosure) throws(StateStoreError) -> T) throws -> T {
        let host = HostClosure()
        do {
            return try work(host)
        } catch {
            throw host.parked ?? error
        }
    }

    /// Calls a host's closure. A ``StateStoreError`` it throws goes on as the store's own would
    /// (the host's code may call the store's value API, such as `pop`); any other is parked.
    func call<R>(_ body: () throws -> R) throws(StateStoreError) -> R {
        do {
            return try body()
        } catch let error as StateStoreError {
            throw error
        } catch {
            parked = error
            throw .invalidInput("stopped by an error of the caller's closure: \(error)")
        }
    }
}
