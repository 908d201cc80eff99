import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim region check`: the offline regression test in one command.
struct RegionCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        // Parsed as a root by `mapsim region check` (MapSimCommand.leafCommand): "mapsim region" is its super-command.
        _superCommandName: "mapsim region",
        abstract: "List what a map in a region would need offline that the database lacks.",
        discussion: """
        Walks every zoom and every tile of every source of the region (or of --style, --bounds and \
        the zooms), lays each vector tile out as the map does, and reports what the database lacks \
        or holds only expired and to be revalidated: the style, TileJSON, sprite sheets at the \
        region's pixel ratio, GeoJSON documents, images, tiles (named z/x/y) and glyph ranges — \
        counted per zoom and listed. With --engine mapbox, as the region was downloaded for the \
        Mapbox SDK, every style the style imports (nested ones too) is checked the same way, with \
        its models; the default engine, MapLibre Native, ignores imports. A view inside a region check calls complete loads offline to \
        map-idle with no error. For a region given by its ID, the region's own verdict comes first \
        (complete as `region status` says, what is missing and why).

        \(ExitStatus.section([(ExitStatus.success, "both are complete"), (ExitStatus.failure, "something is missing (listed)"), (ExitStatus.cannotWrite, "the cache cannot be opened")]))

        Examples:
          mapsim region check 1 --cache app.db
          mapsim region check 2 --engine mapbox --cache standard.db
          mapsim region check --style https://maps.example/style.json \\
              --bounds -122.52,37.70,-122.35,37.83 --min-zoom 10 --max-zoom 14 \\
              --cache app.db --json
        """)

    @Argument(help: "The region's ID (or give --style, --bounds and the zooms).")
    var id: Int64?

    @Option(help: "Without an ID: the style's URL, as the region was downloaded with.")
    var style: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Without an ID: the area, west, south, east, north in degrees.", valueName: "W,S,E,N"))
    var bounds: BoundsArgument?

    @Option(parsing: .unconditional, help: "Without an ID: the lowest zoom.")
    var minZoom: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Without an ID: the highest zoom (inf for every zoom the sources have).", valueName: "ZOOM"))
    var maxZoom: Double?

    @Option(parsing: .unconditional, help: "Without an ID: the pixel ratio the map would load sprites and {ratio} tiles for.")
    var pixelRatio: Double = 1

    @Option(help: ArgumentHelp("The map whose offline view is checked: maplibre-native (the default) or mapbox (the Mapbox Maps SDK, which loads a style's imports: every imported style and what it names is checked too).", valueName: "ENGINE"))
    var engine: Engine.Name?

    @OptionGroup var file: CacheFileOption

    @OptionGroup(title: "mapbox:// URLs")
    var mapbox: MapboxOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        if let engine, engine == .maplibreGLJS || engine == .mapboxGLJS {
            throw ValidationError("--engine \(engine.rawValue): a browser's map keeps no offline region; check one for maplibre-native (the default) or mapbox")
        }
        if id != nil {
            guard style == nil, bounds == nil, minZoom == nil, maxZoom == nil else {
                throw ValidationError("give a region ID, or --style, --bounds, --min-zoom and --max-zoom, not both")
            }
        } else {
            guard style != nil, bounds != nil, let minZoom, let maxZoom else {
                throw ValidationError("give a region ID, or --style, --bounds, --min-zoom and --max-zoom")
            }
            guard minZoom >= 0, maxZoom >= minZoom else { throw ValidationError("--min-zoom must be at least 0 and --max-zoom at least --min-zoom") }
            try bounds?.check("--bounds")
        }
    }

    func run() throws {
        let database = try file.open(readOnly: true, mapbox: mapbox.normalizer)
        let definition: OfflineRegionDefinition
        var completeness: RegionCompleteness?
        if let id {
            let region = try RegionCommand.region(id, in: database)
            do {
                completeness = try database.completeness(of: region)
            } catch {
                throw ExitStatus.fail(error)
            }
            switch region.definition {
            case .success(let decoded): definition = decoded
            case .failure(let error): throw ExitStatus.fail(ExitStatus.failure, "region \(id) cannot be checked: its definition \(error)")
            }
        } else {
            do {
                definition = try OfflineRegionDefinition(styleURL: StyleLocation.url(for: style ?? ""), area: .bounds(bounds?.value ?? .world),
                                                         minZoom: minZoom ?? 0, maxZoom: maxZoom ?? 0, pixelRatio: pixelRatio)
            } catch {
                throw ExitStatus.fail(ExitStatus.usage, "\(error)")
            }
        }
        let bar = ProgressBar(terminal: .standardOutput())
        let report: RegionCheck.Report
        do {
            report = try RegionCheck(database: database, definition: definition, now: WallClock.today().start,
                                     engine: Engine.named(engine ?? .maplibreNative)).run { done, total in
                bar.show(done, of: total, "tiles")
            }
        } catch {
            bar.finish()
            throw ExitStatus.fail(error)
        }
        bar.finish()
        json ? printJSON(report, completeness: completeness) : printText(report, completeness: completeness, name: id.map { "region \($0)" } ?? "the area")
        if !report.isComplete || completeness?.isComplete == false { throw ExitStatus.failure }
    }

    private func printText(_ report: RegionCheck.Report, completeness: RegionCompleteness?, name: String) {
        // One verdict: complete only when the region holds what it requires and a map laid out
        // offline misses nothing.
        let tiles = report.zooms.reduce(0) { $0 + $1.tiles }
        let offline = report.isComplete
            ? "\(tiles) tiles and \(report.checked - tiles) other resources checked offline"
            : "offline, \(report.missing.count) of \(report.checked) checked are missing"
        if let completeness, !completeness.isComplete {
            let status = completeness.status
            print("\(name) is not complete: \(status.completedResourceCount) of \(status.requiredResourceCount) required resources stored "
                  + "(as `region status` says); \(offline)")
            for line in completeness.missingLines { print("  missing: " + line) }
        } else {
            print("\(name) is \(report.isComplete ? "complete" : "not complete"): \(offline)")
        }
        if !report.zooms.isEmpty {
            print("zoom  tiles  missing tiles  missing glyph ranges")
            for zoom in report.zooms {
                print(pad(zoom.zoom, 4) + "  " + pad(zoom.tiles, 5) + "  " + pad(zoom.missingTiles, 13) + "  " + pad(zoom.missingGlyphRanges, 20))
            }
        }
        for missing in report.missing {
            print("missing " + describe(missing))
        }
    }

    private func describe(_ missing: RegionCheck.Missing) -> String {
        var text: String
        switch missing.kind {
        case .tile, .unreadableTile:
            text = "\(missing.kind == .tile ? "tile" : "unreadable tile") \(missing.tile?.description ?? "") (source \(missing.source ?? ""))"
        case .glyphs:
            let key = missing.glyphs
            text = "glyphs \(key?.fontStack.joined(separator: ",") ?? "") \(key?.start ?? 0)-\((key?.start ?? 0) + 255) (zoom \(missing.zoom ?? 0))"
        case .tileJSON:
            text = "tilejson (source \(missing.source ?? ""))"
        default:
            text = missing.kind.rawValue
        }
        text += "  \(missing.url)"
        if let reason = missing.reason { text += "  (\(reason))" }
        return text
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private func printJSON(_ report: RegionCheck.Report, completeness: RegionCompleteness?) {
        let zooms = report.zooms.map { zoom in
            JSONValue.object(JSONObject([("zoom", .number(Double(zoom.zoom))), ("tiles", .number(Double(zoom.tiles))),
                                         ("missing-tiles", .number(Double(zoom.missingTiles))),
                                         ("missing-glyph-ranges", .number(Double(zoom.missingGlyphRanges)))]))
        }
        let missing = report.missing.map { item in
            var members: [(String, JSONValue)] = [("kind", .string(item.kind.rawValue)), ("url", .string(item.url))]
            if let source = item.source { members.append(("source", .string(source))) }
            if let tile = item.tile { members.append(("tile", .string(tile.description))) }
            if let key = item.glyphs {
                members += [("font-stack", .array(key.fontStack.map(JSONValue.string))), ("range", .string("\(key.start)-\(key.start + 255)"))]
            }
            if let zoom = item.zoom { members.append(("zoom", .number(Double(zoom)))) }
            if let reason = item.reason { members.append(("reason", .string(reason))) }
            return JSONValue.object(JSONObject(members))
        }
        var object = JSONObject([("complete", .bool(report.isComplete && completeness?.isComplete != false)), ("offline-complete", .bool(report.isComplete)),
                                 ("checked", .number(Double(report.checked))), ("zooms", .array(zooms)), ("missing", .array(missing))])
        if let completeness { object["status"] = .object(completeness.json) }
        print(JSONWriter.string(.object(object)))
    }
}
