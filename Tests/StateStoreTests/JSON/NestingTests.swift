import StateStore
import Testing

struct NestingTests {
    /// `{"a":[{"a":[…]}]}`, `depth` containers deep.
    func nested(_ depth: Int, closing closers: [Character]? = nil) -> String {
        let openers = (0..<depth).map { $0 % 2 == 0 ? #"{"a":"# : "[" }
        let closers = closers ?? (0..<depth).reversed().map { $0 % 2 == 0 ? "}" : "]" }
        return openers.joined() + "1" + String(closers)
    }

    @Test(arguments: [1, 2, 63, 64, 65, 66, 130, 512])
    func mixedContainersNestAsDeepAsAllowed(_ depth: Int) throws {
        let text = nested(depth)
        #expect(try Route(type: "T", json: text).json == text)
    }

    @Test(arguments: [1, 2, 63, 64, 65, 200])
    func aWrongCloserIsFoundAtAnyDepth(_ depth: Int) {
        var closers = (0..<512).reversed().map { $0 % 2 == 0 ? Character("}") : Character("]") }
        // Swap the closer of container `depth - 1` (counted from the outside) for the other kind.
        let position = 512 - depth
        closers[position] = closers[position] == "}" ? "]" : "}"
        #expect(throws: StateStoreError.self) { try Route(type: "T", json: nested(512, closing: closers)) }
    }

    @Test func deeperThanTheLimitIsRefused() {
        #expect(throws: StateStoreError.self) { try Route(type: "T", json: nested(513)) }
    }
}
