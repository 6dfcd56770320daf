import StateStoreBaselines
import Testing

/// statebench's rounds are balanced: over a cycle every contender runs in every place, and right
/// after every other contender, equally often.
struct RoundOrderTests {
    @Test(arguments: 1...7)
    func everyPlaceAndEveryNeighbourComesEquallyOften(_ count: Int) {
        let cycle = RoundOrder.cycle(contenders: count)
        var places = [[Int]](repeating: [Int](repeating: 0, count: count), count: count)
        var follows = [[Int]](repeating: [Int](repeating: 0, count: count), count: count)
        for round in 0..<cycle {
            let order = RoundOrder.order(contenders: count, round: round)
            #expect(order.sorted() == Array(0..<count), "round \(round) runs each contender once: \(order)")
            for (place, contender) in order.enumerated() { places[contender][place] += 1 }
            for (before, after) in zip(order, order.dropFirst()) { follows[before][after] += 1 }
        }
        #expect(places.allSatisfy { $0.allSatisfy { $0 == cycle / count } }, "places: \(places)")
        let neighbours = (0..<count).flatMap { a in (0..<count).filter { $0 != a }.map { follows[a][$0] } }
        #expect(Set(neighbours).count <= 1, "neighbours: \(follows)")
        #expect(RoundOrder.order(contenders: count, round: cycle + 1) == RoundOrder.order(contenders: count, round: 1))
    }

    /// The plain rotation this replaced kept every contender behind the same one.
    @Test func noContenderAlwaysFollowsTheSameOne() {
        let behindFirst = Set(
            (0..<4).map { round -> Int in
                let order = RoundOrder.order(contenders: 4, round: round)
                return order.firstIndex(of: 0).map { $0 == 0 ? -1 : order[$0 - 1] } ?? -1
            })
        #expect(behindFirst.count > 1)
    }
}
