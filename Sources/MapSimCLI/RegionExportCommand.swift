import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim region export`: a region's tiles as one MBTiles or PMTiles file.
struct RegionExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        // Parsed as a root by `mapsim region export` (MapSimCommand.leafCommand): "mapsim region" is its super-command.
        _superCommandName: "mapsim region",
        abstract: "Write a region's tiles as an MBTiles or PMTiles archive.",
        discussion: """
        Writes the tiles region ID holds of one tiled source of its style as a tile archive, with \
        the source's TileJSON (name, attribution, vector_layers) as its metadata, so that a region \
        mapsim downloaded or checked ships as one file: MBTiles 1.3 (rows in TMS order, vector \
        tiles gzip-compressed, metadata json with vector_layers) or PMTiles v3 (clustered, identical \
        tiles stored once, gzip directories; the same tiles give the same bytes). Rows MapLibre \
        stored zlib-compressed are inflated to check them, and a vector tile keeps its stored \
        deflate stream, rewrapped as gzip rather than deflated again. Memory grows by about a \
        hundred bytes a tile, not by the tiles' data. A style with several tiled sources needs \
        --source. A region downloaded with --engine mapbox holds the sources of the styles its \
        style imports too: name one IMPORT/ID (basemap/composite), or by its ID alone when no \
        other style has a source of that ID. The archive is written beside OUT and moved over it when complete. Load it back \
        with a source whose url is mbtiles:///ABS/PATH or pmtiles://file:///ABS/PATH.

        \(ExitStatus.section([(ExitStatus.success, "the archive is written"), (ExitStatus.failure, "there is no such region, or it holds no tiles of the source"), (ExitStatus.cannotWrite, "the cache cannot be opened or the archive cannot be written")]))

        Examples:
          mapsim region export 1 --cache app.db --pmtiles sf.pmtiles
          mapsim region export 1 --cache app.db --mbtiles sf.mbtiles \\
              --source openmaptiles
          mapsim region export 2 --cache app.db --pmtiles standard.pmtiles \\
              --source basemap/composite
        """)

    @Argument(help: "The region's ID (mapsim region list lists them).")
    var id: Int64

    @Option(help: ArgumentHelp("Write an MBTiles file.", valueName: "OUT"))
    var mbtiles: String?

    @Option(help: ArgumentHelp("Write a PMTiles archive.", valueName: "OUT"))
    var pmtiles: String?

    @Option(help: ArgumentHelp("The source whose tiles to write, when the style has several (an import's as IMPORT/ID).", valueName: "ID"))
    var source: String?

    @OptionGroup var file: CacheFileOption

    @OptionGroup(title: "mapbox:// URLs")
    var mapbox: MapboxOptions

    func validate() throws {
        guard (mbtiles == nil) != (pmtiles == nil) else { throw ValidationError("give one of --mbtiles OUT and --pmtiles OUT") }
    }

    func run() throws {
        let database = try file.open(readOnly: true, mapbox: mapbox.normalizer)
        let region = try RegionCommand.region(id, in: database)
        let format: RegionArchiveExport.Format = mbtiles != nil ? .mbtiles : .pmtiles
        let path = mbtiles ?? pmtiles ?? ""
        let bar = ProgressBar(terminal: .standardOutput())
        let summary: RegionArchiveExport.Summary
        do {
            summary = try RegionArchiveExport(database: database, region: region).run(sourceID: source, format: format, path: path) { done, total in
                bar.show(done, of: total, "tiles")
            }
        } catch {
            bar.finish()
            throw ExitStatus.fail(error)
        }
        bar.finish()
        print("wrote \(summary.tiles) \(summary.tileFormat) tiles of source \"\(summary.source)\" of region \(id) to \(summary.path) (\(format.rawValue))")
    }
}
