import ArgumentParser
import MapSimKit

/// `mapsim region status`: MapLibre Native's `OfflineRegionStatus` of a region.
struct RegionStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        // Parsed as a root by `mapsim region status` (MapSimCommand.leafCommand): "mapsim region" is its super-command.
        _superCommandName: "mapsim region",
        abstract: "Print a region's OfflineRegionStatus, every field of it.",
        discussion: """
        As MapLibre Native works it out when no download runs: the completed counts and stored sizes \
        from what the database holds, the required counts from the stored style and TileJSON (not \
        precise until every TileJSON is stored). Complete is every required resource stored — the \
        same verdict `region download` ends with, `list` and `check` give; when incomplete, what \
        is missing: what the server did not have at the last download (by kind; glyph ranges by \
        font stack), and what is not downloaded yet. A region downloaded with --glyphs needed \
        requires only those ranges: the status says how many it holds of those MapLibre Native \
        would download, and the bytes saved.

        \(ExitStatus.section([(ExitStatus.success, "the status is printed"), (ExitStatus.failure, "there is no such region"), (ExitStatus.cannotWrite, "the cache cannot be opened: missing, damaged, or not a cache")]))

        Examples:
          mapsim region status 1 --cache app.db
          mapsim region status 1 --cache app.db --json
        """)

    @Argument(help: "The region's ID.")
    var id: Int64

    @OptionGroup var file: CacheFileOption

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let database = try file.open(readOnly: true)
        let region = try RegionCommand.region(id, in: database)
        let completeness: RegionCompleteness
        let savings: (needed: Int, all: Int, bytesSaved: Int)?
        do {
            completeness = try database.completeness(of: region)
            savings = try database.glyphSavings(of: id)
        } catch {
            throw ExitStatus.fail(error)
        }
        let status = completeness.status
        if json {
            var members = [("id", JSONValue.number(Double(id)))] + status.json.members.map { ($0.key, $0.value) }
            members += completeness.json.members.filter { $0.key != "complete" }.map { ($0.key, $0.value) }
            if let savings {
                members.append(("glyph-ranges", .object(JSONObject([("downloaded", .number(Double(savings.needed))), ("maplibre", .number(Double(savings.all))),
                                                                    ("bytes-saved", .number(Double(savings.bytesSaved)))]))))
            }
            print(JSONWriter.string(.object(JSONObject(members))))
            return
        }
        print("""
        region \(id)\(region.metadata == nil ? "" : "  \(RegionCommand.describe(region))")
          downloadState                   \(status.downloadState.rawValue)
          completedResourceCount          \(status.completedResourceCount)
          completedResourceSize           \(status.completedResourceSize) (\(ByteCount.format(status.completedResourceSize)))
          completedTileCount              \(status.completedTileCount)
          completedTileSize               \(status.completedTileSize) (\(ByteCount.format(status.completedTileSize)))
          requiredTileCount               \(status.requiredTileCount)
          requiredResourceCount           \(status.requiredResourceCount)
          requiredResourceCountIsPrecise  \(status.requiredResourceCountIsPrecise)
          complete                        \(status.isComplete)
        """)
        if let savings {
            print("  glyph ranges                    \(savings.needed) of the \(savings.all) MapLibre downloads; ~\(ByteCount.format(savings.bytesSaved)) saved")
        }
        for line in completeness.missingLines { print("  missing: " + line) }
    }
}
