import Foundation
import StateStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// bash completion as a user meets it: an interactive bash on a pseudo-terminal, the line typed,
/// TAB pressed, the line read back (a key bound to print readline's buffer), Enter pressed. Ids
/// are stored data, and any text is a legal id: whether the word is in single quotes, double
/// quotes or none, the completed line must name the id and run nothing else, and an id that
/// begins with `-` must come after `--`, so that the command works instead of exiting 64.
struct BashTerminalTests {
    /// Sessions (each with a window `w`) that are shell code if inserted raw, one per first
    /// character, so that each completes alone; and ids that begin with `-`.
    static let hostileSessions = [
        "x'; touch pwned; #", "z$(touch pwned)", "t`touch pwned`", "y!x; touch pwned", "q\"; touch pwned; \"",
        "b\\\"; touch pwned; #", "s p a c e", "-dash",
    ]

    @Test func completedIdsAreQuotedForTheLineAndRunNothing() throws {
        let completion = CompletionFixture()
        let fixture = completion.fixture
        try FileManager.default.createDirectory(atPath: fixture.path("home"), withIntermediateDirectories: true)
        for session in Self.hostileSessions {
            try fixture.save(session, session == "-dash" ? "-w" : "w") { $0.push(route("A")) }
        }
        try fixture.save("mail", "-side") { $0.push(route("A")) }

        var lines: [String] = []
        for session in Self.hostileSessions {
            let start = String(session.prefix(session.hasPrefix("-") ? 2 : 1))
            lines += ["statectl show \(start)", "statectl show '\(start)", "statectl show \"\(start)"]
        }
        lines += [
            "statectl show -- -dash ", "statectl show -- -dash '-", "statectl show mail -s", "statectl show mail '-s",
            "statectl show mail \"-s",
        ]
        let bash = try InteractiveBash(environment: completion.environment(), folder: fixture.folder)
        for line in lines {
            bash.type(line + "\t")
            let completed = try bash.currentLine()
            #expect(completed != line && completed.hasSuffix(" "), "'\(line)' TAB gave '\(completed)'")
            bash.type("\r")
            let status = try bash.lastStatus()
            #expect(status == 0, "'\(line)' TAB gave '\(completed)', which exited \(status): \(bash.recent)")
            #expect(!fixture.exists(fixture.path("pwned")), "'\(line)' TAB gave '\(completed)', which ran code")
            unlink(fixture.path("pwned"))
        }
        #expect(
            fixture.contents(of: fixture.folder).filter { $0 != "bash-history" }.sorted() == [
                "home", "state.db", "tmp",
            ])
    }
}

/// An interactive bash on a pseudo-terminal, started without any startup file, the completion
/// script loaded as its help says; `Ctrl-T` prints readline's line between markers.
final class InteractiveBash {
    private let master: Int32
    private let child: SpawnedChild
    private var received: [UInt8] = []
    private var consumed = 0

    init(environment: [String: String], folder: String) throws {
        let bash = try #require(Tools.bash, "bash is not installed")
        let master = PseudoTerminal.open(O_RDWR | O_NOCTTY | O_CLOEXEC)
        self.master = master
        guard master >= 0, PseudoTerminal.grant(master) == 0, PseudoTerminal.unlock(master) == 0,
            let name = PseudoTerminal.name(master)
        else { throw FixtureError(message: "no pseudo-terminal: \(errno)") }
        var size = winsize(ws_row: 50, ws_col: 250, ws_xpixel: 0, ws_ypixel: 0)
        _ = withUnsafeMutablePointer(to: &size) { ioctl(master, UInt(TIOCSWINSZ), $0) }
        let slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw FixtureError(message: "cannot open \(name): \(errno)") }
        defer { close(slave) }
        var environment = withCoverageProfile(environment)
        environment["TERM"] = "dumb"
        environment["HISTFILE"] = folder + "/bash-history"
        child = try SpawnedChild(
            bash, ["--norc", "--noprofile", "-i"], environment: environment, stdin: .descriptor(slave),
            stdout: .descriptor(slave), stderr: .descriptor(slave))
        type(
            "PS1='$ '; PS2=''; bind 'set enable-bracketed-paste off'; bind 'set bell-style none'; "
                + #"bind -x '"\C-t": printf "\nLINE<%s>END\n" "$READLINE_LINE"'; "#
                + "source <(statectl completion bash); cd \(shellQuoted(folder)); echo \"RE\"\"ADY\"\r")
        _ = try read(until: "READY\r\n")
    }

    deinit {
        child.signal(SIGKILL)
        child.waitUntilExit()
        close(master)
    }

    /// What bash wrote lately, for messages.
    var recent: String { String(decoding: received.suffix(400), as: UTF8.self) }

    /// Types `text` as keys.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            written += count
        }
    }

    /// The line as readline holds it now (after the keys typed so far have been handled).
    func currentLine() throws -> String {
        type("\u{14}")
        let text = try read(until: ">END")
        guard let start = text.range(of: "LINE<", options: .backwards) else { throw FixtureError(message: text) }
        return String(text[start.upperBound...].dropLast(">END".count))
    }

    /// The exit status of the last command, from `$?`.
    func lastStatus() throws -> Int32 {
        type("echo \"ST\"\"ATUS<$?>\"\r")
        let text = try read(until: ">\r\n")
        guard let start = text.range(of: "STATUS<", options: .backwards) else { throw FixtureError(message: text) }
        return Int32(text[start.upperBound...].prefix { $0.isNumber }) ?? -1
    }

    /// Reads until `marker` has appeared after what was read before; returns what came.
    private func read(until marker: String, timeout: Duration = .seconds(20)) throws -> String {
        let deadline = ContinuousClock.now + timeout
        let wanted = Array(marker.utf8)
        while true {
            if let end = find(wanted, from: consumed) {
                let text = String(decoding: received[consumed..<end], as: UTF8.self)
                consumed = end
                return text
            }
            guard ContinuousClock.now < deadline else {
                throw FixtureError(message: "no '\(marker)' from bash: \(recent)")
            }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
            if count > 0 { received += buffer[..<count] }
        }
    }

    private func find(_ wanted: [UInt8], from start: Int) -> Int? {
        guard received.count - start >= wanted.count else { return nil }
        for index in start...(received.count - wanted.count)
        where received[index..<(index + wanted.count)].elementsEqual(wanted) {
            return index + wanted.count
        }
        return nil
    }
}
