import StateStoreBaselines
import Testing

#if os(Linux)
    import Glibc
#endif

/// The wake floor times each round's wake, and only where it can place its two threads.
struct WakeFloorTests {
    @Test(arguments: [false, true])
    func eachRoundHasTheTimeOfItsWake(_ otherCore: Bool) throws {
        #if os(Linux)
            guard sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 else {
                #expect(wakeFloor(otherCore: otherCore, rounds: 3, idleMicroseconds: 10, workMicroseconds: 1) == nil)
                return
            }
            let times = try #require(
                wakeFloor(otherCore: otherCore, rounds: 7, idleMicroseconds: 50, workMicroseconds: 5))
            #expect(times.count == 7)
            // A wake is a system call: more than nothing, and far less than a second even on a busy machine.
            #expect(times.allSatisfy { $0 > 0 && $0 < 1_000_000 }, "\(times)")
            #expect(wakeFloor(otherCore: otherCore, rounds: 0, idleMicroseconds: 10, workMicroseconds: 1) == [])
        #else
            #expect(wakeFloor(otherCore: otherCore, rounds: 3, idleMicroseconds: 10, workMicroseconds: 1) == nil)
        #endif
    }
}
