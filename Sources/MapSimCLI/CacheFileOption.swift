import ArgumentParser
import MapSimKit

/// `--cache PATH`: the offline database a `mapsim cache` or `mapsim region` command works on.
struct CacheFileOption: ParsableArguments {
    @Option(help: ArgumentHelp("The offline database (default: \(CacheLocation.defaultDescription)).", valueName: "PATH"))
    var cache: String?

    /// The file's path.
    var path: String {
        cache ?? CacheLocation.defaultPath
    }

    /// Opens the database, printing what opening had to say; a database that cannot be opened ends
    /// the command with its error.
    func open(readOnly: Bool = false, maximumSize: Int = OfflineDatabase.Options.defaultMaximumAmbientCacheSize,
              mapbox: MapboxURL = MapboxURL()) throws -> OfflineDatabase {
        do {
            let opened = try LoadingEnvironment.openCache(at: path, readOnly: readOnly, maximumSize: maximumSize, mapbox: mapbox, makesFolder: cache == nil)
            for warning in opened.warnings { printError("mapsim: warning: \(warning)") }
            return opened
        } catch {
            throw ExitStatus.fail(error)
        }
    }
}
