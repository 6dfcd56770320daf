#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// statebench's command line.
struct Options {
    var quick = false
    var json = false
    /// Where fixtures go; a new temporary folder, removed afterwards, when nil.
    var folder: String?
    /// Sections to run; all when empty.
    var only: Set<Section> = []
    /// Implementations to measure; all when empty (then the agreement checks are skipped).
    var contenders: Set<String> = []

    enum Section: String, CaseIterable {
        case save, restore, list, cli
    }

    static let usage = """
        OVERVIEW: Measures StateStore against the SQLite C API (raw) and a file-per-window store, and
        statectl against sqlite3, in one run; prints the figures, their ratios and the issue's targets.

        USAGE: swift run -c release statebench [--quick] [--json] [--dir PATH] [--only SECTION]...
                                                [--contender NAME]...

        OPTIONS:
          --quick          Fewer rounds and operations: under a minute on two cores.
          --json           One JSON document on stdout instead of the tables (progress stays on stderr).
          --dir PATH       Build the fixtures in PATH (kept) instead of a temporary folder (removed).
          --only SECTION   Run only save, restore (with the 1M-window scale figure), list or cli; repeatable.
          --contender NAME Measure only StateStore, raw, file (statectl, sqlite3 in cli); repeatable.
                           For profiling one of them, e.g. under valgrind --tool=callgrind.
          -h, --help       Show this help.

        statectl is the one built beside statebench (`swift run -c release statebench` builds both),
        or $STATECTL_BIN; sqlite3 is the one on $PATH.
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick": options.quick = true
            case "--json": options.json = true
            case "--dir":
                guard let value = remaining.popFirst() else { throw StatebenchError("--dir needs a path") }
                options.folder = value
            case "--only":
                guard let value = remaining.popFirst(), let section = Section(rawValue: value) else {
                    throw StatebenchError("--only needs one of: save, restore, list, cli")
                }
                options.only.insert(section)
            case "--contender":
                guard let value = remaining.popFirst() else { throw StatebenchError("--contender needs a name") }
                options.contenders.insert(value)
            case "-h", "--help":
                print(usage)
                exit(0)
            default:
                throw StatebenchError("unknown argument '\(argument)'\n\n\(usage)")
            }
        }
        return options
    }

    func runs(_ section: Section) -> Bool { only.isEmpty || only.contains(section) }

    /// Whether contender `name` ("StateStore 1M" counts as "StateStore") is measured.
    func measures(_ name: String) -> Bool {
        contenders.isEmpty || contenders.contains(String(name.prefix { $0 != " " }))
    }

    /// Whether every implementation runs, so that their results can be compared.
    var comparesAll: Bool { contenders.isEmpty }
}
