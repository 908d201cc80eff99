import Foundation
import MapSimStyle

/// How a source is tiled: its type, tile size, zoom range and bounds. Answers which tiles a view needs.
public struct TilePyramid: Sendable, Hashable {
    /// How the covering zoom is derived from the camera zoom.
    public enum ZoomRounding: Sendable, Hashable {
        /// Vector and GeoJSON sources: the zoom is floored.
        case floor
        /// Raster and raster-dem sources: the zoom is rounded.
        case round
    }

    /// Floor for vector and GeoJSON tiles, round for raster.
    public var rounding: ZoomRounding
    /// The tile size in logical pixels (512 or 256 usually).
    public var tileSize: Int
    /// The lowest zoom with tiles; below it nothing is shown.
    public var minZoom: Int
    /// The highest zoom with tiles; above it these tiles are overzoomed.
    public var maxZoom: Int
    /// Tiles outside these bounds are never requested.
    public var bounds: LngLatBounds

    /// A pyramid with these properties.
    public init(rounding: ZoomRounding, tileSize: Int = 512, minZoom: Int = 0, maxZoom: Int = 22, bounds: LngLatBounds = .world) {
        self.rounding = rounding
        self.tileSize = tileSize > 0 ? tileSize : 512
        self.minZoom = max(minZoom, 0)
        self.maxZoom = min(max(maxZoom, self.minZoom), 30)
        self.bounds = bounds
    }

    /// The zoom whose tiles cover the view at `cameraZoom`: `zoom + log2(512 / tileSize)`, floored or rounded.
    public func coveringZoom(forCameraZoom cameraZoom: Double) -> Int {
        let exact = cameraZoom + log2(512 / Double(tileSize))
        let rounded = rounding == .floor ? floor(exact) : exact.rounded()
        return max(Int(rounded), 0)
    }

    /// How many tiles the view needs at most (before the bounds are applied), and at which zoom of
    /// data: computed without making them, so a cover that would explode can be refused first.
    public func visibleTileCount(camera: Camera, viewport: Viewport) -> (zoom: Int, count: Int) {
        let overscaledZ = coveringZoom(forCameraZoom: camera.zoom)
        guard overscaledZ >= minZoom else { return (overscaledZ, 0) }
        let dataZ = min(overscaledZ, maxZoom)
        return (dataZ, TileCover.count(covering: ViewportQuad(camera: camera, viewport: viewport), atZoom: dataZ))
    }

    /// The tiles the view needs, nothing outside the bounds: by MapLibre Native's scan-line cover,
    /// nearest to the centre first, none below minZoom, maxZoom tiles overzoomed above it; or by
    /// GL JS's cover (`frustum`, `CoveringTiles` in Mercator), in GL JS's order.
    public func visibleTiles(camera: Camera, viewport: Viewport, frustum: Bool = false) -> [OverscaledTileID] {
        if frustum {
            return CoveringTiles.tiles(camera: camera, viewport: viewport, source: coverOptions).filter { bounds.intersects($0.canonical) }
        }
        let overscaledZ = coveringZoom(forCameraZoom: camera.zoom)
        guard overscaledZ >= minZoom else { return [] }
        let dataZ = min(overscaledZ, maxZoom)
        return TileCover.tiles(covering: ViewportQuad(camera: camera, viewport: viewport), atZoom: dataZ)
            .filter { bounds.intersects($0.canonical) }
            .map { OverscaledTileID(overscaledZ: overscaledZ, wrap: $0.wrap, canonical: $0.canonical) }
    }

    /// The pyramid as GL JS's cover sees a source: a rounded zoom for raster sources, tiles parsed
    /// again when overscaled for vector and GeoJSON ones (the floored).
    public var coverOptions: CoveringTiles.SourceOptions {
        CoveringTiles.SourceOptions(tileSize: tileSize, minZoom: minZoom, maxZoom: maxZoom, roundZoom: rounding == .round,
                                    reparseOverscaled: rounding == .floor)
    }

    /// The zoom whose tiles stand for the view's: the covering zoom, but a raster source's is
    /// clamped to its maxzoom (its overzoomed tiles are not parsed again) — MapLibre Native's `tileZoom`.
    public func tileZoom(forCameraZoom cameraZoom: Double) -> Int {
        let overscaledZ = coveringZoom(forCameraZoom: cameraZoom)
        return rounding == .round ? min(overscaledZ, maxZoom) : overscaledZ
    }

    /// The tiles of zoom `z` covering the view, for a prefetch: nearest to the centre first, nothing
    /// outside the bounds, none below minZoom or above maxZoom.
    public func coverTiles(atZoom z: Int, camera: Camera, viewport: Viewport) -> [OverscaledTileID] {
        guard z >= minZoom, z <= maxZoom else { return [] }
        return TileCover.tiles(covering: ViewportQuad(camera: camera, viewport: viewport), atZoom: z)
            .filter { bounds.intersects($0.canonical) }
            .map { OverscaledTileID(overscaledZ: z, wrap: $0.wrap, canonical: $0.canonical) }
    }
}
