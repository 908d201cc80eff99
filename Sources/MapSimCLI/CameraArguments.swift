import ArgumentParser
import MapSimKit

/// Checks shared by commands that take a camera.
enum CameraArguments {
    static func validate(center: LngLat?, zoom: Double?, pitch: Double?) throws {
        if let center, !(-180...180).contains(center.longitude) || !(-90...90).contains(center.latitude) {
            throw ValidationError("--center must be a longitude between -180 and 180 and a latitude between -90 and 90, not \(center)")
        }
        if let zoom, !(0...Camera.maximumZoom).contains(zoom) {
            throw ValidationError("--zoom must be between 0 and \(Camera.maximumZoom), not \(zoom)")
        }
        if let pitch, !(0...Camera.maximumPitch).contains(pitch) {
            throw ValidationError("--pitch must be between 0 and \(Int(Camera.maximumPitch)) degrees, not \(pitch)")
        }
    }
}
