import Foundation
import StateStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What `import` reads: a bounded amount, refused as soon as it cannot be a document, and
/// nothing created either way.
struct ImportInputTests {
    /// The real cap, as the README states it.
    static let limit = 256 * 1024 * 1024
    static let prefix = #"{"format":"statectl/1","windows":["#

    private func expectRefused(_ run: Run, _ message: String, _ fixture: Fixture) {
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("Error: import document: ") && run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(fixture.contents(of: fixture.folder) == ["tmp"], "nothing created")
    }

    @Test func devZeroIsRefusedAtItsFirstByte() throws {
        let fixture = Fixture()
        expectRefused(try fixture.spawn(["import", "/dev/zero"]), "byte 0 is a NUL byte", fixture)
        expectRefused(try fixture.spawn(["import"], stdin: .file("/dev/zero")), "byte 0 is a NUL byte", fixture)
    }

    @Test func aNULAfterAGoodStartIsRefusedWhereItIs() throws {
        let fixture = Fixture()
        let run = try fixture.run(["import"], stdin: Data((Self.prefix + "]}").utf8) + Data([0]))
        expectRefused(run, "byte \(Self.prefix.utf8.count + 2) is a NUL byte", fixture)
    }

    @Test func anEndlessPipeOfSomethingElseIsRefusedAtOnce() throws {
        let fixture = Fixture()
        // `yes | statectl import`: the first byte already cannot start a document.
        let run = try feedingEndlessly(Array("y\n".utf8), fixture)
        expectRefused(run, "expected an object ('{') at byte 0", fixture)
    }

    @Test func anEndlessPipeOfWhitespaceStopsAtTheLimit() throws {
        let fixture = Fixture()
        // A good start, then whitespace for ever: only the limit can stop it.
        let run = try feedingEndlessly(
            Array(repeating: UInt8(ascii: " "), count: 64 * 1024), fixture, first: Self.prefix)
        expectRefused(run, "standard input holds more than \(Self.limit) bytes; the limit is 256 MiB", fixture)
    }

    @Test func aFileOverTheLimitIsRefusedByItsSizeUnread() throws {
        let fixture = Fixture()
        let file = try sparseDocument(size: Self.limit + 1, fixture)
        expectRefused(try fixture.spawn(["import", file]), "is \(Self.limit + 1) bytes; the limit is 256 MiB", fixture)
        // stdin on the same file: refused alike.
        expectRefused(
            try fixture.spawn(["import"], stdin: .file(file)), "standard input is \(Self.limit + 1) bytes", fixture)
    }

    @Test func aFileAtTheLimitIsRead() throws {
        let fixture = Fixture()
        // Exactly the limit passes the size check; what stops it is the hole after the prefix.
        let file = try sparseDocument(size: Self.limit, fixture)
        expectRefused(try fixture.spawn(["import", file]), "byte \(Self.prefix.utf8.count) is a NUL byte", fixture)
    }

    /// A file of `size` bytes: ``prefix``, then a hole (zeros that take no room on the disk).
    private func sparseDocument(size: Int, _ fixture: Fixture) throws -> String {
        let file = fixture.path("tmp/big.json")
        try Data(Self.prefix.utf8).write(to: URL(fileURLWithPath: file))
        #expect(truncate(file, off_t(size)) == 0)
        return file
    }

    /// Runs `statectl import` with standard input on a pipe that `first`, then `pattern` again
    /// and again, is written to until statectl exits.
    private func feedingEndlessly(_ pattern: [UInt8], _ fixture: Fixture, first: String = "") throws -> Run {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw FixtureError(message: "pipe: \(errno)") }
        // Close-on-exec, so that no other child spawned meanwhile holds an end.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // F_SETPIPE_SZ (Linux): a larger pipe moves the 256 MiB in fewer wake-ups.
        _ = fcntl(ends[1], 1031, 1024 * 1024)
        let writer = ends[1]
        let done = DispatchSemaphore(value: 0)
        let feeder = Thread {
            // SIGPIPE blocked in this thread: a write after statectl has gone is EPIPE here.
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            var block: [UInt8] = []
            while block.count < 1024 * 1024 { block += pattern }
            // Whole buffers until a write fails: EPIPE once statectl has exited.
            func writeAll(_ bytes: [UInt8]) -> Bool {
                var offset = 0
                while offset < bytes.count {
                    let written = bytes[offset...].withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
                    if written < 0 && errno == EINTR { continue }
                    if written < 0 { return false }
                    offset += written
                }
                return true
            }
            if writeAll(Array(first.utf8)) {
                while writeAll(block) {}
            }
            close(writer)
            done.signal()
        }
        feeder.start()
        let run = try statectl(
            spawning: ["--db", fixture.database, "import"], environment: fixture.environment,
            stdin: .descriptor(ends[0])
        ) { _ in close(ends[0]) }
        done.wait()
        return run
    }
}
