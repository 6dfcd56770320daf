import StateStore
import StateStoreRawSQLite
import StateStoreSQLite

/// The raw baseline of a host's launch (`raw_launch`): open a store, read one session's windows
/// and resolve them for a size class, close; the texts laid out before the clock starts.
package final class RawLaunch {
    private let arena = TextArena()
    private let path: String
    private let launches: [(session: raw_text, sizeClass: raw_text)]
    private var restoration = raw_restoration()

    /// Launch `index` reads the session of `sessions[index]` and resolves it for its size class.
    package init(path: String, launches: [(session: String, sizeClass: SizeClass)]) {
        self.path = path
        self.launches = launches.map { [arena] in (arena.text($0.session), arena.text($0.sizeClass.rawValue)) }
    }

    deinit {
        raw_restoration_free(&restoration)
    }

    /// Runs launch `index`; returns how many windows it restored and the sum of their revisions.
    package func launch(_ index: Int) throws -> (windows: Int, revisions: Int) {
        let launch = launches[index]
        var (windows, revisions): (Int64, Int64) = (0, 0)
        let code = raw_launch(
            path, Int32(WindowStore.Options().busyTimeoutMilliseconds), launch.session, launch.sizeClass, &restoration,
            &windows, &revisions)
        guard code == SQLITE_OK else { throw BenchmarkError("raw: launch \(index) of \(path): SQLite code \(code)") }
        return (Int(windows), Int(revisions))
    }
}
