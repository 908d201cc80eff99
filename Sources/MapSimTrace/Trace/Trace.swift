import MapSim
import MapSimJSON

/// The record of one run: a header saying what ran, and the ordered timed events.
public struct Trace: Sendable, Equatable {
    /// What produced the trace.
    public struct Header: Sendable, Equatable {
        /// The mapsim version that recorded it.
        public var mapsimVersion: String
        /// The scenario's name, or the style for a plain load.
        public var scenario: String
        /// The seed of the simulated network.
        public var seed: UInt64

        /// A header.
        public init(mapsimVersion: String = MapSimInfo.version, scenario: String, seed: UInt64 = 0) {
            self.mapsimVersion = mapsimVersion
            self.scenario = scenario
            self.seed = seed
        }

        /// The header as a JSON object: `{"mapsim": ..., "scenario": ..., "seed": ...}`.
        public var json: JSONObject {
            JSONObject([("mapsim", .string(mapsimVersion)), ("scenario", .string(scenario)), ("seed", .number(Double(seed)))])
        }

        /// Reads a header object; nil when the object is not one.
        public init?(json: JSONObject) {
            guard let version = json["mapsim"]?.stringValue, let scenario = json["scenario"]?.stringValue else { return nil }
            self.init(mapsimVersion: version, scenario: scenario, seed: UInt64(json["seed"]?.numberValue ?? 0))
        }
    }

    /// What produced it.
    public var header: Header
    /// The events, in the order they happened.
    public var events: [MapEvent]

    /// A trace.
    public init(header: Header, events: [MapEvent]) {
        self.header = header
        self.events = events
    }
}
