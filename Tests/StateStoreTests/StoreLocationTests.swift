import StateStore
import Testing

/// The default home of a store (SPEC §6.1, §8) and the Darwin notification's name (issue 28):
/// pure rules, each platform's tested on any machine.
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
