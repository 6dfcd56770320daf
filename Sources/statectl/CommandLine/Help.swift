/// Help text and usage lines, derived from the command declarations in the layout of
/// swift-argument-parser: `OVERVIEW:`, `USAGE:`, `ARGUMENTS:`, `OPTIONS:`, `SUBCOMMANDS:`.
enum Help {
    /// Lines are wrapped to this many columns.
    static let width = 80
    /// Where the description of an argument, option or command starts.
    static let descriptionColumn = 26

    static let overview = "Inspect and change the saved state of adaptive app windows."
    static let discussion = """
        A route is written TYPE or TYPE:JSON, such as Settings, Folder:"inbox" or Thread:{"id":42}, \
        or as a JSON object {"type": TYPE, "value": JSON} (value optional), which a type holding \
        ':' or starting with '{' needs and is printed in. Tables are for people; --json prints one \
        JSON document for programs. Only set, import, migrate and demo --db create the database; \
        every other command exits 66 where there is none (a mistyped --db is not an empty store), \
        but watch, which waits for it.
        """
    /// The exit statuses in one sentence, from ``ExitStatus/table``.
    static var exitStatusSentence: String {
        "Exit status: " + ExitStatus.table.map { "\($0.status) \($0.summary)" }.joined(separator: ", ") + "."
    }

    /// The whole help of `command`, or of `statectl` itself when `nil`.
    static func text(for command: Command?) -> String {
        guard let command else { return mainText() }
        var text = "OVERVIEW: \(command.abstract)\n\n"
        if !command.discussion.isEmpty { text += wrap(command.discussion, indent: 0) + "\n\n" }
        text += "USAGE: \(wrapped(usageParts(of: command), indent: "USAGE: ".count))\n"
        if !command.arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for positional in command.arguments { text += row("<\(positional.name)>", positional.help) }
        }
        let options = command.offeredOptions
        var sections: [OptionSection] = []
        for option in options {
            if let section = option.section, !sections.contains(section) { sections.append(section) }
        }
        for section in sections {
            text += "\n\(section.title):\n"
            for option in options where option.section == section { text += row(option.synopsis, option.help) }
        }
        text += "\nOPTIONS:\n"
        for option in options where option.section == nil { text += row(option.synopsis, option.help) }
        return text
    }

    /// The one-line usage of `command` (without global options), or of `statectl`.
    static func usage(of command: Command?) -> String {
        usageParts(of: command).joined(separator: " ")
    }

    /// The words of a usage line; a bracketed option is one word, never split by wrapping.
    static func usageParts(of command: Command?) -> [String] {
        guard let command else {
            return [
                "statectl", "[--db <path>]", "[--busy-timeout <ms>]", "[--durability <durability>]", "<subcommand>",
                "[<arguments>]",
            ]
        }
        var parts = ["statectl", command.name]
        for positional in command.arguments {
            // An argument a flag may stand in for reads as the choice of the two: (<window> | --focused).
            let name = "<\(positional.name)>" + (positional.standIn.map { " | \($0)" } ?? "")
            switch positional.arity {
            case .required: parts.append(positional.standIn == nil ? name : "(\(name))")
            case .optional: parts.append("[\(name)]")
            case .variadic: parts.append("[\(name) ...]")
            }
        }
        let standIns = command.arguments.compactMap(\.standIn)
        var sections: [OptionSection] = []
        for option in command.options where !standIns.contains(option.name) {
            if let section = option.section {
                if !sections.contains(section) {
                    sections.append(section)
                    parts.append(section.placeholder)
                }
                continue
            }
            let synopsis = option.valueName.map { "\(option.name) <\($0)>" } ?? option.name
            parts.append(
                option.required ? synopsis : option.repeats ? "[\(synopsis) ...]" : "[\(synopsis)]")
        }
        return parts
    }

    /// Words joined by spaces, broken before ``width`` into lines indented by `indent` spaces
    /// (the first line's indent is the caller's).
    private static func wrapped(_ words: [String], indent: Int) -> String {
        var text = ""
        var column = indent
        for word in words {
            if column > indent && column + 1 + word.count > width {
                text += "\n" + String(repeating: " ", count: indent)
                column = indent
            } else if column > indent {
                text += " "
                column += 1
            }
            text += word
            column += word.count
        }
        return text
    }

    private static func mainText() -> String {
        var text =
            "OVERVIEW: \(overview)\n\n\(wrap(discussion, indent: 0))\n\n\(wrap(exitStatusSentence, indent: 0))\n\n"
        text += "USAGE: \(wrapped(usageParts(of: nil), indent: "USAGE: ".count))\n\nOPTIONS:\n"
        for option in Option.globals + [.version, .help] { text += row(option.synopsis, option.help) }
        text += "\nSUBCOMMANDS:\n"
        for command in Command.listed { text += row(command.name, command.abstract) }
        text += "\n  See 'statectl help <subcommand>' for detailed help.\n"
        return text
    }

    /// `  label   description`, the description wrapped in its column; a label too long for the
    /// column gets a line of its own.
    private static func row(_ label: String, _ description: String) -> String {
        let lead = "  " + label
        let body = wrap(description, indent: descriptionColumn)
        let padding = String(repeating: " ", count: descriptionColumn)
        if lead.count + 2 <= descriptionColumn {
            let firstLine = body.dropFirst(descriptionColumn)
            return lead + String(repeating: " ", count: descriptionColumn - lead.count) + firstLine + "\n"
        }
        return lead + "\n" + (body.hasPrefix(padding) ? body : padding + body) + "\n"
    }

    /// Wraps each paragraph of `text` at ``width``, every line indented by `indent` spaces.
    static func wrap(_ text: String, indent: Int) -> String {
        let padding = String(repeating: " ", count: indent)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if paragraph.hasPrefix(" ") || paragraph.isEmpty {  // examples and blank lines stay as written
                lines.append(paragraph.isEmpty ? "" : padding + paragraph)
                continue
            }
            var line = padding
            for word in paragraph.split(separator: " ") {
                if line.count > indent && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = padding
                }
                line += (line.count > indent ? " " : "") + word
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
