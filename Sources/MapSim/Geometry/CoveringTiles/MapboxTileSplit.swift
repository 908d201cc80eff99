import Foundation

/// Mapbox GL JS 3.0.1's rule for the zoom of a tile far from the camera, in Mercator (its
/// `coveringTiles`' `shouldSplit`), in place of MapLibre GL JS's zoom curve: past a pitch of 60°, or
/// with 3D terrain, a tile above the covering zoom is split only while the camera is nearer to it
/// than a distance that doubles with each level above — the covering zoom's, `cameraToCenterDistance`
/// over the tile size (half of it, 0.502, for a floored zoom) — and grows for tiles seen at a
/// glancing angle. Lengths are in tiles of the covering zoom.
struct MapboxTileSplit: Sendable {
    /// The covering zoom, at most the source's maxzoom.
    let coveringZoom: Int
    /// The camera's ground point, in world fractions.
    let camera: (x: Double, y: Double)
    /// Tiles of the covering zoom across the world.
    let tiles: Double
    /// The camera's altitude in metres, which tiles' heights are measured against (with terrain).
    let cameraAltitude: Double
    /// Metres to tiles of the covering zoom at the centre's latitude.
    let tilesPerMetre: Double
    /// The square of the camera's height above the centre, in tiles.
    let heightSquared: Double
    /// The distance below which a tile of the covering zoom's parent is split.
    let splitDistance: Double
    /// Whether tiles' heights count (3D terrain), else the camera's height above the centre does.
    let measuresHeights: Bool

    /// The rule for a source of `source` seen from `camera` (its ground point and altitude as a
    /// Mercator point) by `view`, covered at `coveringZoom`.
    init(view: CoverCamera, camera: Vector3, coveringZoom: Int, source: CoveringTiles.SourceOptions, measuresHeights: Bool) {
        let tiles = pow(2, Double(coveringZoom))
        let metre = GLJSMercator.z(altitude: 1, latitude: view.latitude)
        self.coveringZoom = coveringZoom
        self.camera = (camera.x, camera.y)
        self.tiles = tiles
        cameraAltitude = camera.z / metre
        tilesPerMetre = tiles * metre
        let height = (camera.z - view.centerPoint.z) * tiles
        heightSquared = height * height
        splitDistance = view.cameraToCenterDistance / Double(source.tileSize) * (source.roundZoom ? 1 : 0.502)
        self.measuresHeights = measuresHeights
    }

    /// Whether tile `z` (below the covering zoom), whose volume is `box` in world fractions, is split.
    func splits(z: Int, box: AxisAlignedBox) -> Bool {
        let dx = box.distanceX(from: camera.x) * tiles
        let dy = box.distanceY(from: camera.y) * tiles
        var dzSquared = heightSquared
        if measuresHeights {
            let dz = box.distanceZ(from: cameraAltitude) * tilesPerMetre
            dzSquared = dz * dz
        }
        let distanceSquared = dx * dx + dy * dy + dzSquared
        let limit = Double(1 << (coveringZoom - z)) * splitDistance * Self.stretch(heightSquared: max(dzSquared, heightSquared), distanceSquared: distanceSquared)
        return distanceSquared < limit * limit
    }

    /// How much farther a tile seen at a glancing angle is split: 1 within 45° of straight down,
    /// then growing with the ratio of its distance to the camera's height.
    private static func stretch(heightSquared: Double, distanceSquared: Double) -> Double {
        let acuteAngle = 0.707
        guard distanceSquared * acuteAngle * acuteAngle >= heightSquared else { return 1 }
        let ratio = (distanceSquared / heightSquared).squareRoot()
        let start = 1.4144271570014144
        let growth = 1.1
        return ratio / (start + (pow(growth, ratio - start + 1) - 1) / (growth - 1) - 1)
    }
}
