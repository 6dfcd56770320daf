import Foundation
import StateStore
import StateStoreBaselines

/// statebench's command line.
struct Options {
    var quick = false
    var json = false
    /// Where fixtures go; ``defaultFolder`` when nil.
    var folder: String?
    /// Build every fixture again.
    var fresh = false
    /// Keep the default folder's fixtures for the next run instead of removing them at the end.
    var keep = false
    /// Sections to run; all when empty.
    var only: Set<Section> = []
    /// Implementations to measure; all when empty (then the agreement checks are skipped).
    var contenders: Set<String> = []
    /// Set in the child that commits for the notify section (see ``NotifyWriter``).
    var notifyWriter: String?

    enum Section: String, CaseIterable {
        case save, restore, list, cli, notify, launch, host
    }

    static let usage = """
        OVERVIEW: Measures WindowStore against the SQLite C API (raw) and a file-per-window store, and
        statectl against sqlite3, in one run; prints the figures, their ratios and the issue's targets.

        USAGE: swift run -c release statebench [--quick] [--json] [--dir PATH | --keep] [--fresh]
                                                [--only SECTION]... [--contender NAME]...

        OPTIONS:
          --quick          Fewer rounds and operations: under a minute on two cores, once the
                           fixtures exist (the first run builds them).
          --json           One JSON document on stdout instead of the tables (progress stays on stderr).
          --dir PATH       Keep the fixtures in PATH, for the next run to reuse. Without it they are made
                           in $TMPDIR/statebench-fixtures-vN-schemaM (about 1.3 GB) and removed at the
                           end, or when statebench is stopped with SIGINT or SIGTERM.
          --keep           Keep that folder for the next run to reuse (which removes it, unless --keep).
          --fresh          Build every fixture again (the stores read from are otherwise reused).
          --only SECTION   Run only save, restore (with the 1M-window scale figure), list, cli, notify
                           (change feeds: notifications against polling), launch (open a store,
                           restore a session) or host (a live WindowModel); repeatable.
          --contender NAME Measure only WindowStore, raw, file (StateStoreHost in launch; statectl,
                           sqlite3 in cli); repeatable.
                           A whole name ("StateStore 1M") takes only that one. For profiling one
                           of them, e.g. under valgrind --tool=callgrind.
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
            case "--fresh": options.fresh = true
            case "--keep": options.keep = true
            case "--notify-writer":
                guard let value = remaining.popFirst() else { throw StatebenchError("--notify-writer needs a path") }
                options.notifyWriter = value
            case "--only":
                guard let value = remaining.popFirst(), let section = Section(rawValue: value) else {
                    throw StatebenchError(
                        "--only needs one of: \(Section.allCases.map(\.rawValue).joined(separator: ", "))")
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
        if options.keep && options.folder != nil {
            throw StatebenchError("--keep is for the default folder: --dir PATH keeps its fixtures already")
        }
        return options
    }

    /// Whether the fixtures' folder goes at the end of the run: the default one, unless `--keep`.
    /// A folder `--dir` names is the user's, and stays.
    var removesFolder: Bool { folder == nil && !keep }

    /// Fixtures may be kept between runs (`--keep`, `--dir`): the first run builds them (a million-window store, a
    /// hundred thousand files), later ones only read them. The name changes with the workload and
    /// the schema, so a stale fixture is never read.
    static var defaultFolder: String {
        NSTemporaryDirectory() + "statebench-fixtures-v\(Workload.fixtureVersion)-schema\(WindowStore.schemaVersion)"
    }

    func runs(_ section: Section) -> Bool { only.isEmpty || only.contains(section) }

    /// Whether contender `name` is measured: named whole ("StateStore 1M"), or by its first word
    /// ("StateStore" takes "StateStore 1M" too).
    func measures(_ name: String) -> Bool {
        contenders.isEmpty || contenders.contains(name) || contenders.contains(String(name.prefix { $0 != " " }))
    }

    /// Whether every implementation runs, so that their results can be compared.
    var comparesAll: Bool { contenders.isEmpty }
}
