import MapSimStyle

/// A partial camera, as in the SDKs' `CameraOptions`: fields left nil keep their current value.
public struct CameraOptions: Sendable, Hashable {
    /// The new centre.
    public var center: LngLat?
    /// The new zoom.
    public var zoom: Double?
    /// The new bearing.
    public var bearing: Double?
    /// The new pitch.
    public var pitch: Double?

    /// Options setting the given fields.
    public init(center: LngLat? = nil, zoom: Double? = nil, bearing: Double? = nil, pitch: Double? = nil) {
        self.center = center
        self.zoom = zoom
        self.bearing = bearing
        self.pitch = pitch
    }

    /// Options setting every field of `camera`.
    public init(_ camera: Camera) {
        self.init(center: camera.center, zoom: camera.zoom, bearing: camera.bearing, pitch: camera.pitch)
    }

    /// `camera` with the fields these options set replaced, within the camera's maximum pitch.
    public func applied(to camera: Camera) -> Camera {
        Camera(center: center ?? camera.center, zoom: zoom ?? camera.zoom, bearing: bearing ?? camera.bearing, pitch: pitch ?? camera.pitch,
               maximumPitch: camera.maximumPitch)
    }

    /// These options with the fields `other` sets replaced.
    public func merged(with other: CameraOptions) -> CameraOptions {
        CameraOptions(center: other.center ?? center, zoom: other.zoom ?? zoom, bearing: other.bearing ?? bearing, pitch: other.pitch ?? pitch)
    }
}
