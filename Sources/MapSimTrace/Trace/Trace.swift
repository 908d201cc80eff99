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
        /// The engine the run simulated (`maplibre-native`, `maplibre-gl-js`, `mapbox`).
        public var engine: String

        /// A header.
        public init(mapsimVersion: String = MapSimInfo.version, scenario: String, seed: UInt64 = 0, engine: String = Engine.maplibreNative.description) {
            self.mapsimVersion = mapsimVersion
            self.scenario = scenario
            self.seed = seed
            self.engine = engine
        }

        /// The header as a JSON object: `{"mapsim": ..., "scenario": ..., "seed": ..., "engine": ...}`.
        public var json: JSONObject {
            JSONObject([("mapsim", .string(mapsimVersion)), ("scenario", .string(scenario)), ("seed", .number(Double(seed))), ("engine", .string(engine))])
        }

        /// Reads a header object; nil when the object is not one. A header written before engines
        /// were named is MapLibre Native's.
        public init?(json: JSONObject) {
            guard let version = json["mapsim"]?.stringValue, let scenario = json["scenario"]?.stringValue else { return nil }
            self.init(mapsimVersion: version, scenario: scenario, seed: UInt64(json["seed"]?.numberValue ?? 0),
                      engine: json["engine"]?.stringValue ?? Engine.maplibreNative.description)
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
