import Foundation
import Testing
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

    /// Checks that `recordings` hold every camera of every fixture under each of the five network
    /// conditions the recording scripts use.
    static func expectEveryCameraUnderEveryCondition(_ recordings: [DifferentialRecording]) throws {
        let conditions = Set(recordings.map { URL(fileURLWithPath: $0.file).deletingPathExtension().pathExtension })
        #expect(conditions == ["plain", "3g-slow-tiles", "glyphs-503-once", "tiles-503-once", "sprite-503-once"])
        for fixture in Set(recordings.map(\.fixture)) {
            let cameras = try JSONParser.parse(Array(Data(contentsOf: URL(fileURLWithPath: "\(root)/\(fixture)/cameras.json"))))
            #expect(recordings.filter { $0.fixture == fixture }.count == (cameras.arrayValue?.count ?? 0) * conditions.count, "\(fixture)")
        }
        #expect(Set(recordings.map(\.fixture)) == ["geojson", "labels", "legacy-ref", "raster-404", "world-copies"])
    }

    /// A map in still mode, as pymgl renders, at a recording's `camera` (size, centre, zoom, bearing, pitch).
    static func stillMap(backends: ResourceBackends, camera: JSONValue) async -> Map {
        var options = Map.Options()
        options.mode = .still
        return await map(backends: backends, camera: camera, options: options)
    }

    /// A map with `options` at a recording's `camera` (size, centre, zoom, bearing, pitch).
    static func map(backends: ResourceBackends, camera: JSONValue, options: Map.Options) async -> Map {
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
