// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "StateStore",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "StateStore", targets: ["StateStore"]),
        .executable(name: "statectl", targets: ["statectl"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .executableTarget(
            name: "MigrationEmbedder",
            path: "Sources/MigrationEmbedder"
        ),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["MigrationEmbedder"]
        ),
        .target(
            name: "StateStore",
            dependencies: ["CSQLite"],
            plugins: ["EmbedMigrations"]
        ),
        .executableTarget(
            name: "statectl",
            dependencies: ["StateStore"]
        ),
        .testTarget(
            name: "StateStoreTests",
            dependencies: ["StateStore", "CSQLite"]
        ),
        .testTarget(
            name: "statectlTests",
            dependencies: ["statectl", "StateStore", "CSQLite"]
        ),
        // Reliability (issue 6): crash, multi-process, fault and hostile-input tests, and the child
        // process they drive. The tests run the built `statestore-stress` and `statectl` binaries.
        .executableTarget(
            name: "statestore-stress",
            dependencies: ["StateStore"],
            path: "Tests/Helpers/StressHelper"
        ),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: ["StateStore", "CSQLite", "statestore-stress", "statectl"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
