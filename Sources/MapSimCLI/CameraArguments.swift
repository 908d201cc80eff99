import ArgumentParser
import MapSimKit

/// Checks shared by commands that take a camera.
enum CameraArguments {
    /// Checks the camera flags; `pitch` may go up to `maximumPitch` (`--max-pitch`, itself at most 85).
    static func validate(center: LngLat?, zoom: Double?, pitch: Double?, maximumPitch: Double = Camera.maximumPitch) throws {
        if let center, !(-180...180).contains(center.longitude) || !(-90...90).contains(center.latitude) {
            throw ValidationError("--center must be a longitude between -180 and 180 and a latitude between -90 and 90, not \(center)")
        }
        if let zoom, !(0...Camera.maximumZoom).contains(zoom) {
            throw ValidationError("--zoom must be between 0 and \(Camera.maximumZoom), not \(zoom)")
        }
        guard (0...Camera.steepestPitch).contains(maximumPitch) else {
            throw ValidationError("--max-pitch must be between 0 and \(Int(Camera.steepestPitch)) degrees, not \(maximumPitch)")
        }
        if let pitch, !(0...maximumPitch).contains(pitch) {
            let raise = pitch > maximumPitch && pitch <= Camera.steepestPitch ? " (--max-pitch \(degrees(pitch)) allows it)" : ""
            throw ValidationError("--pitch must be between 0 and \(degrees(maximumPitch)) degrees (--max-pitch), not \(degrees(pitch))\(raise)")
        }
    }

    /// `value` as a flag would be written: 75, 72.5.
    private static func degrees(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
