import StateStore
import Testing

struct VersionTests {
    @Test func versionNamesToolAndSchema() throws {
        let run = try statectl(["--version"])
        #expect(run.status == 0)
        #expect(
            run.stdout.wholeMatch(of: /statectl \d+\.\d+\.\d+ \(schema (\d+)\)\n/)?.output.1
                == "\(WindowStore.schemaVersion)")
        #expect(run.stderr.isEmpty)
    }
}
