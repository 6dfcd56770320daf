// swift-tools-version:6.0
// StateStore: the presentation state of adaptive app windows, kept in SQLite. MIT licence: see
// LICENSE (copyright The StateStore authors).
import PackageDescription

/// The folder this manifest is in, for the one flag that names a file of the package.
let packageFolder = String(#filePath.dropLast("/Package.swift".count))

let package = Package(
    name: "StateStore",
    // iOS 17 has all the adapter needs (`navigationDestination(item:)`) and Observation; nothing
    // here needs iOS 18 (the store's lock is a pthread mutex, not `Synchronization.Mutex`).
    platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "StateStore", targets: ["StateStore"]),
        .library(name: "StateStoreHost", targets: ["StateStoreHost"]),
        .library(name: "StateStoreSwiftUI", targets: ["StateStoreSwiftUI"]),
        .executable(name: "statectl", targets: ["statectl"]),
        // No `mailhost` product: Xcode offers a package's declared executable products in an app
        // target's product sheet, iOS apps included, and mailhost is a terminal program for this
        // repository. `swift run mailhost` needs none: SwiftPM makes a root package's executable
        // targets runnable by name.
    ],
    // Targets of this package that are not products are named `StateStore…` too (or in lower case,
    // for executables): every target of a package graph shares one namespace, so a client with its
    // own `TestSupport` or `Baselines` target would otherwise fail to resolve.
    targets: [
        // SQLite's C API: the SDK's libsqlite3 on Apple platforms, Debian's libsqlite3-dev on Linux. No
        // pkg-config: SwiftPM hands its flags to every client on every platform, so a Mac with
        // Homebrew's keg-only sqlite would link a macOS library into an iOS app. The module is named
        // for this package (the folder keeps the project's layout): `CSQLite` is taken by others.
        .systemLibrary(
            name: "StateStoreSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Writes Migrations/*.sql as Swift: `Scripts/embed-migrations.sh` runs it, and its output is
        // committed (Sources/StateStore/Store/Schema/EmbeddedMigrations.swift), checked by MigrationTests.
        // A tool for this repository, not a build step: no client builds it or trusts a plugin.
        .executableTarget(
            name: "StateStoreMigrationEmbedder",
            path: "Sources/MigrationEmbedder"
        ),
        .target(
            name: "StateStore",
            dependencies: ["StateStoreSQLite"]
        ),
        // What an app links: the live window model over StateStore. Foundation and
        // Observation are allowed here, never in StateStore (statectl's start-up).
        .target(
            name: "StateStoreHost",
            dependencies: ["StateStore"]
        ),
        // The SwiftUI adapter: compiled only where SwiftUI exists (every file is wrapped in
        // `#if canImport(SwiftUI)`), type-checked here by Scripts/check-swiftui.sh against a stand-in.
        .target(
            name: "StateStoreSwiftUI",
            dependencies: ["StateStoreHost", "StateStore"]
        ),
        .executableTarget(
            name: "statectl",
            dependencies: ["StateStore"],
            // A release statectl carries the Swift runtime, so it starts fast and runs where no Swift is
            // installed, and the C++ runtime that one needs (Linker/libstdc++.so says how), so that its
            // start does not relocate libstdc++.so. Only an executable may: unsafe flags on a library
            // would stop hosts depending on it.
            linkerSettings: [
                .unsafeFlags(
                    ["-static-stdlib", "-L" + packageFolder + "/Linker"],
                    .when(platforms: [.linux], configuration: .release))
            ]
        ),
        // A terminal mail app over StateStoreHost: the whole loop on a real window, the
        // terminal, whose width is its size class. No SQL and no SQLite module: what any host links.
        // Its mail — the routes and the sample mailbox — is the sample app's own files, compiled
        // here too through the link Examples/MailHost/Shared: one mail domain for both examples.
        .executableTarget(
            name: "mailhost",
            dependencies: ["StateStoreHost", "StateStore"],
            path: "Examples/MailHost",
            exclude: ["README.md"]
        ),
        // Fixtures and helpers the test targets share.
        .target(
            name: "StateStoreTestSupport",
            dependencies: ["StateStore", "StateStoreSQLite"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "StateStoreTests",
            dependencies: ["StateStore", "StateStoreSQLite", "StateStoreTestSupport", "StateStoreMigrationEmbedder"]
        ),
        // The library as an app sees it: StateStore alone, no Foundation, no test helpers.
        .testTarget(
            name: "HostStyleTests",
            dependencies: ["StateStore"]
        ),
        .testTarget(
            name: "StateStoreHostTests",
            dependencies: ["StateStoreHost", "StateStore", "StateStoreSQLite", "StateStoreTestSupport", "statectl"]
        ),
        .testTarget(
            name: "statectlTests",
            // Not "statectl": the tests run the built binary, and linking its code in would bring its
            // static runtime into the test bundle too (`swift build` builds statectl anyway).
            dependencies: ["StateStore", "StateStoreSQLite", "StateStoreTestSupport"]
        ),
        // The built `mailhost`, driven through a pseudo-terminal as a user drives it: keys and sizes
        // in, the screen read back through a model of a terminal.
        .testTarget(
            name: "MailHostTests",
            dependencies: ["StateStoreTestSupport", "mailhost", "statectl"]
        ),
        // Reliability: crash, multi-process, fault and hostile-input tests, and the child
        // process they drive. The tests run the built `statestore-stress` and `statectl` binaries.
        .executableTarget(
            name: "statestore-stress",
            dependencies: ["StateStore"],
            path: "Tests/Helpers/StressHelper"
        ),
        // A host process (StateStoreHost, Dispatch, Foundation) for the reliability tests that need
        // one under limits set before it opens its session (file descriptors).
        .executableTarget(
            name: "statestore-host",
            dependencies: ["StateStore", "StateStoreHost"],
            path: "Tests/Helpers/HostHelper"
        ),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "StateStore", "StateStoreSQLite", "StateStoreTestSupport", "statestore-stress", "statestore-host",
                "statectl",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Benchmarks (README, "Performance"): `swift run -c release statebench`. StateStore against a
// baseline written on the SQLite C API and against one JSON file per window, in one run.
package.targets += [
    .target(name: "StateStoreRawSQLite", dependencies: ["StateStoreSQLite"], path: "Benchmarks/RawSQLite"),
    .target(
        name: "StateStoreBaselines", dependencies: ["StateStore", "StateStoreRawSQLite", "StateStoreSQLite"],
        path: "Benchmarks/Baselines"),
    // StateStoreHost for the launch and host figures; statectl itself never links it.
    .executableTarget(
        name: "statebench", dependencies: ["StateStoreBaselines", "StateStoreHost", "statectl"],
        path: "Benchmarks/statebench"),
    .testTarget(name: "BaselinesTests", dependencies: ["StateStoreBaselines"], path: "Benchmarks/BaselinesTests"),
]
