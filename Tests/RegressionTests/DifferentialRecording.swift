import Foundation
import MapSimJSON
import MapSimStyle
import MapSimTesting
@testable import MapSim

/// One recording of MapLibre Native on a differential fixture (styles/differential/FIXTURE/SUBFOLDER/
/// NAME.json), as the parity tests read them, and the still map they compare it with.
struct DifferentialRecording: CustomStringConvertible, Sendable {
    var fixture: String
    var file: String
    var description: String { "\(fixture)/\(URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)" }

    static let root = SampleStyle.stylesFolder + "/differential"

    /// Every recording in `subfolder` of every fixture, in order.
    static func all(in subfolder: String) -> [DifferentialRecording] {
        let fixtures = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return fixtures.sorted().flatMap { fixture in
            let folder = "\(root)/\(fixture)/\(subfolder)"
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return files.filter { $0.hasSuffix(".json") }.sorted().map { DifferentialRecording(fixture: fixture, file: "\(folder)/\($0)") }
        }
    }

    /// A map in still mode, as pymgl renders, at a recording's `camera` (size, centre, zoom, bearing, pitch).
    static func stillMap(backends: ResourceBackends, camera: JSONValue) async -> Map {
        var options = Map.Options()
        options.mode = .still
        let map = Map(backends: backends, options: options)
        let size = (camera["size"]?.stringValue ?? "512x512").split(separator: "x").compactMap { Int($0) }
        await map.setViewport(Viewport(width: size[0], height: size[1]))
        let center = camera["center"]?.arrayValue?.compactMap(\.numberValue) ?? [0, 0]
        await map.setCamera(CameraOptions(center: LngLat(longitude: center[0], latitude: center[1]), zoom: camera["zoom"]?.numberValue,
                                          bearing: camera["bearing"]?.numberValue, pitch: camera["pitch"]?.numberValue))
        return map
    }

    /// The entries of `a` not matched one for one in `b` (a multiset difference).
    static func difference(_ a: [String], _ b: [String]) -> [String] {
        var remaining = b
        return a.filter { item in
            guard let index = remaining.firstIndex(of: item) else { return true }
            remaining.remove(at: index)
            return false
        }
    }
}
