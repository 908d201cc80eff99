import Foundation
import MapSimStyle

/// MapLibre GL JS 5.24.0's tile cover (`coveringTiles`, src/geo/projection/covering_tiles.ts): the
/// tiles of one source that a view needs, in the order GL JS requests them.
///
/// The pyramid is walked from the root, last pushed first: a tile whose bounding volume the
/// camera's frustum (and, on the globe, the horizon plane) leaves wholly outside is dropped; one at
/// or past its target zoom is taken; else its four children are pushed. The target zoom is the
/// source's covering zoom, or — past a pitch of 60° in Mercator, always with terrain, from a covering
/// zoom of 5 on the globe — a zoom that falls with the tile's distance from the camera. The result is
/// sorted, stably, by the squared distance of each tile's x and y from the centre at the covering
/// zoom, whatever the tile's own zoom (a GL JS quirk, kept). Mercator walks world copies ±1...±3 too;
/// the globe reports a tile across the antimeridian with wrap ±1. Source bounds are the caller's.
public enum CoveringTiles {
    /// Whose walk of the pyramid.
    public enum Walk: Sendable, Hashable {
        /// MapLibre GL JS 5.24.0's.
        case maplibreGLJS
        /// Mapbox GL JS 3.0.1's: a tile the frustum's planes do not leave wholly inside is tested
        /// once more before it is taken, against the axes across the frustum's edges
        /// (`FrustumEdgeAxes`); in Mercator, the far plane is Mapbox's (farther at steep pitches)
        /// and zooms fall with distance by Mapbox's rule (`MapboxTileSplit`); and world copies are
        /// sorted by their own distance from the centre.
        case mapboxGLJS
    }

    /// The source as the cover sees it (GL JS's `CoveringTilesOptions`).
    public struct SourceOptions: Sendable, Hashable {
        /// The tile size in CSS pixels.
        public var tileSize: Int
        /// Tiles below this zoom are dropped.
        public var minZoom: Int
        /// The deepest zoom with data; deeper views take its tiles, overscaled.
        public var maxZoom: Int
        /// The covering zoom is rounded (raster, raster-dem, image and video sources), else floored.
        public var roundZoom: Bool
        /// Tiles at the maxzoom are reported at the zoom the view wants (vector and GeoJSON, which
        /// are parsed again for it), else at their own.
        public var reparseOverscaled: Bool

        /// A source's options.
        public init(tileSize: Int = 512, minZoom: Int = 0, maxZoom: Int = 22, roundZoom: Bool = false, reparseOverscaled: Bool = false) {
            self.tileSize = max(tileSize, 1)
            self.minZoom = max(minZoom, 0)
            self.maxZoom = min(max(maxZoom, 0), 30)
            self.roundZoom = roundZoom
            self.reparseOverscaled = reparseOverscaled
        }

        /// The options GL JS gives a source of `kind`: raster, raster-dem, image and video round
        /// the zoom, vector and GeoJSON are parsed again when overscaled.
        public init(kind: StyleSource.Kind, tileSize: Int = 512, minZoom: Int = 0, maxZoom: Int = 22) {
            self.init(tileSize: tileSize, minZoom: minZoom, maxZoom: maxZoom,
                      roundZoom: [.raster, .rasterDEM, .image, .video].contains(kind),
                      reparseOverscaled: kind == .vector || kind == .geojson)
        }

        /// These options for the terrain's DEM source (`usedForTerrain`): twice the tile size, the zoom floored.
        public var forTerrainDEM: SourceOptions {
            SourceOptions(tileSize: tileSize << CoverTerrain.demZoomOffset, minZoom: minZoom, maxZoom: maxZoom, roundZoom: false,
                          reparseOverscaled: reparseOverscaled)
        }
    }

    /// Whether GL JS covers a view at `zoom` with the globe's transform under `projection`: `globe`
    /// below zoom 12 (its cover switches to Mercator's exactly there, with no blend),
    /// `vertical-perspective` at every zoom, `mercator` never.
    public static func coversAsGlobe(_ projection: StyleProjection, zoom: Double, walk: Walk = .maplibreGLJS) -> Bool {
        switch projection {
        case .mercator: false
        case .globe: zoom < (walk == .mapboxGLJS ? 6 : 12)
        case .verticalPerspective: true
        }
    }

    /// The tiles of `source` that `camera` needs through `viewport` under `projection`, with
    /// `terrain` when the map has 3D terrain; in the order of the GL JS whose `walk` it is.
    public static func tiles(camera: Camera, viewport: Viewport, projection: StyleProjection = .mercator, source: SourceOptions,
                             terrain: CoverTerrain? = nil, walk: Walk = .maplibreGLJS) -> [OverscaledTileID] {
        let view = CoverCamera(camera: camera, viewport: viewport, elevation: terrain?.elevation ?? 0,
                               minimumElevation: terrain?.minimumElevation ?? 0)
        if coversAsGlobe(projection, zoom: camera.zoom, walk: walk) {
            if walk == .mapboxGLJS { return MapboxGlobeCover(camera: view).tiles(source: source) }
            return tiles(transform: GlobeCoverTransform(camera: view), source: source, terrain: terrain, walk: walk)
        }
        return tiles(transform: MercatorCoverTransform(camera: view, walk: walk), source: source, terrain: terrain, walk: walk)
    }

    /// The source's covering zoom (`coveringZoomLevel`): the camera's zoom plus log2(512 / tileSize),
    /// rounded or floored, at least 0.
    public static func coveringZoom(cameraZoom: Double, source: SourceOptions) -> Int {
        integerZoom(cameraZoom + TileZoomCurve.log2(512 / Double(source.tileSize)), round: source.roundZoom)
    }

    /// `value` rounded as GL JS rounds a zoom (`Math.round`: halves up) or floored, at least 0.
    private static func integerZoom(_ value: Double, round: Bool) -> Int {
        let rounded = round ? floor(value + 0.5) : floor(value)
        return rounded.isFinite ? Int(max(0, min(rounded, 1_000))) : 0
    }

    /// A tile waiting in the walk.
    private struct Pending {
        var z: Int
        var x: Int
        var y: Int
        var wrap: Int
        var fullyVisible: Bool
        /// The heights its volume spans, carried down from its parent (Mapbox's terrain); nil when
        /// the volume is the tile's own.
        var heights: ClosedRange<Double>? = nil
        /// Whether it splits, when decided before its heights were flattened (Mapbox's terrain).
        var splits: Bool? = nil
    }

    /// The walk. With Mapbox's terrain, a tile's volume spans its parent's heights narrowed to those
    /// read for it (or flattened to the centre's altitude when none are and it does not split);
    /// `demCover` walks the DEM source's own cover, whose volumes keep the root's span.
    static func tiles<Transform: CoverTransform>(transform: Transform, source: SourceOptions, terrain: CoverTerrain?, walk: Walk,
                                                 demCover: Bool = false) -> [OverscaledTileID] {
        let view = transform.camera
        let details = transform.details
        let camera = transform.cameraPoint
        let center = view.centerPoint
        let desiredZ = coveringZoom(cameraZoom: view.zoom, source: source)
        let allowsVariableZoom = details.allowsVariableZoom(camera: view, coveringZoom: desiredZ, terrain: terrain)
        let maxZoom = source.maxZoom
        let nominalZ = min(desiredZ, maxZoom)
        let tileCount = pow(2, Double(nominalZ))
        let centerInTiles = (x: tileCount * center.x, y: tileCount * center.y)
        // Not wrapped across the antimeridian, as in GL JS.
        let centerDistance2D = hypot(center.x - camera.x, center.y - camera.y)
        let height = abs(center.z - camera.z)
        let centerDistance = hypot(centerDistance2D, height)
        let requestedZoom = view.zoom + TileZoomCurve.log2(512 / Double(source.tileSize))
        let curve = TileZoomCurve()
        let edgeAxes = walk == .mapboxGLJS ? FrustumEdgeAxes(transform.frustum) : nil
        let split = walk == .mapboxGLJS && allowsVariableZoom && transform is MercatorCoverTransform
            ? MapboxTileSplit(view: view, camera: camera, coveringZoom: nominalZ, source: source, measuresHeights: terrain != nil && !demCover) : nil
        let mapboxTerrain = split != nil ? terrain?.mapbox : nil
        let rootHeights = mapboxTerrain?.rootRange(demCover: demCover)

        var stack: [Pending] = []
        if details.allowsWorldCopies {
            for i in 1...3 {
                stack.append(Pending(z: 0, x: 0, y: 0, wrap: -i, fullyVisible: false, heights: rootHeights))
                stack.append(Pending(z: 0, x: 0, y: 0, wrap: i, fullyVisible: false, heights: rootHeights))
            }
        }
        stack.append(Pending(z: 0, x: 0, y: 0, wrap: 0, fullyVisible: false, heights: rootHeights))
        var found: [(tile: OverscaledTileID, distance: Double)] = []
        while var tile = stack.popLast() {
            let volume = tile.heights.flatMap { AxisAlignedBox(tileZ: tile.z, x: tile.x, y: tile.y, wrap: tile.wrap, heights: $0) as? Transform.Details.Volume }
                ?? details.volume(z: tile.z, x: tile.x, y: tile.y, wrap: tile.wrap, elevation: view.elevation, terrain: terrain)
            if !tile.fullyVisible {
                var visibility = volume.intersection(with: transform.frustum)
                if visibility != .outside, let horizon = transform.horizon {
                    let side = volume.intersection(with: horizon)
                    visibility = side == .outside ? .outside : (visibility == .inside && side == .inside ? .inside : .partial)
                }
                if visibility == .outside { continue }
                tile.fullyVisible = visibility == .inside
            }
            let distance = details.distance(fromX: camera.x, y: camera.y, toTileZ: tile.z, x: tile.x, y: tile.y, volume: volume)
            var tileZoom = Double(desiredZ)
            if allowsVariableZoom && split == nil {
                tileZoom = curve.zoom(centerZoom: requestedZoom, distance: distance, height: height, centerDistance: centerDistance,
                                      fieldOfView: view.fieldOfViewDegrees)
            }
            let thisZ = integerZoom(tileZoom, round: source.roundZoom)
            let target = min(thisZ, maxZoom)
            tile.wrap = details.wrap(center: center, z: tile.z, x: tile.x, wrap: tile.wrap)
            let takes: Bool
            if let split, let box = volume as? AxisAlignedBox {
                takes = tile.z >= nominalZ || !(tile.splits ?? split.splits(z: tile.z, box: box))
            } else {
                takes = tile.z >= target
            }
            if takes {
                if tile.z < source.minZoom { continue }
                if let edgeAxes, !tile.fullyVisible, edgeAxes.separates(volume.corners) { continue }
                let overscaledZ = tile.z == maxZoom && source.reparseOverscaled ? max(tile.z, thisZ) : tile.z
                let dx: Double
                if walk == .mapboxGLJS {
                    dx = centerInTiles.x - (0.5 + Double(tile.x) + Double(tile.wrap) * pow(2, Double(tile.z))) * pow(2, Double(nominalZ - tile.z))
                } else {
                    dx = centerInTiles.x - 0.5 - Double(tile.x)
                }
                let dy = centerInTiles.y - 0.5 - Double(tile.y)
                found.append((OverscaledTileID(overscaledZ: overscaledZ, wrap: tile.wrap, canonical: CanonicalTileID(z: tile.z, x: tile.x, y: tile.y)),
                              dx * dx + dy * dy))
            } else {
                for i in 0..<4 {
                    var child = Pending(z: tile.z + 1, x: tile.x * 2 + i % 2, y: tile.y * 2 + i / 2, wrap: tile.wrap, fullyVisible: tile.fullyVisible,
                                        heights: tile.heights)
                    if let mapboxTerrain, let split, !demCover, let heights = tile.heights {
                        if let read = mapboxTerrain.elevationRange(z: child.z, x: child.x, y: child.y) {
                            child.heights = read
                        } else {
                            let box = AxisAlignedBox(tileZ: child.z, x: child.x, y: child.y, wrap: child.wrap, heights: heights)
                            let splits = child.z < nominalZ && split.splits(z: child.z, box: box)
                            child.splits = splits
                            if !splits { child.heights = mapboxTerrain.centerAltitude...mapboxTerrain.centerAltitude }
                        }
                    }
                    stack.append(child)
                }
            }
        }
        // A stable sort, as V8's Array.prototype.sort.
        return found.enumerated().sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }.map(\.element.tile)
    }
}
