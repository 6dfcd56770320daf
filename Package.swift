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
    ],
    swiftLanguageModes: [.v6]
)
