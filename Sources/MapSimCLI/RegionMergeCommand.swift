import ArgumentParser
import MapSimKit

/// `mapsim region merge`: MapLibre Native's `mergeOfflineRegions`.
struct RegionMergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        // Parsed as a root by `mapsim region merge` (MapSimCommand.leafCommand): "mapsim region" is its super-command.
        _superCommandName: "mapsim region",
        abstract: "Side-load another database's regions and what they hold, as mergeOfflineRegions does.",
        discussion: """
        The other file must be MapLibre's offline database of the same schema version, undamaged; it \
        is only read. Regions already here (same definition and description) are not repeated; a \
        tile or resource is copied when this database lacks it or holds an older one. The other \
        file's ambient cache stays behind. Refused, with nothing changed, when the regions would hold \
        more mapbox:// tiles than the limit.

        Example:
          mapsim region merge downloaded.db --cache app.db

        \(ExitStatus.section([(ExitStatus.success, "the regions are merged"), (ExitStatus.invalidData, "the other file is not an undamaged offline database of the same version"), (ExitStatus.cannotWrite, "the cache cannot be opened or written")]))
        """)

    @Argument(help: "The database to merge from.")
    var other: String

    @OptionGroup var file: CacheFileOption

    @Option(parsing: .unconditional, help: "The most mapbox:// tiles the regions may hold (MapLibre's setOfflineMapboxTileCountLimit).")
    var mapboxTileLimit: Int = OfflineDatabase.Options.defaultMapboxTileCountLimit

    @Flag(help: "Print the merged regions as JSON.")
    var json = false

    func run() async throws {
        let database: OfflineDatabase
        do {
            database = try LoadingEnvironment.openCache(at: file.path, tileLimit: mapboxTileLimit)
            for warning in database.warnings { printError("mapsim: warning: \(warning)") }
        } catch {
            throw ExitStatus.fail(error)
        }
        let merged: [OfflineRegion]
        do {
            merged = try await database.mergeRegions(from: other)
        } catch {
            throw ExitStatus.fail(error)
        }
        if json {
            print(JSONWriter.string(.array(merged.map { .object(JSONObject(RegionCommand.json($0))) })))
            return
        }
        print("merged \(merged.count) region\(merged.count == 1 ? "" : "s") of \(other) into \(database.path): " + merged.map { "\($0.id)" }.joined(separator: ", "))
    }
}
