import ArgumentParser
import MapSimKit

/// `mapsim region delete`: removes a region and what only it held.
struct RegionDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        // Parsed as a root by `mapsim region delete` (MapSimCommand.leafCommand): "mapsim region" is its super-command.
        _superCommandName: "mapsim region",
        abstract: "Delete a region, and the resources and tiles no other region holds.",
        discussion: """
        Example:
          mapsim region delete 1 --cache app.db

        \(ExitStatus.section([(ExitStatus.success, "the region is deleted"), (ExitStatus.failure, "there is no such region"), (ExitStatus.cannotWrite, "the cache cannot be opened or written")]))
        """)

    @Argument(help: "The region's ID.")
    var id: Int64

    @OptionGroup var file: CacheFileOption

    func run() async throws {
        let database = try file.open()
        _ = try RegionCommand.region(id, in: database)
        let removed: Int
        do {
            removed = try await database.deleteRegion(id)
        } catch {
            throw ExitStatus.fail(error)
        }
        print("deleted region \(id) of \(database.path) and \(removed) resources and tiles only it held")
    }
}
