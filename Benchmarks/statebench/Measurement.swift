import StateStoreBaselines

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Monotonic time in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func median(_ values: [Double]) -> Double {
    precondition(!values.isEmpty)
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// One contender of a section: a name and a batch that runs round `round`'s share of the
/// operations and returns nanoseconds per operation.
struct Contender {
    var name: String
    var batch: (_ round: Int) throws -> Double
}

/// Runs a warm-up batch of each contender (round 0, not recorded), then `rounds` rounds of one
/// batch each, in the balanced order of ``RoundOrder``: no contender always runs first, or always
/// right after the same one. Returns each contender's nanoseconds per operation, one sample a round.
func measure(_ contenders: [Contender], rounds: Int) throws -> Samples {
    // `--contender` may have left none of a section's contenders to run.
    guard !contenders.isEmpty else { return Samples() }
    for contender in contenders { _ = try contender.batch(0) }
    var samples = Samples()
    for round in 1...rounds {
        for index in RoundOrder.order(contenders: contenders.count, round: round - 1) {
            let contender = contenders[index]
            samples.values[contender.name, default: []].append(try contender.batch(round))
        }
    }
    return samples
}

/// Nanoseconds per operation by contender, one sample per round, rounds aligned.
struct Samples {
    var values: [String: [Double]] = [:]

    func median(_ name: String) -> Double? {
        values[name].flatMap { $0.isEmpty ? nil : statebench.median($0) }
    }

    /// The median over rounds of `numerator`'s time divided by `denominator`'s in the same
    /// round: on a shared machine, load that slows one round slows both.
    func ratio(_ numerator: String, _ denominator: String) -> Double? {
        guard let a = values[numerator], let b = values[denominator], !a.isEmpty, a.count == b.count else {
            return nil
        }
        return statebench.median(zip(a, b).map { $0 / $1 })
    }
}

/// Times `operations` calls of `body` and returns nanoseconds per call.
func timePerOperation(_ operations: Range<Int>, _ body: (Int) throws -> Void) rethrows -> Double {
    let start = monotonicNanoseconds()
    for index in operations { try body(index) }
    return Double(monotonicNanoseconds() - start) / Double(max(1, operations.count))
}

/// Keeps a value alive so that the work producing it cannot be optimised away.
@inline(never)
func blackHole(_ value: Int) {
    if value == 0x7FFF_FFFF_FFFF_FFF1 { print("") }
}
