import ArgumentParser
import MapSimKit

/// `mapsim region list`: every region of the database.
struct RegionListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Print each region's ID, definition and description.",
        discussion: """
        The definition is printed as the database stores it (MapLibre Native's JSON); one MapLibre \
        Native cannot decode is flagged with the reason. The description is printed as text when it \
        is UTF-8 (with --json, as hexadecimal bytes when it is not).

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
        if json {
            print(JSONWriter.string(.array(regions.map { .object(JSONObject(RegionCommand.json($0))) })))
            return
        }
        guard !regions.isEmpty else {
            print("no regions in \(database.path)")
            return
        }
        for region in regions {
            print("region \(region.id)")
            print("  definition   \(region.encodedDefinition)")
            if case .failure(let error) = region.definition { print("  undecodable  \(error.message)") }
            if region.metadata != nil { print("  description  \(RegionCommand.describe(region))") }
        }
    }
}
