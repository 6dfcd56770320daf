import StateStore
import Testing

struct DeleteTests {
    @Test func deletesAWindowAndItsHistory() throws {
        let fixture = Fixture()
        try fixture.save("s", "a") { $0.push(route("A")) }
        try fixture.save("s", "a") { $0.push(route("B")) }
        try fixture.save("s", "b") { $0.push(route("A")) }
        let run = try fixture.run(["delete", "s", "a"])
        #expect(run.status == 0)
        #expect(run.stdout == "Deleted window 's' 'a'.\n")
        #expect(try fixture.store().window(session: "s", window: "a") == nil)
        #expect(try fixture.store().history(session: "s", window: "a").isEmpty)
        #expect(try fixture.store().window(session: "s", window: "b") != nil)
        let again = try fixture.run(["delete", "s", "a"])
        #expect(again.status == 66)
        #expect(again.stderr == "Error: window 's' 'a' not found\n")
    }

    @Test func deletesASession() throws {
        let fixture = Fixture()
        for window in ["b", "a"] { try fixture.save("s", window) { $0.push(route("A")) } }
        try fixture.save("t", "a") { $0.push(route("A")) }
        let run = try fixture.run(["delete", "s", "--json"])
        #expect(run.status == 0)
        let result = try jsonObject(run.stdout)
        #expect(result["session"] as? String == "s")
        #expect(result["windows"] as? [String] == ["a", "b"])
        #expect(try fixture.store().windows(session: "s").isEmpty)
        #expect(try fixture.store().windows(session: "t").count == 1)
        let before = try fixture.dump()
        let again = try fixture.run(["delete", "s"])
        #expect(again.status == 66)
        #expect(again.stderr.hasPrefix("Error: session 's' not found"))
        #expect(try fixture.dump() == before)
    }
}
