import Foundation
import StateStoreTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// How a process ended (or stopped).
enum Termination: Hashable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)
    case stopped(Int32)

    init(status: Int32) {
        if status & 0x7F == 0 {
            self = .exited((status >> 8) & 0xFF)
        } else if status & 0xFF == 0x7F {
            self = .stopped((status >> 8) & 0xFF)
        } else {
            self = .signaled(status & 0x7F)
        }
    }

    var description: String {
        switch self {
        case .exited(let code): "exit \(code)"
        case .signaled(let signal): "killed by signal \(signal)"
        case .stopped(let signal): "stopped by signal \(signal)"
        }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
}

/// A folder for one test: the database mailhost and statectl share, and a home, state home and
/// temporary folder of its own so that nothing touches the real ones.
final class MailFixture: Sendable {
    let folder = TemporaryFolder(prefix: "mailhost-tests-")

    var database: String { folder.file("state.db") }

    var environment: [String: String] {
        ["HOME": folder.file("home"), "XDG_STATE_HOME": folder.file("state"), "TMPDIR": NSTemporaryDirectory()]
    }

    /// Starts mailhost on this fixture's database, on a terminal of `columns` × `rows`.
    /// With `standardErrorOnTheTerminal`, what mailhost (and every library in it) writes to
    /// standard error lands on the screen, as in a user's terminal; otherwise in a file the test
    /// reads (``MailHostRun/standardError``).
    func launch(
        _ arguments: [String] = [], columns: Int = 120, rows: Int = 24, environment extra: [String: String] = [:],
        standardErrorOnTheTerminal: Bool = false
    ) throws -> MailHostRun {
        try MailHostRun(
            arguments: ["--db", database] + arguments, environment: environment.merging(extra) { $1 },
            columns: columns, rows: rows, standardErrorOnTheTerminal: standardErrorOnTheTerminal)
    }

    /// Runs the built `statectl --db <database> arguments...`.
    @discardableResult
    func statectl(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try statectl(withoutDatabaseOption: ["--db", database] + arguments)
    }

    /// Runs the built `statectl arguments...` in this fixture's environment: without `--db`, it
    /// finds its database by `$XDG_STATE_HOME`.
    func statectl(withoutDatabaseOption arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try run(builtBinary("statectl", environment: "STATECTL_BIN"), arguments)
    }

    /// Runs `mailhost` with its standard output and error to pipes (not a terminal).
    func mailhostWithoutTerminal(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try run(MailHostRun.binary, arguments)
    }

    /// The number of revisions `statectl history` keeps for window `window`.
    func revisions(_ window: String = "main") throws -> Int {
        let result = try statectl(["history", "mailhost", window, "--json"])
        guard result.status == 0 else { throw HarnessError(description: "history: \(result.stderr)") }
        let history = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Any]
        return history?.count ?? 0
    }

    /// The stored state of a window, as `statectl show --json` prints it.
    func stored(_ window: String = "main") throws -> [String: Any] {
        let result = try statectl(["show", "mailhost", window, "--json"])
        guard result.status == 0 else { throw HarnessError(description: "show: \(result.stderr)") }
        do {
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        } catch {
            throw HarnessError(description: "show printed no JSON (\(error)): '\(result.stdout)' '\(result.stderr)'")
        }
    }

    private func run(
        _ executable: String, _ arguments: [String]
    ) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        var environment = ProcessInfo.processInfo.environment
        environment["STATECTL_DB"] = nil
        environment["NO_COLOR"] = nil
        for (key, value) in self.environment { environment[key] = value }
        let output = TemporaryFolder(prefix: "mailhost-run-")
        let status = try spawnAndWait(
            executable, arguments, environment: environment, stdout: .file(output.file("stdout")),
            stderr: .file(output.file("stderr")))
        func text(_ name: String) throws -> String {
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: output.file(name))), as: UTF8.self)
        }
        return (status, try text("stdout"), try text("stderr"))
    }
}

/// A `mailhost` running on a pseudo-terminal, as in a terminal window: the test types keys into
/// the master, sets its size, and reads the screen through a ``TerminalModel`` fed by a
/// ``ScreenReader`` that drains the master all the time (so mailhost never blocks on a full
/// terminal). The screen is read as of whole frames: mailhost wraps each in a synchronized update.
///
/// mailhost is started in a session of its own with the terminal as its controlling terminal, so
/// the kernel sends it SIGWINCH on a resize and SIGINT and SIGTSTP for a typed ^C and ^Z. A run
/// the test did not end is killed when it goes.
final class MailHostRun: @unchecked Sendable {
    static let binary = builtBinary("mailhost", environment: "MAILHOST_BIN")

    let pid: pid_t
    /// The test's own descriptor of the terminal's slave side, to read its modes.
    let slave: Int32
    /// The terminal's modes before mailhost started: what it must put back. Read before the spawn,
    /// never after, when mailhost may already have switched to raw mode.
    let modesAtLaunch: termios
    private let reader: ScreenReader
    private let errors: TemporaryFolder
    private let lock = NSLock()
    private var reaped: Termination?
    private var closedSlave = false

    init(
        arguments: [String], environment: [String: String], columns: Int, rows: Int,
        standardErrorOnTheTerminal: Bool = false
    ) throws {
        let master = PseudoTerminal.open(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0, PseudoTerminal.grant(master) == 0, PseudoTerminal.unlock(master) == 0,
            let name = PseudoTerminal.name(master)
        else {
            if master >= 0 { close(master) }
            throw HarnessError(description: "no pseudo-terminal: \(errno)")
        }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = withUnsafeMutablePointer(to: &size) { ioctl(master, UInt(TIOCSWINSZ), $0) }
        let slave = Glibc.open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            close(master)
            throw HarnessError(description: "cannot open \(name): \(errno)")
        }
        // A terminal nobody has sized (0 × 0) is drawn at 80 × 24, as mailhost assumes then.
        let reader = try ScreenReader(
            master: master, model: TerminalModel(columns: columns > 0 ? columns : 80, rows: rows > 0 ? rows : 24))
        errors = TemporaryFolder(prefix: "mailhost-stderr-")

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opened after setsid() (spawn attributes act first) and without O_NOCTTY: the terminal
        // becomes the child's controlling terminal, its process group the foreground one.
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        if standardErrorOnTheTerminal {
            posix_spawn_file_actions_adddup2(&actions, 0, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, errors.file("stderr"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT, SIGPIPE, SIGTTOU, SIGTTIN] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        let setsid: Int32 = 0x80  // POSIX_SPAWN_SETSID (glibc 2.26), which the Glibc module leaves out
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | setsid))

        var env = ProcessInfo.processInfo.environment
        env["STATECTL_DB"] = nil
        env["NO_COLOR"] = nil
        env["TERM"] = "xterm-256color"
        for (key, value) in environment { env[key] = value }
        let argv = cStringArray([Array(Self.binary.utf8)] + arguments.map { Array($0.utf8) })
        let envp = cStringArray(environmentStrings(env))
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var modes = termios()
        tcgetattr(slave, &modes)
        var pid: pid_t = 0
        let code = posix_spawn(&pid, Self.binary, &actions, &attributes, argv, envp)
        guard code == 0 else {
            reader.stop()
            close(slave)
            throw HarnessError(description: "posix_spawn \(Self.binary): \(code)")
        }
        self.pid = pid
        self.slave = slave
        self.modesAtLaunch = modes
        self.reader = reader
        reader.start()
    }

    deinit {
        if lock.withLock({ reaped == nil }) {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        reader.stop()
        if !closedSlave { close(slave) }
    }

    /// What mailhost wrote to standard error so far.
    var standardError: String {
        (try? String(contentsOfFile: errors.file("stderr"), encoding: .utf8)) ?? ""
    }

    /// The screen as it is now (as of the last whole frame).
    var screen: TerminalModel { reader.shown }

    /// Types `text` (keys as the terminal sends them: "\u{1B}[B" is the down arrow).
    func type(_ text: String) {
        reader.send(Array(text.utf8))
    }

    /// Makes the terminal `columns` × `rows`, as a window resized by the user: the kernel tells
    /// the foreground process group with SIGWINCH, and so does the test, as a terminal emulator does.
    func resize(columns: Int, rows: Int) {
        reader.resize(columns: columns, rows: rows)
        kill(pid, SIGWINCH)
    }

    /// Forgets which rows were written, so that the next ``TerminalModel/touchedRows`` count from now.
    func markUntouched() {
        reader.markUntouched()
    }

    /// Waits, at most `timeout`, until the screen satisfies `predicate`; the screen then. Fails
    /// with the screen as it was when the time ran out.
    @discardableResult
    func waitForScreen(
        _ what: String, timeout: TimeInterval = 30, _ predicate: @escaping @Sendable (TerminalModel) -> Bool
    ) async throws -> TerminalModel {
        let reader = reader
        let errors = errors.file("stderr")
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                let (snapshot, held) = reader.wait(until: Date(timeIntervalSinceNow: timeout), predicate)
                if held {
                    continuation.resume(returning: snapshot)
                } else {
                    let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
                    continuation.resume(
                        throwing: HarnessError(
                            description:
                                "timed out waiting for \(what); the screen:\n\(snapshot.text)\nstderr: \(stderr)"
                        ))
                }
            }.start()
        }
    }

    /// Waits until the text `text` is on the screen.
    @discardableResult
    func waitForText(_ text: String, timeout: TimeInterval = 30) async throws -> TerminalModel {
        try await waitForScreen("'\(text)' on the screen", timeout: timeout) { $0.text.contains(text) }
    }

    /// The screen with everything mailhost wrote so far: the test writes a marker to the terminal
    /// after it, and waits for the marker (output to a terminal arrives in order).
    func finalScreen() async throws -> TerminalModel {
        let seen = screen.markers
        try lock.withLock {
            guard !closedSlave else { throw HarnessError(description: "the terminal was closed") }
            writeAll(slave, Array(TerminalModel.marker.utf8))
        }
        return try await waitForScreen("the marker after mailhost's output") { $0.markers > seen }
    }

    /// Waits for the process to end (or, with `untilStopped`, to stop); it is killed after
    /// `timeout`, which then shows as death by SIGKILL.
    func waitForTermination(untilStopped: Bool = false, timeout: Duration = .seconds(30)) async -> Termination {
        let pid = pid
        let killer = Task {
            try await Task.sleep(for: timeout)
            kill(pid, SIGKILL)
        }
        defer { killer.cancel() }
        let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            Thread {
                var status: Int32 = 0
                while waitpid(pid, &status, untilStopped ? WUNTRACED : 0) < 0 && errno == EINTR {}
                continuation.resume(returning: status)
            }.start()
        }
        let termination = Termination(status: status)
        if case .stopped = termination {} else { lock.withLock { reaped = termination } }
        return termination
    }

    /// Closes the terminal, as closing its window does: the master goes, and with it the test's
    /// slave, so the kernel hangs the terminal up.
    func hangUp() {
        reader.stop()
        lock.withLock {
            if !closedSlave {
                closedSlave = true
                close(slave)
            }
        }
    }

    /// The slave's terminal modes now.
    func terminalModes() -> termios {
        var modes = termios()
        lock.withLock {
            if !closedSlave { tcgetattr(slave, &modes) }
        }
        return modes
    }
}

/// The master side of a pseudo-terminal, read on a thread of its own into a ``TerminalModel``
/// until ``stop()``; the thread holds this object, never the run, so a run can go while it reads.
/// Its descriptors are closed when the object goes, never before: a descriptor closed while a
/// ``stop()`` could still write to it would be another test's by then.
final class ScreenReader: @unchecked Sendable {
    private let master: Int32
    private var wake: [Int32] = [-1, -1]
    private let condition = NSCondition()
    /// Guards ``masterOpen``: once the drain has closed the master, its number may be anyone's.
    private let masterLock = NSLock()
    private var masterOpen = true
    private var model: TerminalModel
    /// The model as of the end of the last frame: what a terminal that synchronizes updates shows.
    private var shownModel: TerminalModel

    init(master: Int32, model: TerminalModel) throws {
        guard pipe(&wake) == 0 else {
            close(master)
            throw HarnessError(description: "pipe: \(errno)")
        }
        for end in wake { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        self.master = master
        self.model = model
        shownModel = model
    }

    var shown: TerminalModel {
        condition.lock()
        defer { condition.unlock() }
        return shownModel
    }

    func start() {
        Thread { [self] in drain() }.start()
    }

    deinit {
        if masterOpen { close(master) }
        close(wake[0])
        close(wake[1])
    }

    /// Ends the reading thread, which closes the master (the terminal hangs up once no slave is
    /// open either).
    func stop() {
        writeAll(wake[1], [0])
    }

    func send(_ bytes: [UInt8]) {
        masterLock.withLock {
            if masterOpen { writeAll(master, bytes) }
        }
    }

    func resize(columns: Int, rows: Int) {
        condition.lock()
        model.resize(columns: columns, rows: rows)
        if !model.synchronizing { shownModel = model }
        condition.unlock()
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        masterLock.withLock {
            if masterOpen { _ = withUnsafeMutablePointer(to: &size) { ioctl(master, UInt(TIOCSWINSZ), $0) } }
        }
    }

    func markUntouched() {
        condition.lock()
        model.markUntouched()
        if !model.synchronizing { shownModel = model }
        condition.unlock()
    }

    /// Blocks until `predicate` holds for the shown screen or `deadline` passes.
    func wait(until deadline: Date, _ predicate: (TerminalModel) -> Bool) -> (TerminalModel, Bool) {
        condition.lock()
        defer { condition.unlock() }
        while !predicate(shownModel) && condition.wait(until: deadline) {}
        return (shownModel, predicate(shownModel))
    }

    /// Reads the master until the wake pipe says stop, feeding the model.
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var polled = [
            pollfd(fd: master, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&polled, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || polled[1].revents != 0 { break }
            guard polled[0].revents != 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                // No slave open any more (the run has gone): poll only for the stop.
                polled[0].fd = -1
                continue
            }
            condition.lock()
            model.feed(Array(buffer[0..<count]))
            if !model.synchronizing {
                shownModel = model
                condition.broadcast()
            }
            condition.unlock()
        }
        masterLock.withLock {
            close(master)
            masterOpen = false
        }
    }
}

/// Writes all of `bytes`, through partial writes and interruptions: a key lost there would fail a
/// test for nothing mailhost did.
func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 && (errno == EINTR || errno == EAGAIN) { continue }
        guard written > 0 else { return }
        offset += written
    }
}

extension termios {
    /// The modes a program changes, for comparing two readings.
    var modes: [UInt64] {
        var cc = self.c_cc
        let characters = withUnsafeBytes(of: &cc) { $0.map { UInt64($0) } }
        return [UInt64(c_iflag), UInt64(c_oflag), UInt64(c_cflag), UInt64(c_lflag)] + characters
    }
}
