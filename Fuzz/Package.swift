// swift-tools-version: 6.1
import PackageDescription

// Coverage-guided fuzz targets (libFuzzer) for every reader of bytes that come from outside.
// Build and run with `Fuzz/run` (it passes -sanitize=fuzzer to every module, so that the
// readers themselves are instrumented); Fuzz/README.md lists the targets.
let package = Package(
    name: "mapsim-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "mapsim", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(name: "CFuzzDriver"),
        .executableTarget(
            name: "MapSimFuzz",
            dependencies: [
                "CFuzzDriver",
                .product(name: "MapSimJSON", package: "mapsim"),
                .product(name: "MapSimStyle", package: "mapsim"),
                .product(name: "MapSim", package: "mapsim"),
                .product(name: "MapSimLive", package: "mapsim"),
                .product(name: "MapSimTrace", package: "mapsim"),
                .product(name: "MapSimContent", package: "mapsim"),
                .product(name: "MapSimCache", package: "mapsim"),
                .product(name: "MapSimArchives", package: "mapsim"),
                .product(name: "MapSimServe", package: "mapsim"),
                .product(name: "MapSimHTTP", package: "mapsim"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
    ]
)
