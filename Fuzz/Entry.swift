// The libFuzzer entry point of `statestore-fuzz`, built and run by `Scripts/fuzz.sh`: one binary
// for the four targets, chosen by `FUZZ_TARGET` (route, import, navigation-path, arguments). The
// checks themselves are `Tests/ReliabilityTests/FuzzChecks.swift`, shared with the tests that
// replay the corpora (`Fuzz/corpus/TARGET`) and past findings (`Fuzz/regressions/TARGET`).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let fuzzCheck: @Sendable ([UInt8]) -> String? = {
    let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzChecks.targets.first(where: { $0.name == name }) else {
        fatalError("FUZZ_TARGET must be one of: \(FuzzChecks.targets.map(\.name).joined(separator: ", "))")
    }
    return target.check
}()

/// libFuzzer's entry point: one input, checked by the target `FUZZ_TARGET` names; a finding stops
/// the process.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    if let problem = fuzzCheck(bytes) {
        fatalError("finding: \(problem)")
    }
    return 0
}
