import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MapSim
import MapSimKit
import MapSimCache
import MapSimJSON
import MapSimStyle

/// `mapsim cache`: look after the cache that `mapsim load` fills.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect, clear, invalidate or pre-fill the cache.",
        discussion: """
        The cache is one SQLite file (default: \(CacheLocation.defaultPath)). Past 50 MiB the least \
        recently used entries are evicted; entries of offline regions never are.

        Examples:
          mapsim cache stats
          mapsim cache download-region https://maps.test/style.json --bounds -122.6,37.7,-122.3,37.9 --min-zoom 0 --max-zoom 11
          mapsim cache invalidate --cache ./ci-cache.db
        """,
        subcommands: [Stats.self, Clear.self, Invalidate.self, DownloadRegion.self]
    )

    /// `--cache PATH`, shared by the subcommands that only need the file.
    struct CacheFile: ParsableArguments {
        @Option(help: ArgumentHelp("The cache file (default: \(CacheLocation.defaultPath)).", valueName: "PATH"))
        var cache: String?

        func open(readOnly: Bool = false) throws -> SQLiteCache {
            let path = cache ?? CacheLocation.defaultPath
            do {
                let opened = try SQLiteCache(path: path, options: .init(readOnly: readOnly))
                for warning in opened.warnings { printError("mapsim: warning: \(warning)") }
                return opened
            } catch {
                printError("mapsim: \(error)")
                throw ExitCode(74)
            }
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print what the cache holds.")

        @OptionGroup var file: CacheFile

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() throws {
            let cache = try file.open(readOnly: true)
            let stats = try cache.statistics()
            if json {
                print(JSONWriter.string(.object(JSONObject([
                    ("path", .string(cache.path)), ("resources", .number(Double(stats.resources))), ("tiles", .number(Double(stats.tiles))),
                    ("data-bytes", .number(Double(stats.dataBytes))), ("database-bytes", .number(Double(stats.databaseBytes))),
                    ("regions", .number(Double(stats.regions))), ("pinned", .number(Double(stats.pinnedEntries))),
                ]))))
            } else {
                print("""
                cache      \(cache.path)
                resources  \(stats.resources)
                tiles      \(stats.tiles)
                data       \(ByteCount.format(stats.dataBytes)) (file \(ByteCount.format(stats.databaseBytes)))
                regions    \(stats.regions) (\(stats.pinnedEntries) entries pinned)
                """)
            }
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove every entry that is not part of an offline region.")

        @OptionGroup var file: CacheFile

        func run() throws {
            let cache = try file.open()
            try cache.clear()
            print("cleared \(cache.path)")
        }
    }

    struct Invalidate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark every entry outside offline regions as expired, so the next load revalidates it.")

        @OptionGroup var file: CacheFile

        func run() throws {
            let cache = try file.open()
            try cache.invalidate()
            print("invalidated \(cache.path)")
        }
    }

    struct DownloadRegion: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "download-region",
            abstract: "Download a style and every tile of an area into the cache, for offline use.",
            discussion: """
            Fetches the style, its sprites, the glyph ranges its text can use, every source's \
            TileJSON and every tile from --min-zoom to --max-zoom inside --bounds, and pins them: \
            they are never evicted. Entries already cached are pinned without a request. Exit \
            status 0 when everything was downloaded, 1 when something failed (listed), 74 when the \
            cache cannot be written.
            """
        )

        @Argument(help: "The style: a file path, or a file://, http(s):// or mapbox:// URL.")
        var style: String

        @Option(parsing: .unconditional, help: ArgumentHelp("The area: west, south, east, north in degrees.", valueName: "W,S,E,N"))
        var bounds: BoundsArgument

        @Option(help: "The lowest zoom to download.")
        var minZoom: Int

        @Option(help: "The highest zoom to download.")
        var maxZoom: Int

        @Option(help: "The pixel ratio of sprites and {ratio} tiles.")
        var pixelRatio: Double = 1

        @OptionGroup(title: "Loading")
        var loading: LoadingOptions

        func validate() throws {
            guard (0...22).contains(minZoom), (0...22).contains(maxZoom), minZoom <= maxZoom else {
                throw ValidationError("--min-zoom and --max-zoom must be in 0...22 with min ≤ max")
            }
            if loading.noCache || loading.offline { throw ValidationError("a region is downloaded into the cache, from the network: drop --no-cache and --offline") }
        }

        func run() async throws {
            let styleURL = StyleLocation.url(for: style)
            let setup = loading.makeLoading(styleURL: styleURL)
            for warning in setup.warnings { printError("mapsim: warning: \(warning)") }
            guard let cache = setup.cache, let network = setup.backends.network else {
                await setup.shutdown()
                throw ExitCode(74)
            }
            let downloader = RegionDownloader(cache: cache, file: setup.backends.file, network: network,
                                              maximumConcurrentRequests: loading.maxRequests)
            let bar = ProgressBar(terminal: .standardOutput())
            let definition = RegionDefinition(styleURL: styleURL, bounds: bounds.value, minZoom: minZoom, maxZoom: maxZoom, pixelRatio: pixelRatio)
            do {
                let (id, progress) = try await downloader.download(definition) { bar.show($0) }
                await setup.shutdown()
                bar.finish()
                print("region \(id): \(progress.completedResources) of \(progress.requiredResources) resources, \(ByteCount.format(progress.completedBytes)) in \(cache.path)")
                guard progress.failures.isEmpty else {
                    for failure in progress.failures { printError("mapsim: failed: \(failure)") }
                    throw ExitCode(1)
                }
            } catch let error as CacheError {
                await setup.shutdown()
                bar.finish()
                printError("mapsim: \(error)")
                throw ExitCode(1)
            }
        }
    }
}

/// `W,S,E,N` on the command line.
struct BoundsArgument: ExpressibleByArgument {
    var value: LngLatBounds

    init?(argument: String) {
        let numbers = argument.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, (-180...180).contains(numbers[0]), (-180...180).contains(numbers[2]),
              (-90...90).contains(numbers[1]), (-90...90).contains(numbers[3]), numbers[0] < numbers[2], numbers[1] < numbers[3] else { return nil }
        value = LngLatBounds(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3])
    }
}

/// A one-line progress bar, redrawn in place on a terminal and silent elsewhere.
final class ProgressBar: Sendable {
    private let terminal: Terminal
    private let interactive: Bool

    init(terminal: Terminal) {
        self.terminal = terminal
        interactive = isatty(STDOUT_FILENO) == 1
    }

    func show(_ progress: RegionProgress) {
        guard interactive, progress.requiredResources > 0 else { return }
        let width = 30
        let fraction = Double(progress.completedResources + progress.failures.count) / Double(progress.requiredResources)
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let failed = progress.failures.isEmpty ? "" : terminal.paint(" \(progress.failures.count) failed", .red)
        FileHandle.standardOutput.write(Data("\r\u{1B}[K[\(bar)] \(Int(fraction * 100))% \(progress.completedResources)/\(progress.requiredResources) resources \(ByteCount.format(progress.completedBytes))\(failed)".utf8))
    }

    func finish() {
        if interactive { FileHandle.standardOutput.write(Data("\n".utf8)) }
    }
}
