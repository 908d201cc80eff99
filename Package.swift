// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "mapsim",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "MapSim", targets: ["MapSim"]),
        .library(name: "MapSimTesting", targets: ["MapSimTesting"]),
        .executable(name: "mapsim", targets: ["MapSimCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "MapSim"),
        .target(name: "MapSimTesting", dependencies: ["MapSim"]),
        .executableTarget(
            name: "MapSimCLI",
            dependencies: [
                "MapSim",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "MapSimTests", dependencies: ["MapSim", "MapSimTesting"]),
        .testTarget(name: "MapSimCLITests", dependencies: ["MapSimCLI", "MapSim", "MapSimTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
