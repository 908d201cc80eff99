import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim cache`: look after the offline database that `mapsim load` fills — MapLibre Native's
/// operations on the ambient cache and the file.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect, clear, invalidate, reset or pack the cache (a MapLibre offline database).",
        discussion: """
        The cache is MapLibre Native's offline database (schema version 6), the file apps built on \
        MapLibre Native keep: an app's database is a cache mapsim loads from, and one mapsim writes \
        opens in the app. Default: \(CacheLocation.defaultDescription). What no offline region holds \
        is the ambient cache: past its maximum size (50 MiB, --max-cache-size on loading commands) \
        the least recently used entries are evicted. Offline regions live under `mapsim region`.

        Examples:
          mapsim cache stats --cache app.db
          mapsim cache invalidate --cache ./ci-cache.db
          mapsim cache clear
          mapsim cache pack --cache app.db
        """,
        subcommands: [Stats.self, Clear.self, Invalidate.self, Reset.self, Pack.self]
    )

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            // Parsed as a root by `mapsim cache stats` (MapSimCommand.leafCommand): "mapsim cache" is its super-command.
            _superCommandName: "mapsim cache",
            abstract: "Print what the database holds.",
            discussion: ExitStatus.section([(ExitStatus.success, "the statistics are printed"), (ExitStatus.cannotWrite, "the cache cannot be opened")]))

        @OptionGroup var file: CacheFileOption

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() throws {
            let cache = try file.open(readOnly: true)
            let stats: CacheStatistics
            do {
                stats = try cache.statistics()
            } catch {
                throw ExitStatus.fail(error)
            }
            if json {
                print(JSONWriter.string(.object(JSONObject([
                    ("path", .string(cache.path)), ("resources", .number(Double(stats.resources))), ("tiles", .number(Double(stats.tiles))),
                    ("data-bytes", .number(Double(stats.dataBytes))), ("ambient-bytes", .number(Double(stats.ambientBytes))),
                    ("ambient-rows", .number(Double(stats.ambientRows))), ("maximum-ambient-bytes", .number(Double(stats.maximumAmbientCacheSize))),
                    ("regions", .number(Double(stats.regions))), ("region-rows", .number(Double(stats.regionRows))),
                    ("file-bytes", .number(Double(stats.fileBytes))),
                ]))))
            } else {
                print("""
                cache          \(cache.path)
                resources      \(stats.resources)
                tiles          \(stats.tiles)
                data           \(ByteCount.format(stats.dataBytes)) stored
                ambient cache  \(ByteCount.format(stats.ambientBytes)) of \(ByteCount.format(stats.maximumAmbientCacheSize)) (\(stats.ambientRows) entries)
                regions        \(stats.regions) (\(stats.regionRows) entries held, never evicted)
                file           \(ByteCount.format(stats.fileBytes))
                """)
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear",
            // Parsed as a root by `mapsim cache clear` (MapSimCommand.leafCommand): "mapsim cache" is its super-command.
            _superCommandName: "mapsim cache",
            abstract: "Remove the ambient cache: every entry no offline region holds.",
            discussion: ExitStatus.section([(ExitStatus.success, "the ambient cache is removed"), (ExitStatus.cannotWrite, "the cache cannot be opened or written")]))

        @OptionGroup var file: CacheFileOption

        func run() async throws {
            let cache = try file.open()
            do {
                try await cache.clearAmbientCache()
            } catch {
                throw ExitStatus.fail(error)
            }
            print("cleared the ambient cache of \(cache.path)")
        }
    }

    struct Invalidate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "invalidate",
            // Parsed as a root by `mapsim cache invalidate` (MapSimCommand.leafCommand): "mapsim cache" is its super-command.
            _superCommandName: "mapsim cache",
            abstract: "Mark the ambient cache expired: the next load revalidates each entry (offline, none is used).",
            discussion: ExitStatus.section([(ExitStatus.success, "the ambient cache is marked expired"), (ExitStatus.cannotWrite, "the cache cannot be opened or written")]))

        @OptionGroup var file: CacheFileOption

        func run() async throws {
            let cache = try file.open()
            do {
                try await cache.invalidateAmbientCache()
            } catch {
                throw ExitStatus.fail(error)
            }
            print("invalidated the ambient cache of \(cache.path)")
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            // Parsed as a root by `mapsim cache reset` (MapSimCommand.leafCommand): "mapsim cache" is its super-command.
            _superCommandName: "mapsim cache",
            abstract: "Empty the database: the ambient cache, every offline region and mapsim's data.",
            discussion: """
            The file stays, as a new, empty MapLibre offline database (a link to it stays a link).

            \(ExitStatus.section([(ExitStatus.success, "done"), (ExitStatus.cannotWrite, "the cache cannot be opened or written")]))
            """)

        @OptionGroup var file: CacheFileOption

        func run() async throws {
            let cache = try file.open()
            do {
                try await cache.reset()
            } catch {
                throw ExitStatus.fail(error)
            }
            print("reset \(cache.path): it is an empty offline database")
        }
    }

    struct Pack: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pack",
            // Parsed as a root by `mapsim cache pack` (MapSimCommand.leafCommand): "mapsim cache" is its super-command.
            _superCommandName: "mapsim cache",
            abstract: "Give the file's unused pages back to the file system (VACUUM).",
            discussion: ExitStatus.section([(ExitStatus.success, "the file is packed"), (ExitStatus.cannotWrite, "the cache cannot be opened or written")]))

        @OptionGroup var file: CacheFileOption

        func run() throws {
            let cache = try file.open()
            do {
                let (before, after) = try cache.vacuum(full: true)
                print("packed \(cache.path): \(ByteCount.format(before)) → \(ByteCount.format(after))")
            } catch {
                throw ExitStatus.fail(error)
            }
        }
    }
}
