import ArgumentParser
import MapSimKit

/// `mapsim region invalidate`: MapLibre Native's `invalidateOfflineRegion`.
struct RegionInvalidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invalidate",
        // Parsed as a root by `mapsim region invalidate` (MapSimCommand.leafCommand): "mapsim region" is its super-command.
        _superCommandName: "mapsim region",
        abstract: "Mark a region's resources expired: the next load revalidates them (offline, none is used).",
        discussion: """
        Example:
          mapsim region invalidate 1 --cache app.db

        \(ExitStatus.section([(ExitStatus.success, "the region's resources are marked expired"), (ExitStatus.failure, "there is no such region"), (ExitStatus.cannotWrite, "the cache cannot be opened or written")]))
        """)

    @Argument(help: "The region's ID.")
    var id: Int64

    @OptionGroup var file: CacheFileOption

    func run() async throws {
        let database = try file.open()
        _ = try RegionCommand.region(id, in: database)
        do {
            try await database.invalidateRegion(id)
        } catch {
            throw ExitStatus.fail(error)
        }
        print("invalidated region \(id) of \(database.path)")
    }
}
