/// The nearest known word to a misspelt one, for `Did you mean '…'?`.
enum Suggestion {
    /// The candidate `word` is a prefix of when there is exactly one, else the closest by edit
    /// distance when it is close enough to be a plausible typo; `nil` otherwise.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        guard !word.isEmpty else { return nil }
        let prefixed = candidates.filter { $0.hasPrefix(word) }
        if prefixed.count == 1 { return prefixed[0] }
        let target = Array(word.unicodeScalars)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.unicodeScalars))
            if distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        guard let best else { return nil }
        // A third of the longer word, at least 1 and at most 3 edits, ignoring the dashes.
        let length = max(word.trimmingDashes.count, best.candidate.trimmingDashes.count)
        return best.distance <= min(3, max(1, length / 3)) ? best.candidate : nil
    }

    /// Edit distance counting insertions, deletions, substitutions and swaps of two neighbours
    /// (`lsit` is one edit from `list`): the optimal string alignment distance.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// ` Did you mean 'x'?`, or nothing.
    static func sentence(for word: String, among candidates: [String]) -> String {
        nearest(to: word, among: candidates).map { " Did you mean '\($0)'?" } ?? ""
    }
}

extension String {
    fileprivate var trimmingDashes: Substring { self.drop { $0 == "-" } }
}
