/// The order contenders run in, round by round: a balanced Latin square (Williams's design). Over
/// ``cycle(contenders:)`` rounds each contender runs in each place equally often and runs right
/// after each other contender equally often, so that none always follows the same one. Running
/// after a contender that walks 100,000 files, or right after one that warmed the same database,
/// changes a timing: a plain rotation keeps those neighbours fixed, and biases the ratios.
package enum RoundOrder {
    /// The rounds after which the design repeats: `contenders`, or twice that when it is odd.
    package static func cycle(contenders: Int) -> Int {
        contenders % 2 == 0 ? contenders : 2 * contenders
    }

    /// The contenders' indices in the order they run in round `round` (from 0; the design repeats
    /// every ``cycle(contenders:)`` rounds).
    package static func order(contenders count: Int, round: Int) -> [Int] {
        precondition(count >= 1 && round >= 0)
        // The first row: 0, 1, n-1, 2, n-2, …; row r adds r to each, modulo n. For an odd n the
        // rows of the first square, reversed, make the second.
        var first = [0]
        var (low, high) = (1, count - 1)
        while first.count < count {
            if first.count % 2 == 1 {
                first.append(low)
                low += 1
            } else {
                first.append(high)
                high -= 1
            }
        }
        let step = round % cycle(contenders: count)
        let row = first.map { ($0 + step) % count }
        return step < count ? row : row.reversed()
    }
}
