import Foundation
import MapSimStyle

/// Mapbox GL JS 3.0.1's average elevation of the ground in view (`sampleAverageElevation`), which
/// its fog measures distances from once 3D terrain has raised the camera: the heights under five
/// points of the view below its horizon line — the middle of the lower part, its left, right, top
/// and bottom — each weighed by one over its distance from the point below the camera.
///
/// Mapbox casts each ray onto the DEM's surface; here it meets the plane of the centre's altitude,
/// and the height there is read from the DEM tiles loaded, which differs from the surface's hit
/// only on steep ground far from the centre.
enum MapboxAverageElevation {
    /// The points sampled, as fractions of the view's width and of its height below the horizon line.
    private static let points: [(x: Double, y: Double)] = [(0.5, 0.2), (0.3, 0.5), (0.5, 0.5), (0.7, 0.5), (0.5, 0.8)]

    /// The average for `transform`'s view, heights read by `height` (exaggerated metres, nil where
    /// no DEM tile is loaded); nil when no point has one.
    static func sample(_ transform: MercatorCoverTransform, height: (LngLat) -> Double?) -> Double? {
        let camera = transform.camera
        guard let inverse = transform.viewProjection.inverted else { return nil }
        let horizon = MapboxFogCulling.horizonFromTop(camera)
        var (sum, weights) = (0.0, 0.0)
        for point in points {
            let px = point.x * camera.width
            let py = horizon + point.y * (camera.height - horizon)
            let (nx, ny) = (2 * px / camera.width - 1, 1 - 2 * py / camera.height)
            let near = inverse.transform(nx, ny, -1, 1)
            let far = inverse.transform(nx, ny, 1, 1)
            let (zn, zf) = (near.z / near.w, far.z / far.w)
            guard zn != zf else { continue }
            let t = (camera.elevation - zn) / (zf - zn)
            guard t >= 0 else { continue }
            let x = (near.x / near.w + (far.x / far.w - near.x / near.w) * t) / camera.worldSize
            let y = (near.y / near.w + (far.y / far.w - near.y / near.w) * t) / camera.worldSize
            guard (0...1).contains(y), let h = height(GLJSMercator.location(x: x, y: y)) else { continue }
            let distance = hypot(x - transform.cameraPoint.x, y - transform.cameraPoint.y)
            guard distance > 0 else { continue }
            sum += h / distance
            weights += 1 / distance
        }
        return weights > 0 ? sum / weights : nil
    }
}
