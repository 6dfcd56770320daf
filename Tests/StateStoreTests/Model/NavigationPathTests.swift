import Foundation
import StateStore
import Testing

struct NavigationPathTests {
    @Test func encodesLastElementFirstAsTheIssueShows() {
        let routes = [route("App.Folder", #""inbox""#), route("App.Thread", #"{"id":42}"#)]
        #expect(NavigationPathCoding.json(for: routes) == #"["App.Thread","{\"id\":42}","App.Folder","\"inbox\""]"#)
        #expect(NavigationPathCoding.json(for: []) == "[]")
    }

    @Test func decodesWhatItEncodes() throws {
        let routes = [route("A", "null"), route("B.C", #"{"k":[1,"x y"],"é":"😀"}"#), route("D", #""\u00e9""#)]
        #expect(try NavigationPathCoding.routes(from: NavigationPathCoding.json(for: routes)) == routes)
        // Element JSON is minified on the way in, whitespace in the outer array is fine.
        let decoded = try NavigationPathCoding.routes(from: #" [ "T" , "{ \"a\" : 1 }" ] "#)
        #expect(decoded == [route("T", #"{"a":1}"#)])
    }

    @Test(
        "malformed representations are bad data",
        arguments: [
            #"["T"]"#, #"["T","1","U"]"#, #"["T",1]"#, #"[1,"1"]"#, #"["T","{"]"#, #"["T","1 2"]"#, #"{"T":"1"}"#,
            #"["","1"]"#, #"["T","1"] x"#, "", "[", #"["T",null]"#, #"["T\u0000","1"]"#,
        ])
    func refusesMalformed(_ text: String) {
        #expect(throws: StateStoreError.self) { try NavigationPathCoding.routes(from: text) }
    }
}
