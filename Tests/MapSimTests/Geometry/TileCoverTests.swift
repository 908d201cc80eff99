import Testing
@testable import MapSim
@testable import MapSimStyle

@Suite("TileCover")
struct TileCoverTests {
    private func cover(_ lon: Double, _ lat: Double, zoom: Double, size: (Int, Int) = (512, 512), bearing: Double = 0, pitch: Double = 0,
                       pyramid: TilePyramid = TilePyramid(rounding: .floor)) -> [String] {
        let viewport = Viewport(width: size.0, height: size.1)
        let camera = Camera(center: LngLat(longitude: lon, latitude: lat), zoom: zoom, bearing: bearing, pitch: pitch, maximumPitch: Camera.steepestPitch).constrained(to: viewport)
        return pyramid.visibleTiles(camera: camera, viewport: viewport).map { "\($0.canonical)" }
    }

    @Test func matchesTheDesignReferencePoint() {
        #expect(cover(-122.5, 37.8, zoom: 10) == ["10/163/395", "10/163/396", "10/164/395", "10/164/396"])
    }

    @Test func smallTilesCoverOneZoomDeeper() {
        let tiles = cover(-122.5, 37.8, zoom: 10, pyramid: TilePyramid(rounding: .floor, tileSize: 256))
        #expect(tiles.count == 9)
        #expect(tiles.first == "11/327/791")
        #expect(Set(tiles) == Set((326...328).flatMap { x in (790...792).map { "11/\(x)/\($0)" } }))
    }

    @Test func vectorFloorsAndRasterRoundsTheCoveringZoom() {
        #expect(TilePyramid(rounding: .floor).coveringZoom(forCameraZoom: 10.6) == 10)
        #expect(TilePyramid(rounding: .round).coveringZoom(forCameraZoom: 10.6) == 11)
        #expect(TilePyramid(rounding: .round, tileSize: 256).coveringZoom(forCameraZoom: 10.4) == 11)
    }

    @Test func wrapsAcrossTheAntimeridian() {
        let viewport = Viewport(width: 512, height: 512)
        let camera = Camera(center: LngLat(longitude: 180, latitude: 0), zoom: 2)
        let tiles = TilePyramid(rounding: .floor).visibleTiles(camera: camera, viewport: viewport)
        #expect(tiles.map { "\($0.canonical)" } == ["2/3/1", "2/3/2", "2/0/1", "2/0/2"])
        #expect(tiles.map(\.wrap) == [0, 0, 1, 1])
    }

    @Test func neverLeavesTheWorldAtThePoles() {
        #expect(cover(0, 89, zoom: 3) == ["3/3/0", "3/4/0"])
        #expect(cover(0, -89, zoom: 3) == ["3/3/7", "3/4/7"])
        // Without the camera constraint the quad reaches past the pole; rows stay inside the world.
        let quad = ViewportQuad(camera: Camera(center: LngLat(longitude: 0, latitude: 85), zoom: 3), viewport: Viewport(width: 512, height: 512))
        let rows = TileCover.tiles(covering: quad, atZoom: 3).map(\.canonical.y)
        #expect(rows.allSatisfy { (0..<8).contains($0) })
        #expect(rows.contains(0))
    }

    @Test func constraintKeepsTheViewInsideTheWorld() {
        let viewport = Viewport(width: 512, height: 1024)
        let camera = Camera(center: LngLat(longitude: 190, latitude: 89), zoom: 0).constrained(to: viewport)
        #expect(camera.zoom == 1)
        #expect(abs(camera.center.latitude) < 1e-9)
        #expect(camera.center.longitude == -170)
    }

    @Test func pitchReachesFartherAhead() {
        let flat = cover(-122.5, 37.8, zoom: 10)
        let pitched = cover(-122.5, 37.8, zoom: 10, pitch: 60)
        #expect(pitched.first == "10/163/395")
        #expect(pitched.count > flat.count)
        let rows = pitched.map { Int($0.split(separator: "/")[2])! }
        #expect(rows.min()! < 395)
        #expect(rows.max()! <= 396)
    }

    @Test func aViewPastTheHorizonEndsAtItAndStillReachesAhead() {
        // Past a pitch of 71.6° the top of the view sees sky: its corners stay ahead of the centre
        // (where the horizon row meets the ground), farther than at 60°, and the cover grows.
        var reach: [Double] = []
        for pitch in [60.0, 75, 85] {
            let quad = ViewportQuad(camera: Camera(center: LngLat(longitude: -122.5, latitude: 37.8), zoom: 10, pitch: pitch, maximumPitch: 85),
                                    viewport: Viewport(width: 512, height: 512))
            #expect(quad.corners[0].y < quad.center.y && quad.corners[1].y < quad.center.y, "pitch \(pitch): \(quad.corners)")
            reach.append(quad.center.y - quad.corners[0].y)
        }
        #expect(reach[0] < reach[1] && reach[0] < reach[2] && reach.allSatisfy(\.isFinite), "\(reach)")
        #expect(cover(-122.5, 37.8, zoom: 10, pitch: 85).count > cover(-122.5, 37.8, zoom: 10, pitch: 60).count)
    }

    @Test func bearingTurnsWhatIsAhead() {
        let east = cover(-122.5, 37.8, zoom: 10, bearing: 90, pitch: 60)
        let columns = east.map { Int($0.split(separator: "/")[1])! }
        #expect(columns.max()! > 164)
    }

    @Test func sortsNearestToTheCentreFirst() {
        let viewport = Viewport(width: 1920, height: 1080)
        let camera = Camera(center: LngLat(longitude: 10, latitude: 50), zoom: 6.3)
        let quad = ViewportQuad(camera: camera, viewport: viewport)
        let tiles = TileCover.tiles(covering: quad, atZoom: 6)
        let distances = tiles.map { tile -> Double in
            let dx = Double(tile.unwrappedX) + 0.5 - quad.center.x * 64
            let dy = Double(tile.canonical.y) + 0.5 - quad.center.y * 64
            return dx * dx + dy * dy
        }
        #expect(distances == distances.sorted())
        #expect(Set(tiles).count == tiles.count)
    }

    @Test func respectsMinZoomMaxZoomAndBounds() {
        #expect(cover(-122.5, 37.8, zoom: 3, pyramid: TilePyramid(rounding: .floor, minZoom: 4)).isEmpty)
        let viewport = Viewport(width: 512, height: 512)
        let camera = Camera(center: LngLat(longitude: -122.5, latitude: 37.8), zoom: 14)
        let overzoomed = TilePyramid(rounding: .floor, maxZoom: 10).visibleTiles(camera: camera, viewport: viewport)
        #expect(overzoomed.map(\.overscaledZ).allSatisfy { $0 == 14 })
        #expect(overzoomed.map { "\($0.canonical)" } == ["10/163/395"])
        let bounded = TilePyramid(rounding: .floor, bounds: LngLatBounds(west: -122.55, south: 37.7, east: -122.45, north: 37.85))
        #expect(bounded.visibleTiles(camera: Camera(center: camera.center, zoom: 10), viewport: viewport).map { "\($0.canonical)" }
            == ["10/163/395", "10/163/396"])
    }

    @Test func unwrappedIDsWrapNegativeColumns() {
        let id = UnwrappedTileID(z: 2, x: -1, y: 1)
        #expect(id.wrap == -1)
        #expect(id.canonical == CanonicalTileID(z: 2, x: 3, y: 1))
        #expect(id.unwrappedX == -1)
    }

    @Test(arguments: [(10.0, 0.0, 0.0), (3.2, 40.0, 60.0), (0.5, 0.0, 0.0), (14.7, 170.0, 45.0)])
    func theCountIsTheNumberOfTilesTheCoverMakes(zoom: Double, bearing: Double, pitch: Double) {
        let camera = Camera(center: LngLat(longitude: 179.5, latitude: 37.8), zoom: zoom, bearing: bearing, pitch: pitch)
        let quad = ViewportQuad(camera: camera, viewport: Viewport(width: 1200, height: 800))
        for z in [0, 3, Int(zoom)] {
            #expect(TileCover.count(covering: quad, atZoom: z) == TileCover.tiles(covering: quad, atZoom: z).count)
        }
    }
}
