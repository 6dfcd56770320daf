import Foundation
import StateStore
import StateStoreBaselines
import StateStoreHost

// The launch section: what a host does when it starts — open a store of 1,000 windows
// and restore one session's 4 windows into a size class — by WindowStore, by the C baseline doing
// the same opens, pragmas and selects, and by StateStoreHost (a WindowSession and 4 WindowModels).

extension Bench {
    /// Each launch opens the file, restores a random session into a random size class and closes
    /// it again (the store, the session and their connections are released at the end of each).
    @MainActor
    func launch() async throws {
        let workload = Workload(windowCount: 1000)
        let path = try store("launch-1k.db", workload)
        let (rounds, count) = options.quick ? (5, 40) : (11, 150)
        var random = SplitMix64(seed: 3)
        let sessions = workload.windowCount / Workload.windowsPerSession
        let launches = (0..<(count * (rounds + 1))).map { _ in
            (
                session: workload.session(Int(random.next() % UInt64(sessions)) * Workload.windowsPerSession),
                sizeClass: SizeClass.allCases[Int(random.next() % UInt64(SizeClass.allCases.count))]
            )
        }
        let windows = (0..<Workload.windowsPerSession).map(workload.window)
        let raw = RawLaunch(path: path, launches: launches)

        func library(_ index: Int) throws -> (windows: Int, revisions: Int, routes: Int) {
            let launch = launches[index]
            let restorations = try WindowStore(path: path).restore(session: launch.session, into: launch.sizeClass)
            return restorations.reduce(into: (0, 0, 0)) { total, restoration in
                total.windows += 1
                total.revisions += restoration.saved.revision
                total.routes += restoration.layout.stack.count + (restoration.layout.sheet?.count ?? 0)
            }
        }
        func host(_ index: Int) async throws -> (windows: Int, revisions: Int, routes: Int) {
            let launch = launches[index]
            let session = try await WindowSession.open(path: path, session: launch.session)
            var total = (windows: 0, revisions: 0, routes: 0)
            for id in windows {
                let model = session.window(id, as: Route.self)
                model.environmentChanged(sizeClass: launch.sizeClass, isActive: true)
                if let error = model.lastError { throw StatebenchError("launch: window \(id): \(error)") }
                let layout = model.layout
                total.windows += model.revision == 0 ? 0 : 1
                total.revisions += model.revision
                total.routes += layout.stack.count + (layout.sheet?.count ?? 0)
            }
            return total
        }

        if options.comparesAll {
            for index in 0..<20 {
                let (ours, theirs, hosted) = (try library(index), try raw.launch(index), try await host(index))
                guard ours.windows == Workload.windowsPerSession, ours.windows == theirs.windows,
                    ours.revisions == theirs.revisions, hosted == ours
                else {
                    throw StatebenchError(
                        "launch \(index): WindowStore restored \(ours), raw \(theirs), StateStoreHost \(hosted)")
                }
            }
        }

        progress("launch: \(rounds) rounds of \(count) launches (open a 1,000-window store, restore 4 windows)")
        func timed(_ body: @escaping @MainActor (Int) async throws -> Void) -> @MainActor (Int) async throws -> Double {
            { round in
                let start = monotonicNanoseconds()
                for index in (round * count)..<((round + 1) * count) { try await body(index) }
                return Double(monotonicNanoseconds() - start) / Double(count)
            }
        }
        let samples = try await measureInterleaved(
            [
                ("StateStore", timed { blackHole(try library($0).revisions) }),
                ("raw", timed { blackHole(try raw.launch($0).revisions) }),
                ("StateStoreHost", timed { blackHole(try await host($0).revisions) }),
            ], rounds: rounds)
        let figure = record("launch (open 1k windows, restore 4)", .microsecondsPerOperation, samples)
        measured["launch"] = figure.subjectOverRaw
        let hosted = record(
            "launch, WindowSession + 4 WindowModels", .microsecondsPerOperation, samples,
            names: ("StateStoreHost", "raw", ""), note: "StateStoreHost's column is in StateStore's")
        measured["host launch"] = hosted.subjectOverRaw
    }

    /// The goal for a launch.
    var launchTargets: [Target] {
        [
            Target(
                figure: "launch (open, restore 4 of 1k windows) vs raw", measured: measured["launch"], unit: "×",
                bound: .atMost, limit: 1.5),
            // A host's launch, its session and 4 live windows, against raw's.
            Target(
                figure: "launch, WindowSession + 4 WindowModels vs raw", measured: measured["host launch"],
                unit: "×", bound: .atMost, limit: 2.5),
        ]
    }

    /// ``measure(_:rounds:)`` for contenders that may suspend: a warm-up batch each, then rounds
    /// in rotating order, on the main actor.
    @MainActor
    func measureInterleaved(
        _ contenders: [(name: String, batch: @MainActor (Int) async throws -> Double)], rounds: Int
    ) async throws -> Samples {
        let contenders = contenders.filter { options.measures($0.name) }
        for contender in contenders { _ = try await contender.batch(0) }
        var samples = Samples()
        for round in 1...rounds {
            for offset in contenders.indices {
                let contender = contenders[(offset + round) % contenders.count]
                samples.values[contender.name, default: []].append(try await contender.batch(round))
            }
        }
        return samples
    }
}
