import StateStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The file descriptors a store leaves free for the rest of its process, so that a host short of
/// them reports it rather than dying in libdispatch's worker monitor; the count itself, and the
/// process-wide behaviour under a lowered limit, are `ReliabilityTests.DescriptorTests` (in a child
/// process: this one's other tests open and close descriptors while it counts).
struct DescriptorReserveTests {
    @Test func aReserveThatCannotBeKeptIsAnIOErrorThatSaysWhy() throws {
        #expect(throws: Never.self) { try DescriptorReserve.check(3, for: "open x", reserve: 8) }
        #expect(throws: Never.self) { try DescriptorReserve.check(1_000_000, for: "open x", reserve: 0) }
        let limit = sysconf(Int32(_SC_OPEN_MAX))
        guard limit <= 65_536 else { return }
        do {
            try DescriptorReserve.check(3, for: "open x", reserve: limit, code: .cantOpen)
            Issue.record("no error")
        } catch .io(let failure) {
            #expect(failure.code == .cantOpen)
            #expect(failure.message.hasPrefix("too few file descriptors to open x: "), "\(failure.message)")
            #expect(failure.message.contains("of the process's limit of \(limit) are free"))
            #expect(failure.message.contains("raise the limit (ulimit -n, RLIMIT_NOFILE)"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func aStoreAndAFeedRefuseToTakeTheReserve() throws {
        let limit = sysconf(Int32(_SC_OPEN_MAX))
        guard limit <= 65_536 else { return }
        let folder = TemporaryFolder()
        var options = WindowStore.Options()
        options.descriptorReserve = limit
        #expect(throws: StateStoreError.self) { try WindowStore(path: folder.file("a.db"), options: options) }
        #expect(!exists(folder.file("a.db")), "refused before anything was created")
        // A feed of a store opened with room, asked to keep everything free.
        let store = try WindowStore(path: folder.file("b.db"))
        var feedOptions = options
        feedOptions.createIfMissing = false
        #expect(throws: StateStoreError.self) {
            try WindowStore.changeFeed(path: folder.file("b.db"), options: feedOptions)
        }
        _ = store
    }
}
