import ArgumentParser
import MapSimKit

/// `mapsim region list`: every region of the database.
struct RegionListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        // Parsed as a root by `mapsim region list` (MapSimCommand.leafCommand): "mapsim region" is its super-command.
        _superCommandName: "mapsim region",
        abstract: "Print each region's ID, definition, description and whether it is complete.",
        discussion: """
        The definition is printed as the database stores it (MapLibre Native's JSON); one MapLibre \
        Native cannot decode is flagged with the reason. The description is printed as text when it \
        is UTF-8 (with --json, as hexadecimal bytes when it is not). Complete is what `region \
        status` says.

        \(ExitStatus.section([(ExitStatus.success, "the regions are printed"), (ExitStatus.cannotWrite, "the cache cannot be opened")]))

        Examples:
          mapsim region list --cache app.db
          mapsim region list --cache app.db --json
        """)

    @OptionGroup var file: CacheFileOption

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let database = try file.open(readOnly: true)
        let regions: [OfflineRegion]
        do {
            regions = try database.regions()
        } catch {
            throw ExitStatus.fail(error)
        }
        let verdicts: [RegionCompleteness?] = regions.map { try? database.completeness(of: $0) }
        if json {
            print(JSONWriter.string(.array(zip(regions, verdicts).map { region, verdict in
                var members = RegionCommand.json(region)
                if let verdict {
                    members += [("complete", .bool(verdict.isComplete)), ("completed-resource-count", .number(Double(verdict.status.completedResourceCount))),
                                ("required-resource-count", .number(Double(verdict.status.requiredResourceCount)))]
                }
                return .object(JSONObject(members))
            })))
            return
        }
        guard !regions.isEmpty else {
            print("no regions in \(database.path)")
            return
        }
        for (region, verdict) in zip(regions, verdicts) {
            print("region \(region.id)")
            print("  definition   \(region.encodedDefinition)")
            if case .failure(let error) = region.definition { print("  undecodable  \(error.message)") }
            if region.metadata != nil { print("  description  \(RegionCommand.describe(region))") }
            if let verdict {
                print("  complete     \(verdict.isComplete ? "yes" : "no"): \(verdict.status.completedResourceCount) of \(verdict.status.requiredResourceCount) resources"
                      + (verdict.status.requiredResourceCountIsPrecise ? "" : " (more once every TileJSON is stored)"))
            }
        }
    }
}
