import Foundation
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimJSON
@testable import MapSimStyle

/// Bad input never crashes or hangs a load: thousands of seeded mutations of real inputs.
@Suite("Map.Robustness")
struct RobustnessTests {
    private static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: SampleStyle.folder + "/" + relativePath)))
    }

    /// A copy of `input` with a few random bytes changed, a random cut, or a random span repeated.
    private static func mutate(_ input: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var output = input
        guard !output.isEmpty else { return output }
        switch random.next() % 4 {
        case 0:
            for _ in 0...(random.next() % 4) {
                output[Int(random.next() % UInt64(output.count))] = UInt8(truncatingIfNeeded: random.next())
            }
        case 1:
            output = Array(output[0..<Int(random.next() % UInt64(output.count))])
        case 2:
            let start = Int(random.next() % UInt64(output.count))
            let end = min(output.count, start + Int(random.next() % 64))
            output.insert(contentsOf: output[start..<end], at: start)
        default:
            let interesting: [String] = ["1e999", "-1", "null", "[]", "{}", "\"\"", "99999999", "true", "\"{z}\""]
            let token = Array(interesting[Int(random.next() % UInt64(interesting.count))].utf8)
            let at = Int(random.next() % UInt64(output.count))
            output.replaceSubrange(at..<min(output.count, at + token.count), with: token)
        }
        return output
    }

    private static func load(style: [UInt8], files: [String: [UInt8]]) async -> Map.RunOutcome {
        let loader = StubLoader()
        for (path, data) in files { loader.serve("https://h/" + path, data: data) }
        let map = Map(backends: .only(loader), viewport: Viewport(width: 800, height: 600))
        await map.setStyleJSON(String(decoding: style, as: UTF8.self), baseURL: "https://h/style.json")
        return await map.run(until: .mapIdle, timeout: .seconds(20))
    }

    private static func sampleFiles() throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for path in ["sprite.json", "sprite.png", "tiles.json", "glyphs/Mapsim Sans Regular/0-255.pbf", "glyphs/Mapsim Sans Regular/256-511.pbf"] {
            files[path.replacingOccurrences(of: " ", with: "%20")] = try bytes(path)
        }
        for tile in ["10/163/395", "10/163/396", "10/164/395", "10/164/396"] { files["tiles/\(tile).pbf"] = try bytes("tiles/\(tile).pbf") }
        return files
    }

    @Test func mutatedStylesFailCleanlyOrLoad() async throws {
        let style = try Self.bytes("style.json")
        let files = try Self.sampleFiles()
        var random = SplitMix64(seed: 7)
        var reached = 0
        var failed = 0
        for _ in 0..<400 {
            switch await Self.load(style: Self.mutate(style, &random), files: files) {
            case .reached: reached += 1
            case .styleFailed(let message): failed += 1; #expect(!message.isEmpty)
            case .timedOut(_, let nothingPending):
                // A load that never reaches idle has stopped on an error (a source that cannot load),
                // it does not hang with work still pending.
                #expect(nothingPending, "a mutated style left the map busy past the timeout")
            }
        }
        #expect(reached > 0 && failed > 0)
    }

    @Test func mutatedResourcesGiveErrorsNotCrashes() async throws {
        let style = try Self.bytes("style.json")
        let files = try Self.sampleFiles()
        var random = SplitMix64(seed: 11)
        let paths = files.keys.sorted()
        var errors = 0
        for _ in 0..<400 {
            var broken = files
            let path = paths[Int(random.next() % UInt64(paths.count))]
            broken[path] = Self.mutate(files[path]!, &random)
            let loader = StubLoader()
            for (path, data) in broken { loader.serve("https://h/" + path, data: data) }
            let map = Map(backends: .only(loader), viewport: Viewport(width: 800, height: 600))
            let recorder = EventRecorder(map)
            await map.setStyleJSON(String(decoding: style, as: UTF8.self), baseURL: "https://h/style.json")
            let outcome = await map.run(until: .mapIdle, timeout: .seconds(20))
            errors += recorder.events(of: .mapLoadingError).count
            if case .styleFailed = outcome { Issue.record("a resource error must not fail the style") }
        }
        #expect(errors > 100)
    }

    @Test func nonFiniteNumbersAreRejected() {
        #expect(throws: JSONSyntaxError(.malformed, "number 1e999 is too large", line: 1, column: 13)) {
            try JSONParser.parse(#"{"bearing": 1e999}"#)
        }
        let camera = Camera(center: LngLat(longitude: .nan, latitude: .infinity), zoom: .nan, bearing: .infinity, pitch: -.infinity)
        #expect(camera == Camera(center: LngLat(longitude: 0, latitude: 0), zoom: 0))
    }
}
