// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "mapsim",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "MapSim", targets: ["MapSim"]),
        .library(name: "MapSimHTTP", targets: ["MapSimHTTP"]),
        .library(name: "MapSimCache", targets: ["MapSimCache"]),
        .library(name: "MapSimTesting", targets: ["MapSimTesting"]),
        .executable(name: "mapsim", targets: ["MapSimCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .target(name: "MapSim", dependencies: [.product(name: "Yams", package: "Yams")]),
        .target(
            name: "MapSimHTTP",
            dependencies: ["MapSim", .product(name: "AsyncHTTPClient", package: "async-http-client")]
        ),
        .target(
            name: "MapSimCache",
            dependencies: ["MapSim", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "MapSimTesting",
            dependencies: [
                "MapSim",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "MapSimCLI",
            dependencies: [
                "MapSim", "MapSimHTTP", "MapSimCache",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "MapSimTests", dependencies: ["MapSim", "MapSimTesting"], exclude: ["Validation/Fixtures"]),
        .testTarget(name: "MapSimHTTPTests", dependencies: ["MapSimHTTP", "MapSim", "MapSimTesting"]),
        .testTarget(name: "MapSimCacheTests", dependencies: ["MapSimCache", "MapSimHTTP", "MapSim", "MapSimTesting"]),
        .testTarget(name: "MapSimCLITests", dependencies: ["MapSimCLI", "MapSim", "MapSimTesting"]),
        .testTarget(name: "RegressionTests", dependencies: ["MapSim", "MapSimCache", "MapSimTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
