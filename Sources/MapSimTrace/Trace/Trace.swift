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
        /// The style's URL, redacted; nil when not recorded.
        public var style: String?
        /// The network: a simulated profile (`3g`), `real`, or `offline`; nil when not recorded.
        public var network: String?
        /// The camera asked for — `center` [lon, lat], `zoom`, `bearing`, `pitch`, each absent when
        /// the style's own was used — and the view's `size` (`WxH`) and `pixel-ratio`; nil when not
        /// recorded.
        public var camera: JSONObject?

        /// A header.
        public init(mapsimVersion: String = MapSimInfo.version, scenario: String, seed: UInt64 = 0, engine: String = Engine.maplibreNative.description,
                    style: String? = nil, network: String? = nil, camera: JSONObject? = nil) {
            self.mapsimVersion = mapsimVersion
            self.scenario = scenario
            self.seed = seed
            self.engine = engine
            self.style = style
            self.network = network
            self.camera = camera
        }

        /// The `camera` field for `options` on a `viewport`: only the fields given.
        public static func camera(_ options: CameraOptions, viewport: Viewport) -> JSONObject {
            var camera = JSONObject()
            if let center = options.center { camera["center"] = .array([.number(center.longitude), .number(center.latitude)]) }
            if let zoom = options.zoom { camera["zoom"] = .number(zoom) }
            if let bearing = options.bearing { camera["bearing"] = .number(bearing) }
            if let pitch = options.pitch { camera["pitch"] = .number(pitch) }
            camera["size"] = .string("\(viewport.width)x\(viewport.height)")
            camera["pixel-ratio"] = .number(viewport.pixelRatio)
            return camera
        }

        /// The header as a JSON object: `{"mapsim": ..., "scenario": ..., "seed": ..., "engine": ...}`,
        /// then `style`, `network` and `camera` when recorded.
        public var json: JSONObject {
            var object = JSONObject([("mapsim", .string(mapsimVersion)), ("scenario", .string(scenario)), ("seed", .number(Double(seed))),
                                     ("engine", .string(engine))])
            if let style { object["style"] = .string(style) }
            if let network { object["network"] = .string(network) }
            if let camera { object["camera"] = .object(camera) }
            return object
        }

        /// Reads a header object; nil when the object is not one. A header written before engines
        /// were named is MapLibre Native's.
        public init?(json: JSONObject) {
            guard let version = json["mapsim"]?.stringValue, let scenario = json["scenario"]?.stringValue else { return nil }
            self.init(mapsimVersion: version, scenario: scenario, seed: UInt64(json["seed"]?.numberValue ?? 0),
                      engine: json["engine"]?.stringValue ?? Engine.maplibreNative.description, style: json["style"]?.stringValue,
                      network: json["network"]?.stringValue, camera: json["camera"]?.objectValue)
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
