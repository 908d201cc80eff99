import ArgumentParser
import MapSim
import MapSimKit
import MapSimStyle

/// `LON,LAT` on the command line.
struct LngLatArgument: ExpressibleByArgument {
    var value: LngLat

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let lon = Double(parts[0].trimmingCharacters(in: .whitespaces)),
              let lat = Double(parts[1].trimmingCharacters(in: .whitespaces)),
              (-180...180).contains(lon), (-90...90).contains(lat) else { return nil }
        value = LngLat(longitude: lon, latitude: lat)
    }

    static var defaultValueDescription: String { "LON,LAT" }
}

/// `WIDTHxHEIGHT` on the command line.
struct SizeArgument: ExpressibleByArgument {
    var width: Int
    var height: Int

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (1...16384).contains(width), (1...16384).contains(height) else { return nil }
        self.width = width
        self.height = height
    }

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    var defaultValueDescription: String { "\(width)x\(height)" }
}

extension Map.State: ExpressibleByArgument {}

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
