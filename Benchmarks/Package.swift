// swift-tools-version: 6.1
import PackageDescription

// Benchmarks for mapsim, kept out of the main package so that `swift build` and `swift test` do not
// build the benchmark framework. Run from this folder: `swift package benchmark`.
let package = Package(
    name: "mapsim-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "mapsim", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "MapLoad",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MapSim", package: "mapsim"),
                .product(name: "MapSimTrace", package: "mapsim"),
                .product(name: "MapSimTesting", package: "mapsim"),
            ],
            path: "Benchmarks/MapLoad",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Loading",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MapSim", package: "mapsim"),
                .product(name: "MapSimCache", package: "mapsim"),
                .product(name: "MapSimHTTP", package: "mapsim"),
                .product(name: "MapSimTesting", package: "mapsim"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/Loading",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Archives",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MapSim", package: "mapsim"),
                .product(name: "MapSimArchives", package: "mapsim"),
                .product(name: "MapSimTesting", package: "mapsim"),
            ],
            path: "Benchmarks/Archives",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Offline",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MapSim", package: "mapsim"),
                .product(name: "MapSimCache", package: "mapsim"),
                .product(name: "MapSimHTTP", package: "mapsim"),
                .product(name: "MapSimStyle", package: "mapsim"),
                .product(name: "MapSimTesting", package: "mapsim"),
            ],
            path: "Benchmarks/Offline",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Expressions",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MapSim", package: "mapsim"),
                .product(name: "MapSimStyle", package: "mapsim"),
                .product(name: "MapSimJSON", package: "mapsim"),
                .product(name: "MapSimTesting", package: "mapsim"),
            ],
            path: "Benchmarks/Expressions",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "TileDecoding",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MapSim", package: "mapsim"),
                .product(name: "MapSimJSON", package: "mapsim"),
                .product(name: "MapSimStyle", package: "mapsim"),
                .product(name: "MapSimTesting", package: "mapsim"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            path: "Benchmarks/TileDecoding",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "LiveData",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MapSim", package: "mapsim"),
                .product(name: "MapSimJSON", package: "mapsim"),
                .product(name: "MapSimLive", package: "mapsim"),
                .product(name: "MapSimStyle", package: "mapsim"),
                .product(name: "MapSimTesting", package: "mapsim"),
            ],
            path: "Benchmarks/LiveData",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DynamicEntities",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MapSim", package: "mapsim"),
                .product(name: "MapSimLive", package: "mapsim"),
            ],
            path: "Benchmarks/DynamicEntities",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Serve",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MapSim", package: "mapsim"),
                .product(name: "MapSimServe", package: "mapsim"),
                .product(name: "MapSimTesting", package: "mapsim"),
            ],
            path: "Benchmarks/Serve",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Validation",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MapSimStyle", package: "mapsim"),
            ],
            path: "Benchmarks/Validation",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
