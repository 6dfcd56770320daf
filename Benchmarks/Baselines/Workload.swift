import StateStore

/// The windows a benchmark works on and the random operations it runs, the same for every
/// implementation: ids and contents are derived from a window's index, sequences from a seed.
package struct Workload: Sendable {
    /// Windows per session, as an iPad app with a few windows open.
    package static let windowsPerSession = 4
    /// How many different window contents the operations write.
    package static let contentCount = 16
    /// Changes whenever the windows or the fixtures built from them change, so that statebench
    /// does not read fixtures it kept from an older version.
    package static let fixtureVersion = 1

    package let windowCount: Int
    package let contents: [WindowContent]

    package init(windowCount: Int) {
        precondition(windowCount >= 1)
        self.windowCount = windowCount
        contents = (0..<Self.contentCount).map(WindowContent.init(variant:))
    }

    /// The session id of window `index`, such as `mail-000042`.
    package func session(_ index: Int) -> String {
        "mail-" + Self.padded(index / Self.windowsPerSession, 6)
    }

    /// The window id of window `index` within its session, such as `window-2`.
    package func window(_ index: Int) -> String {
        "window-" + String(index % Self.windowsPerSession)
    }

    /// The content window `index` holds when a fixture is built.
    package func initialContent(_ index: Int) -> Int {
        (index &* 7 &+ index / 5) % Self.contentCount
    }

    /// `count` saves of random contents into random windows.
    package func saves(count: Int, seed: UInt64) -> [SaveOperation] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            SaveOperation(
                window: Int(random.next() % UInt64(windowCount)),
                content: Int(random.next() % UInt64(Self.contentCount)))
        }
    }

    /// `count` restores of random windows into random size classes.
    package func restores(count: Int, seed: UInt64) -> [RestoreOperation] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            RestoreOperation(
                window: Int(random.next() % UInt64(windowCount)),
                sizeClass: SizeClass.allCases[Int(random.next() % UInt64(SizeClass.allCases.count))])
        }
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// Write `content` (an index into ``Workload/contents``) as the next state of window `window`.
package struct SaveOperation: Hashable, Sendable {
    package var window: Int
    package var content: Int
}

/// Read window `window` and resolve it for `sizeClass`.
package struct RestoreOperation: Hashable, Sendable {
    package var window: Int
    package var sizeClass: SizeClass
}

/// What a mail app's window shows: a path of three routes (account, folder, thread) and a
/// presented message.
package struct WindowContent: Sendable {
    package var sizeClass: SizeClass
    package var path: [Route]
    package var item: Route?
    package var itemPath: [Route]
    package var policy: SizeChangePolicy

    init(variant: Int) {
        let accounts = ["work", "home", "school"]
        let folders = ["inbox", "archive", "sent", "drafts", "flagged"]
        let thread = 48_000 + variant * 37
        sizeClass = SizeClass.allCases[variant % SizeClass.allCases.count]
        path = [
            try! Route(type: "MailApp.Account", json: "\"\(accounts[variant % accounts.count])\""),
            try! Route(type: "MailApp.Folder", json: "\"\(folders[variant % folders.count])\""),
            try! Route(type: "MailApp.Thread", json: #"{"id":\#(thread),"unread":\#(variant % 2 == 0)}"#),
        ]
        item = try! Route(type: "MailApp.Message", json: #"{"id":\#(thread * 10 + variant),"thread":\#(thread)}"#)
        itemPath = []
        policy = variant % 4 == 3 ? .dismiss : .migrate
    }

    /// The columns WindowStore writes for this content, as its JSONWriter writes them.
    package var columnTexts: (sizeClass: String, path: String, item: String?, itemPath: String, policy: String) {
        func array(_ routes: [Route]) -> String {
            var writer = JSONWriter()
            routes.write(to: &writer)
            return writer.text
        }
        var item: String?
        if let route = self.item {
            var writer = JSONWriter()
            route.write(to: &writer)
            item = writer.text
        }
        return (sizeClass.rawValue, array(path), item, array(itemPath), policy.rawValue)
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64), so that every run
/// and every implementation draws the same sequence.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
