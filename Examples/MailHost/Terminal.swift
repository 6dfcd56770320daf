#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal mailhost draws on: raw mode and the alternate screen while it runs, and the
/// modes it found put back whenever it stops running — on quit, on a signal, on an error and
/// while suspended.
///
/// Keys are read from standard input, the screen is written to standard output; both are the
/// same terminal (main.swift refuses to start otherwise).
@MainActor
final class Terminal {
    /// The terminal's size in character cells.
    struct Size: Hashable {
        var columns: Int
        var rows: Int
    }

    /// The modes found on entering, put back on leaving.
    private var saved: termios?
    /// Whether mailhost styles its text (`NO_COLOR` unset): only then has it anything to reset.
    private let color: Bool

    init(color: Bool) {
        self.color = color
    }

    /// Whether raw mode and the alternate screen are on.
    var isEntered: Bool { saved != nil }

    /// The size the terminal reports, or `nil` while it reports none (a pseudo-terminal nobody has
    /// sized yet says 0 × 0).
    static func size() -> Size? {
        var size = winsize()
        let status = withUnsafeMutablePointer(to: &size) { ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), $0) }
        guard status == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return Size(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    /// Saves the terminal's modes, then switches to raw mode, the alternate screen and a hidden
    /// cursor. The modes are read again each time: the shell may have changed them while
    /// mailhost was suspended.
    func enter() throws(TerminalError) {
        guard saved == nil else { return }
        var modes = termios()
        guard tcgetattr(STDIN_FILENO, &modes) == 0 else { throw TerminalError(call: "tcgetattr", errno: errno) }
        var raw = modes
        // Raw input, but ISIG stays on: ^C and ^Z still reach mailhost as signals, which it
        // handles like a kill and a suspension from anywhere else. ^\ is off: SIGQUIT would dump
        // core with the terminal left raw.
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
            cc[Int(VQUIT)] = 0  // _POSIX_VDISABLE
        }
        guard tcsetattr(STDIN_FILENO, TCSADRAIN, &raw) == 0 else {
            throw TerminalError(call: "tcsetattr", errno: errno)
        }
        saved = modes
        send(Escape.alternateScreen + Escape.hideCursor + Escape.home + Escape.clearScreen)
    }

    /// Puts back what ``enter()`` found: the main screen, the cursor and the terminal's modes.
    /// Safe to call at any time, and again.
    func leave() {
        guard var modes = saved else { return }
        saved = nil
        send((color ? Escape.reset : "") + Escape.showCursor + Escape.mainScreen)
        _ = tcsetattr(STDIN_FILENO, TCSADRAIN, &modes)
    }

    /// Writes `text` whole to the terminal; `false` when the terminal cannot take it (hung up).
    @discardableResult
    func send(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Reads what the keyboard has sent (at most `limit` bytes); empty at the end of input.
    func receive(limit: Int = 1024) throws(TerminalError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, limit) }
            if count >= 0 { return Array(buffer.prefix(count)) }
            if errno == EINTR || errno == EAGAIN { continue }
            throw TerminalError(call: "read", errno: errno)
        }
    }
}

/// A terminal call that failed.
struct TerminalError: Error, CustomStringConvertible {
    let call: String
    let errno: Int32

    var description: String { "\(call) on the terminal failed: \(String(cString: strerror(errno)))" }
}

/// The control sequences mailhost writes (ECMA-48 and xterm's private modes).
enum Escape {
    static let alternateScreen = "\u{1B}[?1049h"
    static let mainScreen = "\u{1B}[?1049l"
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    static let home = "\u{1B}[H"
    static let clearScreen = "\u{1B}[2J"
    static let clearToEndOfLine = "\u{1B}[K"
    static let reset = "\u{1B}[0m"
    /// Synchronized output (DEC private mode 2026): a terminal that knows it shows the frame between
    /// the two at once, never half drawn; others ignore both.
    static let beginFrame = "\u{1B}[?2026h"
    static let endFrame = "\u{1B}[?2026l"

    /// Moves the cursor to `row` and `column`, counted from 0.
    static func moveTo(row: Int, column: Int = 0) -> String { "\u{1B}[\(row + 1);\(column + 1)H" }
}

/// Writes `text` to standard error, whole (messages are short; a failure leaves nothing to tell).
func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}
