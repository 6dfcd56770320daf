#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// File descriptors a store leaves free for the rest of its process: a store never
/// opens a connection, a change feed or its watch when that would leave fewer than
/// ``StateStore/WindowStore/Options/descriptorReserve`` descriptors below the process's limit
/// (`RLIMIT_NOFILE`); it fails with an I/O error that says so instead.
///
/// A process that has used its last descriptor is one libdispatch can kill: on Linux its worker
/// monitor opens `/proc/self/task/TID/stat` for each worker thread while work waits for one, and
/// traps (SIGILL) when that open fails. A host that took the last descriptors for its store,
/// its feed's connection and watch, died that way a second later; with the reserve it reports
/// the shortage (`lastError`) and goes on.
package enum DescriptorReserve {
    /// Free descriptors below the process's limit, counted in one `poll(2)` of every descriptor
    /// number (a closed one answers `POLLNVAL`); `nil` when the limit is too high to count
    /// cheaply (above 65,536: taken as plenty) or cannot be read.
    package static func free() -> Int? {
        let limit = sysconf(Int32(_SC_OPEN_MAX))
        guard limit > 0, limit <= 65_536 else { return nil }
        return free(in: 0..<Int32(limit))
    }

    /// Fails unless `needed` descriptors can be opened for `what` with `reserve` left free.
    ///
    /// Descriptors are given lowest first, so the numbers just below the limit are the last to be
    /// taken: when enough of those are free, that settles it in one small `poll(2)`, and only a
    /// process near its limit pays for counting them all (a Linux limit of 20,000 would otherwise
    /// cost a millisecond a store).
    package static func check(
        _ needed: Int, for what: @autoclosure () -> String, reserve: Int, code: SQLiteResultCode = .ioErr
    ) throws(StateStoreError) {
        guard reserve > 0 else { return }
        let wanted = needed + reserve
        let limit = sysconf(Int32(_SC_OPEN_MAX))
        guard limit > 0 else { return }
        let top = Int32(limit)
        let window = min(top, Int32(wanted * 2))
        if let atTop = free(in: (top - window)..<top), atTop >= wanted { return }
        guard let free = free(), free < wanted else { return }
        throw .io(
            SQLiteFailure(
                code: code,
                message: "too few file descriptors to \(what()): \(free) of the process's limit of \(limit) are "
                    + "free, and StateStore needs \(needed) and leaves \(reserve) for the rest of the process; raise "
                    + "the limit (ulimit -n, RLIMIT_NOFILE) or close files"))
    }

    /// How many of the descriptor numbers in `range` are not open; `nil` when `poll(2)` fails.
    private static func free(in range: Range<Int32>) -> Int? {
        var descriptors = range.map { pollfd(fd: $0, events: 0, revents: 0) }
        guard poll(&descriptors, nfds_t(descriptors.count), 0) >= 0 else { return nil }
        return descriptors.count { $0.revents & Int16(POLLNVAL) != 0 }
    }
}
