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

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// ` Did you mean 'x'?`, or nothing.
    static func sentence(for word: String, among candidates: [String]) -> String {
        nearest(to: word, among: candidates).map { " Did you mean '\($0)'?" } ?? ""
    }
}

extension String {
    fileprivate var trimmingDashes: Substring { self.drop { $0 == "-" } }
}
