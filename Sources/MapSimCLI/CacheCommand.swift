import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim cache`: look after the cache that `mapsim load` fills.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect, clear, invalidate or pre-fill the cache.",
        discussion: """
        The cache is one SQLite file (default: \(CacheLocation.defaultDescription)). Past 50 MiB the least \
        recently used entries are evicted; entries of offline regions never are.

        Examples:
          mapsim cache stats
          mapsim cache download-region https://maps.test/style.json \\
              --bounds -122.6,37.7,-122.3,37.9 --min-zoom 0 --max-zoom 11
          mapsim cache invalidate --cache ./ci-cache.db
        """,
        subcommands: [Stats.self, Clear.self, Invalidate.self, DownloadRegion.self]
    )

    /// `--cache PATH`, shared by the subcommands that only need the file.
    struct CacheFile: ParsableArguments {
        @Option(help: ArgumentHelp("The cache file (default: \(CacheLocation.defaultDescription)).", valueName: "PATH"))
        var cache: String?

        func open(readOnly: Bool = false) throws -> SQLiteCache {
            let path = cache ?? CacheLocation.defaultPath
            do {
                let opened = try LoadingEnvironment.openCache(at: path, readOnly: readOnly)
                for warning in opened.warnings { printError("mapsim: warning: \(warning)") }
                return opened
            } catch {
                throw ExitStatus.fail(error)
            }
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stats", abstract: "Print what the cache holds.")

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
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every entry that is not part of an offline region.")

        @OptionGroup var file: CacheFile

        func run() throws {
            let cache = try file.open()
            try cache.clear()
            print("cleared \(cache.path)")
        }
    }

    struct Invalidate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "invalidate", abstract: "Mark every entry outside offline regions as expired, so the next load revalidates it.")

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
            let environment = loading.environment(styleURL: styleURL)
            let bar = ProgressBar(terminal: .standardOutput())
            let definition = RegionDefinition(styleURL: styleURL, bounds: bounds.value, minZoom: minZoom, maxZoom: maxZoom, pixelRatio: pixelRatio)
            let outcome: Result<(id: Int64, progress: RegionProgress), CacheError>
            do {
                outcome = .success(try await environment.downloadRegion(definition) { bar.show($0) })
            } catch {
                outcome = .failure(error)
            }
            await environment.shutdown()
            bar.finish()
            switch outcome {
            case .failure(let error):
                throw ExitStatus.fail(error)
            case .success(let (id, progress)):
                print("region \(id): \(progress.completedResources) of \(progress.requiredResources) resources, \(ByteCount.format(progress.completedBytes)) in \(environment.cache?.path ?? "")")
                guard progress.failures.isEmpty else {
                    for failure in progress.failures { printError("mapsim: failed: \(failure)") }
                    throw ExitStatus.failure
                }
            }
        }
    }
}
