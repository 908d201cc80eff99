// swift-tools-version: 6.1
import PackageDescription

// Targets by concern; dependencies point one way (Sources/README.md):
//
//   MapSimJSON ← MapSimStyle ← MapSim ← MapSimLive ← MapSimTrace ─┐
//                                    ← MapSimPages ← MapSimTrace  │
//                                    ← MapSimPages ← MapSimServe ─┤
//                                    ← MapSimCache ───────────────┤
//                                    ← MapSimArchives ────────────┤
//                                    ← MapSimHTTP ────────────────┼← MapSimKit ← MapSimCLI ← MapSimMain
//                                    ← MapSimContent ─────────────┘
//
// MapSimTesting (test support) depends on the engine only. Every target declares exactly the
// modules it imports; the CLI imports MapSimKit alone, which hands on the libraries' types.

/// A release build of the `mapsim` executable on Linux carries the Swift runtime and Foundation
/// inside it, as `--static-swift-stdlib` would: loading them as shared libraries — binding tens of
/// thousands of symbols, faulting in their pages, and the runtime's scans of all their conformance
/// records — were a third of a `load` of the sample (16.2 ms, 11.1 ms static). The static
/// Foundation needs its parts named: what its shared library would have loaded itself, a list that
/// changes with the toolchain — so only with the one it was checked with (6.3), else the shared
/// libraries as before. LLVM's linker (in every Swift toolchain for Linux) links it without gold's
/// warning about a `mktemp` inside Foundation. Only the executable's own target carries this
/// (MapSimMain): the tests link MapSimCLI against the shared runtime, as their frameworks do.
#if compiler(>=6.3) && compiler(<6.4)
let staticRuntimeInRelease: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-lCoreFoundation", "-lFoundationInternationalization", "-lFoundationEssentials", "-l_FoundationCollections",
                  "-l_FoundationCShims", "-l_FoundationICU", "-lswiftSynchronization", "-lswiftDispatch", "-ldispatch", "-lBlocksRuntime",
                  "-use-ld=lld"],
                 .when(platforms: [.linux], configuration: .release)),
]
#else
let staticRuntimeInRelease: [LinkerSetting] = []
#endif

let package = Package(
    name: "mapsim",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "MapSimJSON", targets: ["MapSimJSON"]),
        .library(name: "MapSimStyle", targets: ["MapSimStyle"]),
        .library(name: "MapSim", targets: ["MapSim"]),
        .library(name: "MapSimTrace", targets: ["MapSimTrace"]),
        .library(name: "MapSimPages", targets: ["MapSimPages"]),
        .library(name: "MapSimHTTP", targets: ["MapSimHTTP"]),
        .library(name: "MapSimCache", targets: ["MapSimCache"]),
        .library(name: "MapSimArchives", targets: ["MapSimArchives"]),
        .library(name: "MapSimKit", targets: ["MapSimKit"]),
        .library(name: "MapSimLive", targets: ["MapSimLive"]),
        .library(name: "MapSimContent", targets: ["MapSimContent"]),
        .library(name: "MapSimServe", targets: ["MapSimServe"]),
        .library(name: "MapSimTesting", targets: ["MapSimTesting"]),
        .executable(name: "mapsim", targets: ["MapSimMain"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        // `swift package generate-documentation`: the manual, a DocC catalog (Sources/MapSim/MapSim.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // memmem, for a reading of a JSON document that tells a key never comes again without walking the rest.
        .target(name: "CByteSearch"),
        .target(name: "MapSimJSON", dependencies: ["CByteSearch"]),
        // ICU's collation, from the ICU inside Foundation on Linux, for the `collator` expression.
        .target(name: "CICUCollation", linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]),
        // Threads started on another core than their creator's, for the checks of a style's layers.
        .target(name: "CThreadPlacement"),
        // How far the allocator grows a heap at a time, for `validate`'s layer-checking threads.
        .target(name: "CHeapGrowth"),
        // Standard output that ends the process at a closed pipe, as SIGPIPE would had SwiftNIO not ignored it.
        .target(name: "CClosedPipe"),
        // libdeflate, which deflates a whole body two to three times faster than zlib at its level.
        .systemLibrary(name: "CLibDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
        // zlib, which inflates a gzip answer's stream whole as strictly as MapLibre Native's zlib reads it.
        .systemLibrary(name: "CZlibInflate", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "MapSimStyle", dependencies: ["MapSimJSON", "CICUCollation", "CThreadPlacement"]),
        .target(
            name: "MapSim",
            dependencies: [
                "MapSimJSON", "MapSimStyle", "CLibDeflate", "CZlibInflate", .product(name: "CompressNIO", package: "compress-nio"), .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(
            name: "MapSimLive",
            dependencies: [
                "MapSim", "MapSimJSON", "MapSimStyle",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "MapSimContent",
            dependencies: ["MapSim", "MapSimJSON", .product(name: "Crypto", package: "swift-crypto"), .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        // The HTML pages: reports of traces and suites, and `mapsim serve`'s own page.
        .target(name: "MapSimPages", dependencies: ["MapSim", "MapSimJSON"]),
        .target(name: "MapSimTrace", dependencies: ["MapSim", "MapSimJSON", "MapSimStyle", "MapSimLive", "MapSimPages", .product(name: "Yams", package: "Yams")]),
        .target(
            name: "MapSimHTTP",
            dependencies: [
                "MapSim", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "MapSimCache",
            dependencies: [
                "MapSim", "MapSimStyle", "MapSimJSON", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "MapSimArchives",
            dependencies: ["MapSim", "MapSimJSON", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        .target(
            name: "MapSimServe",
            dependencies: [
                "MapSim", "MapSimJSON", "MapSimStyle", "MapSimArchives", "MapSimPages",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(name: "MapSimKit", dependencies: ["MapSimServe", "MapSim", "MapSimStyle", "MapSimJSON", "MapSimTrace", "MapSimCache", "MapSimArchives", "MapSimHTTP", "MapSimLive", "MapSimContent"]),
        .target(
            name: "MapSimTesting",
            dependencies: [
                "MapSim", "MapSimJSON",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "MapSimCLI",
            dependencies: ["MapSimKit", "CHeapGrowth", "CClosedPipe", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(name: "MapSimMain", dependencies: ["MapSimCLI"], linkerSettings: staticRuntimeInRelease),
        .testTarget(name: "MapSimJSONTests", dependencies: ["MapSimJSON"]),
        .testTarget(name: "MapSimStyleTests", dependencies: ["MapSimStyle", "MapSimJSON", "MapSim", "MapSimTesting"], exclude: ["Expressions/Fixtures", "Validation/Fixtures"]),
        .testTarget(name: "MapSimTests", dependencies: ["MapSim", "MapSimStyle", "MapSimJSON", "MapSimTesting"], exclude: ["Formats/Fixtures", "Geometry/Fixtures"]),
        .testTarget(name: "MapSimTraceTests", dependencies: ["MapSimTrace", "MapSim", "MapSimJSON", "MapSimTesting"]),
        .testTarget(name: "MapSimHTTPTests", dependencies: ["MapSimHTTP", "MapSim", "MapSimTesting", .product(name: "NIOCore", package: "swift-nio")]),
        .testTarget(
            name: "MapSimCacheTests",
            dependencies: ["MapSimCache", "MapSimHTTP", "MapSim", "MapSimStyle", "MapSimJSON", "MapSimTesting", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "CompressNIO", package: "compress-nio"), .product(name: "NIOCore", package: "swift-nio")]
        ),
        .testTarget(
            name: "MapSimServeTests",
            dependencies: ["MapSimServe", "MapSim", "MapSimJSON", "MapSimCache", "MapSimHTTP", "MapSimTesting",
                           .product(name: "AsyncHTTPClient", package: "async-http-client")]
        ),
        .testTarget(name: "MapSimLiveTests", dependencies: ["MapSimLive", "MapSim", "MapSimJSON", "MapSimStyle", "MapSimTesting",
                                                    .product(name: "NIOEmbedded", package: "swift-nio"),
                                                    .product(name: "NIOWebSocket", package: "swift-nio")]),
        .testTarget(name: "MapSimContentTests", dependencies: ["MapSimContent", "MapSim", "MapSimJSON", "MapSimTesting", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "MapSimKitTests", dependencies: ["MapSimKit", "MapSim", "MapSimCache", "MapSimServe", "MapSimTesting"]),
        .testTarget(
            name: "MapSimArchivesTests",
            dependencies: ["MapSimArchives", "MapSim", "MapSimJSON", "MapSimStyle", "MapSimTesting", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "MapSimCLITests",
            dependencies: ["MapSimCLI", "MapSim", "MapSimJSON", "MapSimStyle", "MapSimCache", "MapSimLive", "MapSimTesting",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "AsyncHTTPClient", package: "async-http-client")]
        ),
        .testTarget(
            name: "MapSimPagesTests",
            dependencies: ["MapSimPages", "MapSimTrace", "MapSimServe", "MapSimKit", "MapSim", "MapSimJSON", "MapSimHTTP", "MapSimTesting",
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(name: "RegressionTests", dependencies: ["MapSimKit", "MapSimTrace", "MapSim", "MapSimHTTP", "MapSimJSON", "MapSimStyle", "MapSimLive", "MapSimServe", "MapSimTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
