import MapSim
import MapSimJSON
import MapSimStyle

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
        /// What else decides the cover and the layout, when not the defaults: the style's
        /// `projection` and `terrain`, the global state set over the style's (`global-state`), the
        /// map's `max-pitch`; nil when all are the defaults.
        public var view: JSONObject?

        /// A header.
        public init(mapsimVersion: String = MapSimInfo.version, scenario: String, seed: UInt64 = 0, engine: String = Engine.maplibreNative.description,
                    style: String? = nil, network: String? = nil, camera: JSONObject? = nil, view: JSONObject? = nil) {
            self.mapsimVersion = mapsimVersion
            self.scenario = scenario
            self.seed = seed
            self.engine = engine
            self.style = style
            self.network = network
            self.camera = camera
            self.view = view
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

        /// The `view` field: what of `style` and the map's settings changes a cover or a layout, nil
        /// when nothing does.
        public static func view(style: Style?, globalState: JSONObject = JSONObject(), config: JSONObject = JSONObject(),
                                maximumPitch: Double? = nil) -> JSONObject? {
            var view = JSONObject()
            if let projection = style?.projection, projection != .mercator { view["projection"] = .string(projection.rawValue) }
            if let terrain = style?.terrain {
                view["terrain"] = .object(JSONObject([("source", .string(terrain.source)), ("exaggeration", terrain.exaggerationExpression ?? .number(terrain.exaggeration))]))
            }
            if !globalState.members.isEmpty { view["global-state"] = .object(globalState) }
            if !config.members.isEmpty { view["config"] = .object(config) }
            if let maximumPitch { view["max-pitch"] = .number(maximumPitch) }
            return view.members.isEmpty ? nil : view
        }

        /// The header as a JSON object: `{"mapsim": ..., "scenario": ..., "seed": ..., "engine": ...}`,
        /// then `style`, `network`, `camera` and `view` when recorded.
        public var json: JSONObject {
            var object = JSONObject([("mapsim", .string(mapsimVersion)), ("scenario", .string(scenario)), ("seed", .number(Double(seed))),
                                     ("engine", .string(engine))])
            if let style { object["style"] = .string(style) }
            if let network { object["network"] = .string(network) }
            if let camera { object["camera"] = .object(camera) }
            if let view { object["view"] = .object(view) }
            return object
        }

        /// What is wrong with a header's `camera`, if anything: every number finite and in the range
        /// a camera has (longitude −180…180, latitude −90…90, zoom 0…25.5, pitch 0…90, pixel ratio
        /// above 0), the size `WxH`.
        public static func problem(ofCamera camera: JSONObject) -> String? {
            func finite(_ key: String, in range: ClosedRange<Double>) -> String? {
                guard let value = camera[key] else { return nil }
                guard let number = value.numberValue, number.isFinite else { return "\(key) is not a finite number (\(JSONWriter.string(value)))" }
                return range.contains(number) ? nil : "\(key) \(JSONWriter.formatNumber(number)) is outside \(JSONWriter.formatNumber(range.lowerBound))…\(JSONWriter.formatNumber(range.upperBound))"
            }
            if let center = camera["center"] {
                guard let pair = center.arrayValue, pair.count == 2, let longitude = pair[0].numberValue, let latitude = pair[1].numberValue,
                      longitude.isFinite, latitude.isFinite else { return "center is not [longitude, latitude] in finite numbers" }
                guard (-180...180).contains(longitude), (-90...90).contains(latitude) else { return "center [\(longitude), \(latitude)] is off the map" }
            }
            if let problem = finite("zoom", in: 0...25.5) ?? finite("bearing", in: -1_000_000...1_000_000) ?? finite("pitch", in: 0...90)
                ?? finite("pixel-ratio", in: Double.leastNonzeroMagnitude...64) {
                return problem
            }
            if let size = camera["size"] {
                let sides = size.stringValue?.split(separator: "x").compactMap { Int($0) } ?? []
                guard sides.count == 2, sides.allSatisfy({ $0 > 0 }) else { return "size is not WxH in pixels (\(JSONWriter.string(size)))" }
            }
            return nil
        }

        /// Reads a header object; nil when the object is not one. A header written before engines
        /// were named is MapLibre Native's.
        public init?(json: JSONObject) {
            guard let version = json["mapsim"]?.stringValue, let scenario = json["scenario"]?.stringValue else { return nil }
            self.init(mapsimVersion: version, scenario: scenario, seed: UInt64(json["seed"]?.numberValue ?? 0),
                      engine: json["engine"]?.stringValue ?? Engine.maplibreNative.description, style: json["style"]?.stringValue,
                      network: json["network"]?.stringValue, camera: json["camera"]?.objectValue)
            view = json["view"]?.objectValue
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
