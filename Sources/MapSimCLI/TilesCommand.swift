import ArgumentParser
import MapSimKit

/// `mapsim tiles`: the tiles a view needs, nearest to the centre first.
struct TilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        // Parsed as a root by `mapsim COMMAND` (MapSimCommand.leafCommand): "mapsim" is its super-command.
        _superCommandName: "mapsim",
        abstract: "Print the tiles that cover a view, as z/x/y, nearest to the centre first.",
        discussion: """
        The covering zoom is zoom + log2(512 / tile size), floored for vector sources and rounded \
        for raster ones, as in MapLibre. The view may be rotated (--bearing) and tilted (--pitch, up \
        to 60 degrees unless --max-pitch allows more, at most 85); tiles of world copies across the \
        antimeridian are printed with their canonical x.

        \(ExitStatus.section([(ExitStatus.success, "the tiles are printed"), (ExitStatus.usage, "bad arguments")]))

        Examples:
          mapsim tiles --center -122.5,37.8 --zoom 10 --size 512x512
          mapsim tiles --center -122.5,37.8 --zoom 12 --pitch 75 --max-pitch 85
        """
    )

    enum SourceType: String, ExpressibleByArgument, CaseIterable {
        case vector, raster
    }

    @Option(parsing: .unconditional, help: ArgumentHelp("The centre of the view.", valueName: "LON,LAT"))
    var center: LngLatArgument

    @Option(parsing: .unconditional, help: "The camera zoom (0–25.5).")
    var zoom: Double

    @Option(parsing: .unconditional, help: ArgumentHelp("The view size in logical pixels, each side 1 to 16384.", valueName: "WxH"))
    var size: SizeArgument = SizeArgument(width: 512, height: 512)

    @Option(parsing: .unconditional, help: "Degrees clockwise from north; negative counter-clockwise.")
    var bearing: Double = 0

    @Option(parsing: .unconditional, help: "Degrees of tilt, 0 to --max-pitch.")
    var pitch: Double = 0

    @Option(parsing: .unconditional, help: "The steepest pitch the view takes (the map's maxPitch), 0–85.")
    var maxPitch: Double = Camera.maximumPitch

    @Option(parsing: .unconditional, help: "The source's tile size in pixels.")
    var tileSize: Int = 512

    @Option(help: "vector floors the covering zoom, raster rounds it.")
    var sourceType: SourceType = .vector

    @Option(parsing: .unconditional, help: "The source's lowest zoom.")
    var minZoom: Int = 0

    @Option(parsing: .unconditional, help: "The source's highest zoom; deeper views reuse these tiles.")
    var maxZoom: Int = 22

    func validate() throws {
        try size.check("--size")
        try CameraArguments.validate(center: center.value, zoom: zoom, pitch: pitch, maximumPitch: maxPitch)
        guard tileSize > 0, tileSize <= 8192 else { throw ValidationError("--tile-size must be between 1 and 8192") }
        guard (0...30).contains(minZoom), (0...30).contains(maxZoom), minZoom <= maxZoom else {
            throw ValidationError("--min-zoom and --max-zoom must be in 0...30 with min ≤ max")
        }
    }

    @Option(parsing: .unconditional, help: "Refuse a cover of more tiles than this.")
    var maxTiles: Int = 10_000

    func run() throws {
        let viewport = Viewport(width: size.width, height: size.height)
        let camera = Camera(center: center.value, zoom: zoom, bearing: bearing, pitch: pitch, maximumPitch: maxPitch).constrained(to: viewport)
        let pyramid = TilePyramid(rounding: sourceType == .vector ? .floor : .round, tileSize: tileSize, minZoom: minZoom, maxZoom: maxZoom)
        let (zoom, count) = pyramid.visibleTileCount(camera: camera, viewport: viewport)
        guard count <= maxTiles else {
            throw ExitStatus.fail(ExitStatus.failure, "the view needs \(count) tiles at zoom \(zoom), more than --max-tiles \(maxTiles)")
        }
        var printed = Set<CanonicalTileID>()
        var output = ""
        for tile in pyramid.visibleTiles(camera: camera, viewport: viewport) where printed.insert(tile.canonical).inserted {
            output += "\(tile.canonical)\n"
        }
        print(output, terminator: "")
    }
}
