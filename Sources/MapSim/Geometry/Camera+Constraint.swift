import Foundation
import MapSimStyle

extension Camera {
    /// The camera MapLibre Native would settle on for this view (its default "height only" constraint):
    /// the world is at least as tall as the view, and the centre is moved so that the view does not
    /// reach past the top or bottom of the world. Longitude is wrapped into -180...180.
    public func constrained(to viewport: Viewport) -> Camera {
        var result = self
        let minimumZoom = max(0, log2(Double(viewport.height) / 512))
        result.zoom = max(zoom, minimumZoom)
        let worldPixels = 512 * pow(2, result.zoom)
        let halfHeight = Double(viewport.height) / 2 / worldPixels
        let y = WebMercator.y(latitude: center.latitude)
        let clampedY = min(max(y, halfHeight), 1 - halfHeight)
        var longitude = center.longitude.truncatingRemainder(dividingBy: 360)
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        result.center = LngLat(longitude: longitude, latitude: clampedY == y ? center.latitude : WebMercator.latitude(y: clampedY))
        return result
    }
}
