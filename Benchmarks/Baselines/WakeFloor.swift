import StateStoreRawSQLite

/// The floor of a verb that hands its write to another thread (`raw_wake_floor`, in C): a thread
/// on core 0 idles `idleMicroseconds`, then wakes one sleeping on a futex, on core 1 with
/// `otherCore` (else on core 0), which then works `workMicroseconds`; each wake's own time, in
/// microseconds, `rounds` of them. `nil` where threads cannot be placed on cores (not Linux, or
/// one core).
package func wakeFloor(otherCore: Bool, rounds: Int, idleMicroseconds: Int, workMicroseconds: Int) -> [Double]? {
    var times = [Double](repeating: 0, count: rounds)
    let code = raw_wake_floor(
        otherCore ? 1 : 0, Int32(rounds), Int32(idleMicroseconds), Int32(workMicroseconds), &times)
    return code == 0 ? times : nil
}
