import Foundation
import Testing
import MapSimJSON
import MapSimStyle
@testable import MapSim

/// GL JS's cover against what MapLibre GL JS 5.24.0 requested (Fixtures/GLJSCover, made by
/// scripts/make-cover-goldens.py from recordings in headless Chromium): the globe at 35 cameras
/// (zoom 0 to 12.2, pitch 0 to 85, poles, the antimeridian, `vertical-perspective`), 3D terrain at 19
/// (its DEM tiles decoded from the PNGs the server sent), and raster-dem sources without terrain at
/// 12. Each source's tiles must be GL JS's, in GL JS's order.
@Suite("GL JS's cover: globe, terrain, raster-dem")
struct GLJSCoverTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/GLJSCover").path

    /// One recorded camera.
    struct Case: CustomStringConvertible, Sendable {
        var json: JSONValue
        var description: String { json["name"]?.stringValue ?? "?" }

        var camera: Camera {
            let camera = json["camera"] ?? .null
            let center = camera["center"]?.arrayValue?.compactMap(\.numberValue) ?? [0, 0]
            return Camera(center: LngLat(longitude: center[0], latitude: center[1]), zoom: camera["zoom"]?.numberValue ?? 0,
                          bearing: camera["bearing"]?.numberValue ?? 0, pitch: camera["pitch"]?.numberValue ?? 0, maximumPitch: Camera.steepestPitch)
        }

        var viewport: Viewport {
            let size = json["size"]?.arrayValue?.compactMap(\.numberValue) ?? [512, 512]
            return Viewport(width: Int(size[0]), height: Int(size[1]))
        }

        var projection: StyleProjection { StyleProjection(rawValue: json["projection"]?.stringValue ?? "") ?? .mercator }

        /// The sources: id and how GL JS covers it.
        var sources: [(id: String, options: CoveringTiles.SourceOptions)] {
            (json["sources"]?.arrayValue ?? []).map { source in
                let kind = StyleSource.Kind(rawValue: source["type"]?.stringValue ?? "") ?? .vector
                return (source["id"]?.stringValue ?? "", CoveringTiles.SourceOptions(kind: kind, tileSize: Int(source["tileSize"]?.numberValue ?? 512),
                                                                                    minZoom: Int(source["minzoom"]?.numberValue ?? 0),
                                                                                    maxZoom: Int(source["maxzoom"]?.numberValue ?? 22)))
            }
        }

        /// The tiles GL JS requested of source `id`, as `z/x/y`, in its order.
        func recorded(_ id: String) -> [String] {
            (json["tiles"]?[id]?.arrayValue ?? []).compactMap(\.stringValue)
        }
    }

    static func cases(_ file: String) -> [Case] {
        guard let data = FileManager.default.contents(atPath: "\(folder)/\(file)"), let json = try? JSONParser.parse(Array(data)) else { return [] }
        return (json["cameras"]?.arrayValue ?? []).map { Case(json: $0) }
    }

    /// `tiles` as `z/x/y`, each canonical tile once, in order (world copies are one URL).
    static func paths(_ tiles: [OverscaledTileID]) -> [String] {
        var seen = Set<String>()
        return tiles.map { "\($0.canonical.z)/\($0.canonical.x)/\($0.canonical.y)" }.filter { seen.insert($0).inserted }
    }

    @Test func everyFamilyIsThere() {
        #expect(Self.cases("globe.json").count == 35)
        #expect(Self.cases("terrain.json").count == 19)
        #expect(Self.cases("flat.json").count == 12)
    }

    @Test(arguments: cases("globe.json") + cases("flat.json"))
    func theCoverIsGLJSs(_ recorded: Case) {
        for source in recorded.sources {
            let tiles = CoveringTiles.tiles(camera: recorded.camera, viewport: recorded.viewport, projection: recorded.projection, source: source.options)
            #expect(Self.paths(tiles) == recorded.recorded(source.id), "source \(source.id)")
        }
    }

    @Test func acrossTheAntimeridianTheGlobeCoverExplodesAsGLJSs() throws {
        // GL JS measures the camera's distance to the centre without wrapping: a camera across the
        // antimeridian is a world away, and every tile near it gets zoom 11-14. GL JS never settled
        // (failures pulled in parents); every vector tile of the cover is one it asked for.
        let recorded = try #require(Self.cases("globe-antimeridian.json").first)
        let source = try #require(recorded.sources.first { $0.id == "v" })
        let tiles = Self.paths(CoveringTiles.tiles(camera: recorded.camera, viewport: recorded.viewport, projection: recorded.projection,
                                                   source: source.options))
        #expect(tiles.count > 2_000)
        #expect(Set(tiles).isSubset(of: recorded.recorded("v")))
    }

    @Test(arguments: cases("terrain.json"))
    func theTerrainFramesAskWhatGLJSAsked(_ recorded: Case) throws {
        let terrain = recorded.json["terrain"] ?? .null
        let demSource = terrain["source"]?.stringValue ?? ""
        let field = terrain["dem"]?.stringValue ?? ""
        let encoding = terrain["encoding"]?.stringValue == "terrarium" ? DEMEncoding.terrarium : .mapbox
        var frames = TerrainFrames(camera: recorded.camera, viewport: recorded.viewport, projection: recorded.projection,
                                   sources: recorded.sources.map { TerrainFrames.Source(id: $0.id, options: $0.options) },
                                   terrainSource: demSource, encoding: encoding, exaggeration: terrain["exaggeration"]?.numberValue ?? 1)
        while !frames.isSettled && frames.frameCount < 10 {
            let frame = frames.nextFrame()
            // Every DEM tile asked for arrives before the next frame, as the server answered at once.
            for tile in frame.requests[demSource] ?? [] {
                let c = tile.canonical
                let png = try #require(FileManager.default.contents(atPath: "\(Self.folder)/DEM/\(field)/\(c.z)/\(c.x)/\(c.y).png"), "DEM \(c)")
                try frames.demTileArrived(c, png: Array(png))
            }
        }
        #expect(frames.isSettled)
        for source in recorded.sources {
            #expect(Self.paths(frames.requested[source.id] ?? []) == recorded.recorded(source.id), "source \(source.id)")
        }
    }

    @Test func aDEMTileThatDoesNotDecodeIsNamed() throws {
        let recorded = try #require(Self.cases("terrain.json").first)
        var frames = TerrainFrames(camera: recorded.camera, viewport: recorded.viewport, sources: recorded.sources.map { TerrainFrames.Source(id: $0.id, options: $0.options) },
                                   terrainSource: "dem")
        let tile = try #require(frames.nextFrame().requests["dem"]?.first).canonical
        let png = try #require(FileManager.default.contents(atPath: "\(Self.folder)/DEM/alps/\(tile.z)/\(tile.x)/\(tile.y).png"))
        #expect(throws: LoadingError.self) { try frames.demTileArrived(tile, png: Array(png.prefix(png.count / 2))) }
        do {
            try frames.demTileArrived(tile, png: Array(png.prefix(100)))
        } catch {
            #expect(error.message.contains("DEM tile \(tile)") && error.message.contains("\"dem\""), "\(error.message)")
        }
        #expect(frames.pendingDEMTiles.contains(tile) == false)
    }
}
