import Benchmark
import Foundation
import MapSim
import MapSimLive

/// A million AIS-like observations of 5,000 vessels, replayed from a JSON-lines file with the default
/// purge options (100,000 observations kept), as `mapsim live replay` does.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .peakMemoryResident, .mallocCountTotal],
                                           maxDuration: .seconds(30), maxIterations: 5)

    Benchmark("Replay 1M observations with the default purge options") { benchmark in
        let path = try FeedFile.shared.path
        let reader = try DynamicEntityFeedReader(path: path, format: .init(trackIDField: "MMSI"))
        let session = DynamicEntitySession(map: nil, reportsEvents: false)
        benchmark.startMeasurement()
        await session.connect(to: reader)
        await session.runToEnd()
        benchmark.stopMeasurement()
        let summary = await session.summary
        precondition(summary.counts.observationsReceived == FeedFile.count && summary.observationsKept == 100_000)
    }
}

/// The feed, written once to a temporary file.
final class FeedFile: Sendable {
    static let count = 1_000_000
    static let shared = FeedFile()
    private let result: Result<String, any Error>

    var path: String {
        get throws { try result.get() }
    }

    private init() {
        result = Result {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("mapsim-benchmark-ais.jsonl").path
            var text = ""
            text.reserveCapacity(Self.count * 180)
            for index in 0..<Self.count {
                let vessel = index % 5_000
                let longitude = 10.0 + Double(vessel % 100) * 0.05 + Double(index / 5_000) * 0.0001
                let latitude = 54.0 + Double(vessel / 100) * 0.04
                text += #"{"geometry":{"x":\#(longitude),"y":\#(latitude)},"attributes":{"MMSI":\#(219_000_000 + vessel),"#
                text += #""BaseDateTime":"2024-01-01T00:00:00","SOG":\#(Double(index % 150) / 10),"COG":45.5,"Heading":45,"VesselName":"VESSEL \#(vessel)"}}"#
                text += "\n"
            }
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }
}
