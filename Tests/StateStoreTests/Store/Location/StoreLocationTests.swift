import StateStore
import Testing

/// The default home of a store on each platform and the Darwin notification's name: pure rules,
/// each platform's tested on any machine.
struct StoreLocationTests {
    private func environment(_ values: [String: String]) -> (String) -> String? {
        { values[$0] }
    }

    @Test func aContainersStoreIsInApplicationSupport() {
        #expect(StoreLocation.pathInContainer == "Library/Application Support/StateStore/state.db")
        #expect(
            StoreLocation.path(inContainer: "/Users/me/Library/Containers/com.example.mail/Data")
                == "/Users/me/Library/Containers/com.example.mail/Data/Library/Application Support/StateStore/state.db")
        #expect(
            StoreLocation.path(inContainer: "/private/var/mobile/Containers/Shared/AppGroup/1234//")
                == "/private/var/mobile/Containers/Shared/AppGroup/1234/Library/Application Support/StateStore/state.db"
        )
        #expect(StoreLocation.path(inContainer: "/") == "/Library/Application Support/StateStore/state.db")
    }

    @Test func appleDefaultsToTheHomesApplicationSupportAndIgnoresXDG() {
        let home = environment(["HOME": "/Users/me", "XDG_STATE_HOME": "/Users/me/.state"])
        #expect(
            StoreLocation.defaultPath(on: .apple, environment: home)
                == "/Users/me/Library/Application Support/StateStore/state.db")
        #expect(
            DatabaseLocation.path(option: nil, environment: home, platform: .apple)
                == "/Users/me/Library/Application Support/StateStore/state.db")
        #expect(
            DatabaseLocation.path(
                option: nil, environment: environment(["HOME": "/h", "STATECTL_DB": "/x.db"]), platform: .apple)
                == "/x.db")
        #expect(DatabaseLocation.path(option: "/o.db", environment: home, platform: .apple) == "/o.db")
    }

    @Test func linuxDefaultsToXDGStateHomeThenTheHome() {
        #expect(
            StoreLocation.defaultPath(on: .linux, environment: environment(["HOME": "/h", "XDG_STATE_HOME": "/s/"]))
                == "/s/statectl/state.db")
        for xdg in [nil, "", "relative"] as [String?] {
            var values = ["HOME": "/home/me/"]
            values["XDG_STATE_HOME"] = xdg
            #expect(
                StoreLocation.defaultPath(on: .linux, environment: environment(values))
                    == "/home/me/.local/state/statectl/state.db")
        }
    }

    @Test func thisPlatformsDefaultIsTheLinuxOneHere() {
        #if os(Linux)
            #expect(StoreLocation.Platform.current == .linux)
            #expect(
                StoreLocation.defaultPath(environment: environment(["HOME": "/h"]))
                    == "/h/.local/state/statectl/state.db")
        #endif
    }

    @Test func tvOSKeepsItsStoreInCaches() {
        #expect(StoreLocation.cachesPathInContainer == "Library/Caches/StateStore/state.db")
        let container = "/var/mobile/Containers/Data/Application/ABCD/"
        #expect(
            StoreLocation.path(inContainer: container, on: .tvOS)
                == "/var/mobile/Containers/Data/Application/ABCD/Library/Caches/StateStore/state.db")
        for system in [StoreLocation.AppleSystem.iOS, .macOS] {
            #expect(
                StoreLocation.path(inContainer: container, on: system) == StoreLocation.path(inContainer: container))
        }
    }

    @Test func aMacAppThatIsNotSandboxedHasAFolderOfItsOwn() throws {
        #expect(
            try StoreLocation.macAppPath(bundleIdentifier: "com.example.mail", home: "/Users/me/")
                == "/Users/me/Library/Application Support/com.example.mail/StateStore/state.db")
        #expect(
            try StoreLocation.macAppPath(bundleIdentifier: "com.example.notes", home: "/Users/me")
                != StoreLocation.macAppPath(bundleIdentifier: "com.example.mail", home: "/Users/me"),
            "never one file for every app")
        #expect(
            try StoreLocation.macAppContainer(bundleIdentifier: "com.example.mail", home: "/Users/me")
                == "/Users/me/Library/Containers/com.example.mail/Data")
        let group = try StoreLocation.macGroupContainer(group: "group.com.example.mail", home: "/Users/me")
        #expect(group == "/Users/me/Library/Group Containers/group.com.example.mail")
        #expect(
            StoreLocation.path(inContainer: group)
                == "/Users/me/Library/Group Containers/group.com.example.mail/Library/Application Support/StateStore/state.db"
        )
        #expect(
            try StoreLocation.macGroupContainer(group: "TEAM123456.com.example.shared", home: "/")
                == "/Library/Group Containers/TEAM123456.com.example.shared")
    }

    @Test(arguments: [
        "", ".", "..", "a/b", "../x", "a\u{0}b", "com.example.mail\n", "a b", "é.example", "x:y", "a\\b",
        String(repeating: "a", count: 256),
    ])
    func anIdentifierThatWouldNotNameOneFolderIsRefused(_ identifier: String) {
        #expect(throws: StateStoreError.self) { try StoreLocation.validateIdentifier(identifier) }
        #expect(throws: StateStoreError.self) { try StoreLocation.macAppPath(bundleIdentifier: identifier, home: "/h") }
        #expect(throws: StateStoreError.self) {
            try StoreLocation.macAppContainer(bundleIdentifier: identifier, home: "/h")
        }
        #expect(throws: StateStoreError.self) { try StoreLocation.macGroupContainer(group: identifier, home: "/h") }
    }

    @Test func identifiersAsAppleWritesThem() throws {
        for identifier in [
            "com.example.mail", "group.com.example.mail", "A-1.b", "...", String(repeating: "a", count: 255),
        ] {
            try StoreLocation.validateIdentifier(identifier)
        }
    }

    @Test func anAppsDefaultPathOnEachSystem() throws {
        func path(_ system: StoreLocation.AppleSystem, bundle: String?, sandboxed: Bool) throws -> String {
            try StoreLocation.appPath(on: system, home: "/home/app", bundleIdentifier: bundle, sandboxed: sandboxed)
        }
        let support = "/home/app/Library/Application Support/StateStore/state.db"
        #expect(try path(.iOS, bundle: "com.example.mail", sandboxed: true) == support)
        #expect(try path(.iOS, bundle: nil, sandboxed: false) == support, "an iOS app is always in its container")
        #expect(
            try path(.tvOS, bundle: "com.example.mail", sandboxed: true)
                == "/home/app/Library/Caches/StateStore/state.db")
        #expect(try path(.macOS, bundle: "com.example.mail", sandboxed: true) == support)
        #expect(
            try path(.macOS, bundle: "com.example.mail", sandboxed: false)
                == "/home/app/Library/Application Support/com.example.mail/StateStore/state.db")
        #expect(throws: StateStoreError.self, "no bundle identifier to name its folder") {
            try path(.macOS, bundle: nil, sandboxed: false)
        }
        #expect(throws: StateStoreError.self) { try path(.macOS, bundle: "a/b", sandboxed: false) }
    }

    @Test func theSandboxIsToldByTheVariableTheSystemSets() {
        #expect(StoreLocation.isSandboxed(environment: environment(["APP_SANDBOX_CONTAINER_ID": "com.example.mail"])))
        #expect(!StoreLocation.isSandboxed(environment: environment(["APP_SANDBOX_CONTAINER_ID": ""])))
        #expect(!StoreLocation.isSandboxed(environment: environment(["HOME": "/Users/me"])))
    }

    @Test func thisSystemIsNoneOffApplePlatforms() {
        #if os(Linux)
            #expect(StoreLocation.AppleSystem.current == nil)
        #endif
    }

    /// An environment that refuses a variable (as ``StoreLocation/environmentValue(_:)`` refuses
    /// bytes that are not UTF-8) stops the rule at the first variable it needs, and only then.
    @Test func anEnvironmentThatRefusesAVariableStopsTheRuleWhereItIsRead() throws {
        struct Refused: Error, Equatable { let name: String }
        func refusing(_ bad: String, _ values: [String: String]) -> (String) throws(Refused) -> String? {
            { name throws(Refused) in
                if name == bad { throw Refused(name: name) }
                return values[name]
            }
        }
        #expect(throws: Refused(name: "STATECTL_DB")) {
            try DatabaseLocation.path(option: nil, environment: refusing("STATECTL_DB", [:]), platform: .linux)
        }
        #expect(throws: Refused(name: "XDG_STATE_HOME")) {
            try DatabaseLocation.path(
                option: nil, environment: refusing("XDG_STATE_HOME", ["HOME": "/h"]), platform: .linux)
        }
        #expect(throws: Refused(name: "HOME")) {
            try DatabaseLocation.path(option: nil, environment: refusing("HOME", [:]), platform: .apple)
        }
        // Never read: an option, STATECTL_DB, or (on Apple platforms) XDG_STATE_HOME.
        #expect(try DatabaseLocation.path(option: "/o.db", environment: refusing("STATECTL_DB", [:])) == "/o.db")
        #expect(
            try DatabaseLocation.path(option: nil, environment: refusing("HOME", ["STATECTL_DB": "/x.db"])) == "/x.db")
        #expect(
            try DatabaseLocation.path(
                option: nil, environment: refusing("XDG_STATE_HOME", ["HOME": "/h"]), platform: .apple)
                == "/h/Library/Application Support/StateStore/state.db")
    }

    @Test func theNotificationNameIsAHashOfTheResolvedPathWithAnOptionalPrefix() {
        let plain = CommitNotice.name(forResolvedPath: "/a/state.db", prefix: nil)
        #expect(plain.hasPrefix("statestore.changes."))
        #expect(plain.count == "statestore.changes.".count + 16)
        #expect(plain.dropFirst("statestore.changes.".count).allSatisfy { $0.isHexDigit && !$0.isUppercase })
        // FNV-1a 64 of "" is its offset basis: the derivation is the documented one.
        #expect(CommitNotice.name(forResolvedPath: "", prefix: nil) == "statestore.changes.cbf29ce484222325")
        #expect(CommitNotice.name(forResolvedPath: "/a/state.db", prefix: nil) == plain, "stable")
        #expect(CommitNotice.name(forResolvedPath: "/b/state.db", prefix: nil) != plain)
        #expect(
            CommitNotice.name(forResolvedPath: "/a/state.db", prefix: "group.com.example.mail")
                == "group.com.example.mail." + plain)
        #expect(CommitNotice.name(forResolvedPath: "/a/state.db", prefix: "group.x.") == "group.x." + plain)
        #expect(CommitNotice.names(forResolvedPath: "/a/state.db", prefix: nil) == [plain])
        #expect(CommitNotice.names(forResolvedPath: "/a/state.db", prefix: "") == [plain])
        #expect(CommitNotice.names(forResolvedPath: "/a/state.db", prefix: "g") == ["g." + plain, plain])
    }

    @Test func nothingIsPostedOnLinux() {
        #if os(Linux)
            #expect(CommitNotice(path: "/a/state.db", prefix: "g").names.isEmpty)
        #endif
        #expect(CommitNotice(path: ":memory:", prefix: nil).names.isEmpty)
    }
}
