import ArgumentParser
import MapSim
import MapSimKit
import MapSimStyle

/// Checks shared by commands that take a camera.
enum CameraArguments {
    static func validate(zoom: Double?, pitch: Double?) throws {
        if let zoom, !(0...Camera.maximumZoom).contains(zoom) {
            throw ValidationError("--zoom must be between 0 and \(Camera.maximumZoom), not \(zoom)")
        }
        if let pitch, !(0...Camera.maximumPitch).contains(pitch) {
            throw ValidationError("--pitch must be between 0 and \(Int(Camera.maximumPitch)) degrees, not \(pitch)")
        }
    }
}
