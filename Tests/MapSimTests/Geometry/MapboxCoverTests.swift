import Foundation
import Testing
import MapSimJSON
@testable import MapSim

/// Mapbox GL JS 3.0.1's cover (`CoveringTiles.Walk.mapboxGLJS`) against what it requested in headless
/// Chromium of a style whose every tile exists (Fixtures/MapboxCover, made by
/// scripts/make-mapbox-cover-goldens.py): a vector source of 512 px tiles and a raster one of 256 px
/// tiles, at 19 cameras — flat, rotated (the separating axes), pitched past 60° to 85° (Mapbox's
/// split by distance and its far plane), zoom 0.5 to 14.45.
@Suite("Mapbox GL JS's cover")
struct MapboxCoverTests {
    static let cases: [GLJSCoverTests.Case] = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/MapboxCover/flat.json").path
        guard let data = FileManager.default.contents(atPath: path), let json = try? JSONParser.parse(Array(data)) else { return [] }
        return (json["cameras"]?.arrayValue ?? []).map { GLJSCoverTests.Case(json: $0) }
    }()

    @Test func everyCameraIsThere() {
        #expect(Self.cases.count == 19)
    }

    @Test(arguments: cases)
    func theCoverIsMapboxGLJSs(_ recorded: GLJSCoverTests.Case) {
        for source in recorded.sources {
            let tiles = CoveringTiles.tiles(camera: recorded.camera, viewport: recorded.viewport, source: source.options, walk: .mapboxGLJS)
            #expect(GLJSCoverTests.paths(tiles) == recorded.recorded(source.id), "source \(source.id)")
        }
    }

    @Test func mapLibresWalkTakesTilesMapboxsLeavesOut() {
        // The same views under MapLibre GL JS's walk: 11 of the 19 take other tiles (rotated,
        // pitched and steep views), so the two walks are not one rule by two names.
        let differing = Self.cases.filter { recorded in
            recorded.sources.contains { source in
                let tiles = CoveringTiles.tiles(camera: recorded.camera, viewport: recorded.viewport, source: source.options)
                return Set(GLJSCoverTests.paths(tiles)) != Set(recorded.recorded(source.id))
            }
        }
        #expect(differing.count >= 10, "\(differing.map(\.description))")
    }
}
