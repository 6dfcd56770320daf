import StateStore

extension Command {
    static let demo = Command(
        name: "demo",
        abstract: "Show the adaptive rule on a sample iPad mail app.",
        discussion: """
            Saves two windows of a session 'demo' (one regular, one compact), then restores each \
            in both size classes: the same saved state is a sheet in one class and a push in the \
            other. Uses a temporary database, removed afterwards; with --db, writes there instead \
            (replacing any session 'demo') so you can explore it with the other commands.
            """,
        usesDefaultDatabase: false,
        run: DemoCommand.run)
}

enum DemoCommand {
    static let session = "demo"

    /// A window of the sample and the `set` mutations that build it, shown and applied alike.
    struct SampleWindow {
        let window: String
        let story: String
        let mutations: [(mutation: SetCommand.MutationOption, text: String?)]
    }

    static let sample = [
        SampleWindow(
            window: "main", story: "full screen: a thread pushed over the inbox",
            mutations: [
                (SetCommand.sizeClass, "regular"),
                (SetCommand.push, #"Folder:"inbox""#),
                (SetCommand.present, #"Thread:{"id":42}"#),
            ]),
        SampleWindow(
            window: "compose", story: "narrow split view: a compose sheet, an attachment pushed inside it",
            mutations: [
                (SetCommand.sizeClass, "compact"),
                (SetCommand.push, #"Folder:"inbox""#),
                (SetCommand.present, #"Compose:{"draft":7}"#),
                (SetCommand.push, #"Attachment:"photo.jpg""#),
            ]),
    ]

    /// What the demo found for one window: the state saved, then its restorations into the
    /// saved size class and into the other mode's.
    struct Outcome {
        let sample: SampleWindow
        let saved: WindowState
        let restorations: [Restoration]
    }

    static func run(_ invocation: Invocation, _ context: Context) throws {
        if let path = invocation.value(Option.database)?.path {
            let outcomes = try play(in: try invocation.openOrCreateStore(context))
            context.hasWritten = true
            render(outcomes, path: path, context)
        } else {
            let outcomes = try withTemporaryFolder("statectl-demo-") { folder in
                try play(in: try WindowStore(path: folder + "/state.db"))
            }
            render(outcomes, path: nil, context)
        }
    }

    /// All the store work, done before anything is printed. The sample replaces session 'demo'
    /// in one transaction: a failure leaves any earlier one as it was.
    private static func play(in store: WindowStore) throws -> [Outcome] {
        var states: [WindowState] = []
        for sample in sample {
            var state = WindowState(session: session, window: sample.window)
            for (mutation, text) in sample.mutations {
                // Read as the parser reads a command line, so what is shown is what is applied.
                let occurrence = try Invocation.Occurrence(option: mutation.option, text: text)
                try mutation.change(occurrence).apply(to: &state)
            }
            states.append(state)
        }
        let stored = try store.replaceSession(session, with: states)
        return try zip(sample, stored).map { sample, saved in
            let other: SizeClass = saved.sizeClass == .regular ? .compact : .regular
            let restorations = try [saved.sizeClass, other].compactMap { sizeClass throws(StateStoreError) in
                try store.restore(session: session, window: sample.window, into: sizeClass)
            }
            return Outcome(sample: sample, saved: saved, restorations: restorations)
        }
    }

    private static func render(_ outcomes: [Outcome], path: String?, _ context: Context) {
        let out = context.output
        let style = context.style
        let place = path.map { "In \($0), replacing any session '\(session)'." } ?? "In a temporary database."
        out.write(style.bold("statectl demo") + ": the adaptive rule on a sample iPad mail app.\n\(place)\n\n")

        out.write(style.bold("1. The app saves two windows:") + " what the user navigated to, not how it looked.\n")
        for outcome in outcomes {
            let sample = outcome.sample
            out.write("\n  # \(sample.window), \(sample.story)\n")
            let mutations = sample.mutations.map { mutation, text in
                mutation.option.name + (text.map { " " + shellQuoted($0) } ?? "")
            }
            out.write(commandLine(["statectl", "set", session, sample.window] + mutations))
            var record = Record()
            record.add("path", outcome.saved.path.cell)
            record.add("item", outcome.saved.item?.description ?? "-")
            record.add("item path", outcome.saved.itemPath.cell)
            for line in record.text(style: Style(usesColour: false)).split(separator: "\n") {
                out.write(style.dim("      " + line) + "\n")
            }
        }

        out.write("\n" + style.bold("2. Each window restored in both size classes") + " (statectl restore):\n")
        for outcome in outcomes {
            for restoration in outcome.restorations {
                let layout = restoration.layout
                let note = layout.sizeClass == outcome.saved.sizeClass ? " (as saved)" : ""
                out.write(
                    "\n  \(outcome.sample.window) in \(layout.sizeClass.rawValue)\(note): \(layout.presentation.rawValue)\n"
                )
                out.write("    stack  \(layout.stack.cell)\n")
                if let sheet = layout.sheet { out.write("    sheet  \(sheet.cell)\n") }
            }
        }
        out.write(
            """

            The same saved state is pushed onto the window's stack when regular, and shown
            as a sheet with its own stack when compact: the layout is derived from the size
            class on every restore, never stored.

            """)
        if let path {
            let database = "--db " + shellQuoted(path)
            out.write("\nExplore it: statectl \(database) list, statectl \(database) show demo main --json\n")
        } else {
            out.write("\nKeep it to explore: statectl demo --db demo.db, then statectl --db demo.db list\n")
        }
    }

    /// A shell command line, `$ ` first, wrapped with `\\` before 78 columns.
    static func commandLine(_ words: [String]) -> String {
        var text = "  $"
        var lineStart = text.startIndex
        for word in words {
            if text.distance(from: lineStart, to: text.endIndex) + 1 + word.count > 76 {
                text += " \\\n"
                lineStart = text.endIndex
                text += "     "
            }
            text += " " + word
        }
        return text + "\n"
    }

    /// `value` as a shell reads it back: bare when it is plain, else in single quotes.
    static func shellQuoted(_ value: String) -> String {
        let plain = value.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "._-/".utf8.contains(byte)
        }
        if plain && !value.isEmpty { return value }
        return "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}

extension Invocation.Occurrence {
    /// How the occurrence is typed in a shell: `--push 'Folder:"inbox"'`.
    var shellText: String {
        option.name + (text.map { " " + DemoCommand.shellQuoted($0) } ?? "")
    }
}
