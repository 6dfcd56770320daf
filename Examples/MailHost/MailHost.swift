import Dispatch
import Foundation
import Observation
import StateStore
import StateStoreHost

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The running host: one window of session `mailhost`, drawn on the terminal from its model and
/// fed the terminal's size and activity as the model's environment.
///
/// Everything happens on the main actor, on the main dispatch queue: keys arrive through a read
/// source on standard input, resizes and job control through signal sources, and model changes —
/// the user's, a settled size class, another process's write — through observation, each
/// scheduling one redraw. The app decides nothing about layout: it draws `stack`, `sheet` and
/// `sheetPath` as the model gives them.
@MainActor
final class MailHost {
    /// The signals the app handles: blocked in every thread (see ``blockSignals()``) and taken
    /// from the signal sources instead.
    nonisolated static let signals = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT]

    private let options: Options
    private let databasePath: String
    private let color: Bool
    private let terminal: Terminal
    private var session: WindowSession?
    private var window: WindowModel<MailRoute>?
    /// The terminal's size as last read; `nil` while it reports none.
    private var size: Terminal.Size?
    private var isActive = true
    private var suspended = false
    private var ending = false
    /// The selected row of each page, by the route on top (`nil`: the mailboxes).
    private var selections: [MailRoute?: Int] = [:]
    private var writer = FrameWriter()
    private var drawScheduled = false
    private var sources: [any DispatchSourceProtocol] = []

    init(options: Options, databasePath: String, color: Bool) {
        self.options = options
        self.databasePath = databasePath
        self.color = color
        terminal = Terminal(color: color)
    }

    /// Blocks the handled signals in the calling thread, before any other exists, so that every
    /// thread inherits the mask: a blocked signal waits for the signal source (Linux's libdispatch
    /// reads it from a `signalfd`) instead of being delivered to whichever thread runs.
    nonisolated static func blockSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Listens for signals, opens the session, then takes over the terminal.
    func start() {
        for signal in Self.signals {
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .main)
            source.setEventHandler { [unowned self] in MainActor.assumeIsolated { self.received(signal) } }
            source.resume()
            sources.append(source)
        }
        Task { await open() }
    }

    // MARK: Starting

    private func open() async {
        var sessionOptions = WindowSession.Options()
        sessionOptions.settle = .milliseconds(options.settleMilliseconds)
        // A command run on a file the user named says what is wrong with it and exits, rather than
        // launching in memory as an app must.
        sessionOptions.recoverUnusableFile = false
        let session: WindowSession
        do {
            session = try await WindowSession.open(
                path: databasePath, session: Options.session, options: sessionOptions)
        } catch let error as StateStoreError {
            fail(error.description, status: error.exitStatus)
        } catch {
            fail("\(error)", status: 74)
        }
        guard !ending else { return }
        self.session = session
        window = session.window(options.window, as: MailRoute.self)
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler { [unowned self] in MainActor.assumeIsolated { self.readKeys() } }
        input.resume()
        sources.append(input)
        // After a ^Z while opening, the terminal is taken on resuming.
        if !suspended { takeTerminal() }
    }

    /// Raw mode, the alternate screen, the size read afresh, a full redraw, and the window told
    /// that it is active in the class the size gives.
    private func takeTerminal() {
        do {
            try terminal.enter()
        } catch {
            fail(error.description, status: 74)
        }
        size = Terminal.size()
        isActive = true
        writer.invalidate()
        window?.environmentChanged(sizeClass: sizeClass, isActive: true)
        draw()
    }

    /// The class the terminal's width gives: `unspecified` until a size is known.
    private var sizeClass: SizeClass {
        guard let size else { return .unspecified }
        return size.columns >= options.regularWidth ? .regular : .compact
    }

    // MARK: Events

    private func received(_ signal: Int32) {
        switch signal {
        case SIGWINCH: resized()
        case SIGTSTP: suspend()
        case SIGCONT: resume()
        default: end(by: signal)
        }
    }

    private func resized() {
        guard terminal.isEntered, !suspended, !ending else { return }
        let now = Terminal.size()
        guard now != size else { return }
        size = now
        writer.invalidate()
        window?.environmentChanged(sizeClass: sizeClass, isActive: isActive)
        scheduleDraw()
    }

    /// ^Z: the scene goes inactive. The window hears it first, the terminal gets its modes back,
    /// the writes in flight finish (so no SQLite lock is held while stopped), then the process
    /// stops for real, as it would without mailhost's handling.
    private func suspend() {
        guard !suspended, !ending else { return }
        suspended = true
        isActive = false
        window?.environmentChanged(sizeClass: sizeClass, isActive: false)
        session?.pauseObserving()
        terminal.leave()
        Task {
            if let session { _ = await session.flush(timeout: .seconds(1)) }
            guard suspended else { return }
            kill(getpid(), SIGSTOP)
        }
    }

    /// `fg` (SIGCONT): active again, in whatever size the terminal has now.
    private func resume() {
        guard suspended, !ending else {
            // A SIGCONT without a suspension: the screen may have been disturbed; draw it whole.
            writer.invalidate()
            scheduleDraw()
            return
        }
        suspended = false
        session?.resumeObserving()
        guard window != nil else { return }  // still opening: open() takes the terminal
        takeTerminal()
    }

    private func readKeys() {
        guard !ending else { return }
        let bytes: [UInt8]
        do {
            bytes = try terminal.receive()
        } catch {
            return end(by: SIGHUP)
        }
        guard !bytes.isEmpty else { return end(by: SIGHUP) }  // the terminal hung up
        for key in Key.decode(bytes) { handle(key) }
    }

    private func handle(_ key: Key) {
        guard let window, !ending, !suspended else { return }
        let focus = self.focus(window)
        switch key {
        case .up, .character("k"): select(focus, by: -1)
        case .down, .character("j"): select(focus, by: 1)
        case .enter, .right:
            guard let selected = selection(on: focus) else { return }
            let route = focus.page.rows[selected].route
            if route.isPresented { window.present(route) } else { window.push(route) }
        case .back, .escape, .left:
            if !window.stack.isEmpty || window.sheet != nil { window.pop(1) }
        case .character("c"): window.present(.compose(draft: 0))
        case .character("p"): window.policy = window.policy == .migrate ? .dismiss : .migrate
        case .character("q"): quit()
        default: break
        }
    }

    // MARK: Selection

    /// The page the keys act on: the sheet's top while the model shows a sheet, else the window's.
    private func focus(_ window: WindowModel<MailRoute>) -> (route: MailRoute?, page: Page) {
        let route = window.sheet.map { window.sheetPath.last ?? $0.route } ?? window.stack.last
        return (route, Page(route))
    }

    private func selection(on focus: (route: MailRoute?, page: Page)) -> Int? {
        guard !focus.page.rows.isEmpty else { return nil }
        return min(max(selections[focus.route] ?? 0, 0), focus.page.rows.count - 1)
    }

    private func select(_ focus: (route: MailRoute?, page: Page), by step: Int) {
        guard let current = selection(on: focus) else { return }
        selections[focus.route] = min(max(current + step, 0), focus.page.rows.count - 1)
        scheduleDraw()
    }

    // MARK: Drawing

    private func scheduleDraw() {
        guard !drawScheduled else { return }
        drawScheduled = true
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                self.drawScheduled = false
                self.draw()
            }
        }
    }

    /// Draws the model as it is now, writing only the lines that changed, and redraws when what it
    /// read changes.
    private func draw() {
        guard let window, terminal.isEntered, !suspended, !ending else { return }
        let screen = withObservationTracking {
            self.screen(of: window)
        } onChange: { [weak self] in
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.scheduleDraw() } }
        }
        let shown = size ?? Terminal.Size(columns: 80, rows: 24)
        let output = writer.update(to: screen.draw(columns: shown.columns, rows: shown.rows), color: color)
        if !output.isEmpty && !terminal.send(output) { return end(by: SIGHUP) }
        // The model holds a sheet presented by the change that also changed the window's stack
        // until the stack has been drawn (SwiftUI presents one step per update): drawn now.
        if window.layout.presentation == .sheet && window.sheet == nil { window.presentationReady() }
    }

    private func screen(of window: WindowModel<MailRoute>) -> Screen {
        let stack = window.stack
        let sheetRoutes = window.sheet.map { [$0.route] + window.sheetPath }
        var windowStack = Screen.Stack(titles: ["Mail"] + stack.map(Page.title(of:)), page: Page(stack.last))
        var sheet = sheetRoutes.map { Screen.Stack(titles: $0.map(Page.title(of:)), page: Page($0.last)) }
        if let routes = sheetRoutes, let page = sheet?.page {
            sheet?.selection = selection(on: (routes.last, page))
        } else {
            windowStack.selection = selection(on: (stack.last, windowStack.page))
        }
        var status = [
            "session \(Options.session)", "window \(window.id)", window.sizeClass.rawValue,
            "revision \(window.revision)", "policy \(window.policy.rawValue)",
        ]
        if window.isRestoring { status.append("restoring") }
        return Screen(
            window: windowStack, sheet: sheet, error: window.lastError?.description,
            status: status.joined(separator: " · "))
    }

    // MARK: Ending

    /// `q`: the terminal back as it was, every change saved, exit 0 — or, when a change could not
    /// be saved, the reason and the store's exit status.
    private func quit() {
        guard !ending else { return }
        ending = true
        terminal.leave()
        Task {
            let status = await save(within: .seconds(3))
            exit(status)
        }
    }

    /// A signal that ends the process (SIGINT, SIGTERM, SIGHUP, or a terminal gone): the terminal
    /// back as it was, a short wait for the writes, then death by that signal, as a shell expects.
    private func end(by number: Int32) {
        guard !ending else { return }
        ending = true
        terminal.leave()
        Task {
            _ = await save(within: .seconds(2))
            die(by: number)
        }
    }

    private func die(by number: Int32) -> Never {
        signal(number, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        // Delivered to this thread as soon as it is unblocked, with the default action: the end.
        raise(number)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        exit(128 + number)
    }

    /// Waits for the window's changes to be committed; the exit status that says whether they were.
    private func save(within timeout: Duration) async -> Int32 {
        guard let session, let window else { return 0 }
        if await session.flush(timeout: timeout) { return 0 }
        let reason = window.lastError?.description ?? "the database did not answer within \(timeout)"
        writeToStandardError("Error: changes to window '\(window.id)' were not saved: \(reason)\n")
        switch window.lastError {
        case .store(let error)?, .overLimits(let error)?: return error.exitStatus
        default: return 75
        }
    }

    /// An error before or while running: the terminal back as it was, the message, the status.
    private func fail(_ message: String, status: Int32) -> Never {
        terminal.leave()
        writeToStandardError("Error: \(Canvas.escapingControlCharacters(message))\n")
        exit(status)
    }
}
