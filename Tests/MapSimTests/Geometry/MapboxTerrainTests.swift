import Testing
import MapSimStyle
@testable import MapSim

/// Mapbox GL JS 3.0.1's reading of DEM tiles for its covers: the min/max quadtree of a tile, the
/// DEM tile read for a tile of another source, and the span of the covers' root volumes.
@Suite struct MapboxTerrainTests {
    /// A 64 px DEM tile whose left half lies at 0 m and right half at 1,000 m.
    static let step = DEMTile(dimension: 64, heights: (0..<64 * 64).map { $0 % 64 < 32 ? 0 : 1_000 })

    @Test func aFlatTileIsOneLeafAndAStepIsSplitWhereItRises() {
        let flat = MapboxDEMTree(DEMTile(dimension: 64, heights: Array(repeating: 250, count: 64 * 64)))
        #expect(flat.range(levels: 3, x: 5, y: 2) == 250...250)
        let tree = MapboxDEMTree(Self.step)
        #expect(tree.range(levels: 0, x: 0, y: 0) == 0...1_000)
        // The quarter's corner at the middle samples between the last 0 m pixel and the first 1,000 m one.
        #expect(tree.range(levels: 1, x: 0, y: 0) == 0...500)
        #expect(tree.range(levels: 1, x: 1, y: 1) == 500...1_000)
        // Far from the step the cells are flat leaves: going deeper stops there.
        #expect(tree.range(levels: 3, x: 0, y: 5) == 0...0)
        #expect(tree.range(levels: 6, x: 63, y: 0) == 1_000...1_000)
    }

    @Test func aTileReadsTheDEMTileOfItsOwnZoomElseTheNearestAncestorUpToTheDEMMaxzoom() {
        let tree = MapboxDEMTree(Self.step)
        let terrain = MapboxTerrain(exaggeration: 2, demZoomRange: 2...10,
                                    trees: [CanonicalTileID(z: 8, x: 10, y: 20): tree, CanonicalTileID(z: 6, x: 2, y: 5): tree],
                                    demCoverAltitude: 0, centerAltitude: 300)
        #expect(terrain.demTile(z: 8, x: 10, y: 20) == CanonicalTileID(z: 8, x: 10, y: 20))
        #expect(terrain.demTile(z: 12, x: 10 << 4, y: 20 << 4) == CanonicalTileID(z: 8, x: 10, y: 20))
        #expect(terrain.demTile(z: 8, x: 11, y: 20) == CanonicalTileID(z: 6, x: 2, y: 5))
        #expect(terrain.demTile(z: 5, x: 1, y: 2) == nil)
        // Heights are exaggerated; a tile of the DEM tile's right half reads its right half.
        #expect(terrain.elevationRange(z: 9, x: 21, y: 40) == 1_000...2_000)
        #expect(terrain.elevationRange(z: 4, x: 0, y: 1) == nil)
        #expect(terrain.rootRange(demCover: true) == -20_000...20_000)
        #expect(terrain.rootRange(demCover: false) == 0...300)
    }

    @Test func volumesReachBelowTheLowestHeightOnlyBelowSeaLevel() {
        let deep = MapboxDEMTree(DEMTile(dimension: 16, heights: Array(repeating: -100, count: 16 * 16)))
        var terrain = MapboxTerrain(exaggeration: 1.5, demZoomRange: 0...12, trees: [CanonicalTileID(z: 3, x: 1, y: 1): deep],
                                    demCoverAltitude: 0, centerAltitude: 0)
        #expect(terrain.lowestElevation == -195)
        terrain.trees = [CanonicalTileID(z: 3, x: 1, y: 1): MapboxDEMTree(Self.step)]
        #expect(terrain.lowestElevation == 0)
    }

    @Test func theAverageElevationWeighsTheNearerPointsOfTheViewMore() {
        let camera = Camera(center: LngLat(longitude: 8.54, latitude: 47.37), zoom: 12, pitch: 60, maximumPitch: 85)
        let view = CoverCamera(camera: camera, viewport: Viewport(width: 512, height: 512), elevation: 400)
        let transform = MercatorCoverTransform(camera: view, walk: .mapboxGLJS)
        #expect(MapboxAverageElevation.sample(transform) { _ in 700 }.map { abs($0 - 700) < 1e-9 } == true)
        #expect(MapboxAverageElevation.sample(transform) { _ in nil } == nil)
        // Looking north, ground south of the centre is nearer the camera: it counts for more.
        let southHigh = MapboxAverageElevation.sample(transform) { $0.latitude < 47.37 ? 1_000 : 0 }
        #expect(southHigh.map { $0 > 500 && $0 < 1_000 } == true)
    }
}
