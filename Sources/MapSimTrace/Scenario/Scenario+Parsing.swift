import MapSim
import Foundation
import MapSimJSON
import MapSimLive
import MapSimStyle

extension Scenario {
    /// Reads a scenario file; relative mirror folders resolve against the file's folder.
    public static func read(file path: String) throws(ScenarioError) -> Scenario {
        let data: [UInt8]
        do {
            data = try InputFile.read(path, limit: Trace.maximumYAMLSize)
        } catch {
            throw ScenarioError(.unreadable, file: path, error.reason, underlying: error)
        }
        let name = URL(fileURLWithPath: path).lastPathComponent.replacingOccurrences(of: ".scenario.yaml", with: "")
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try parse(String(decoding: data, as: UTF8.self), name: name, folder: folder, file: path)
    }

    /// Parses scenario YAML.
    public static func parse(_ text: String, name: String, folder: String, file: String = "scenario") throws(ScenarioError) -> Scenario {
        let document: JSONValue
        do {
            document = try YAMLReader.read(text)
        } catch {
            throw ScenarioError(.malformed, file: error.line.map { "\(file):\($0)" } ?? file, error.reason, underlying: error)
        }
        guard let root = document.objectValue else { throw ScenarioError(.malformed, file: file, "a scenario is a YAML mapping") }
        do {
            return try ScenarioParser(root: JSONField(.object(root)), name: name, folder: folder).scenario()
        } catch {
            throw ScenarioError(.malformed, file: file, path: error.path, error.message, underlying: error)
        }
    }
}

/// Reads the fields of a scenario document, naming the path of anything wrong.
private struct ScenarioParser {
    let root: JSONField
    let name: String
    let folder: String

    func scenario() throws(StyleError) -> Scenario {
        let known: Set<String> = ["name", "description", "style", "engine", "mirror", "network", "viewport", "camera", "global-state", "config", "cache", "live", "entities",
                                  "content", "steps", "expect"]
        for key in try root.object().keys where !known.contains(key) { throw root.member(key)!.failure("unknown scenario key \"\(key)\"") }
        guard let style = root.member("style") else { throw root.failure("missing required key \"style\"") }
        var scenario = Scenario(name: try root.member("name")?.string() ?? name, description: try root.member("description")?.string() ?? "",
                                style: try style.string(), mirrors: [], engine: .maplibreNative, profile: .lan, seed: 0, faults: [], cacheControl: nil, offlineWindows: [],
                                viewport: Viewport(width: 512, height: 512), camera: CameraOptions(), cache: .empty, live: nil, entities: nil, content: nil, steps: [], expectations: [])
        if let engine = root.member("engine") {
            let name = try engine.string()
            guard let known = Engine.Name(rawValue: name) else {
                throw engine.failure("unknown engine \"\(name)\"; use one of " + Engine.Name.allCases.map(\.rawValue).joined(separator: ", "))
            }
            scenario.engine = known
        }
        // The camera's pitch goes as far as the engine's map takes it (60 for MapLibre's, 85 for Mapbox's).
        let maximumPitch = Engine.named(scenario.engine).maximumPitch
        if let mirror = root.member("mirror") {
            for (prefix, _) in try mirror.object().members {
                let directory = try mirror.member(prefix)!.string()
                let absolute = directory.hasPrefix("/") ? directory : URL(fileURLWithPath: folder).appendingPathComponent(directory).standardizedFileURL.path
                scenario.mirrors.append(.init(prefix: prefix, directory: absolute))
            }
        }
        if let network = root.member("network") {
            if let profile = network.member("profile") {
                let name = try profile.string()
                guard let preset = NetworkPreset(rawValue: name) else { throw profile.failure("unknown profile \"\(name)\"") }
                scenario.profile = preset
            }
            scenario.seed = UInt64(try network.member("seed")?.integer(in: 0...Int(Int32.max)) ?? 0)
            scenario.cacheControl = try network.member("cache-control")?.string()
            for fault in try network.member("faults")?.array() ?? [] { scenario.faults.append(try self.fault(fault)) }
            for window in try network.member("offline")?.array() ?? [] {
                let bounds = try window.array()
                guard bounds.count == 2 else { throw window.failure("expected [start ms, end ms]") }
                let start = try bounds[0].duration()
                let end = try bounds[1].duration(atLeast: start)
                scenario.offlineWindows.append(start..<end)
            }
        }
        if let viewport = root.member("viewport") {
            scenario.viewport = Viewport(width: try viewport.member("width")?.integer(in: 1...16_384) ?? 512,
                                         height: try viewport.member("height")?.integer(in: 1...16_384) ?? 512,
                                         pixelRatio: try viewport.member("pixel-ratio")?.number(in: 0.1...8) ?? 1)
        }
        if let camera = root.member("camera") { scenario.camera = try self.camera(camera, maximumPitch: maximumPitch) }
        if let state = root.member("global-state") { scenario.globalState = try state.object() }
        if let config = root.member("config") { scenario.config = try Self.config(config) }
        if let cache = root.member("cache") {
            if case .string(let state) = cache.value {
                switch state {
                case "empty": scenario.cache = .empty
                case "warm": scenario.cache = .warm(nil)
                case "none": scenario.cache = .none
                default: throw cache.failure("expected empty, warm, none, {warm: {camera}} or {region: {...}}")
                }
            } else if let region = cache.member("region") {
                guard let bounds = region.member("bounds"), let low = region.member("min-zoom"), let high = region.member("max-zoom") else {
                    throw region.failure("expected {bounds: [w, s, e, n], min-zoom, max-zoom}")
                }
                scenario.cache = .region(Scenario.Region(bounds: try bounds.bounds(), minZoom: try low.integer(in: 0...22), maxZoom: try high.integer(in: 0...22)))
            } else {
                guard let warm = cache.member("warm") else { throw cache.failure("expected empty, warm, none, {warm: {camera}} or {region: {...}}") }
                scenario.cache = .warm(try warm.member("camera").map { field throws(StyleError) in try self.camera(field, maximumPitch: maximumPitch) })
            }
        }
        if let live = root.member("live") { scenario.live = try self.live(live) }
        guard let steps = root.member("steps") else { throw root.failure("missing required key \"steps\"") }
        for step in try steps.array() { scenario.steps.append(try self.step(step, maximumPitch: maximumPitch)) }
        if scenario.live == nil && scenario.steps.contains(where: \.isLive) {
            scenario.live = Scenario.LiveSetup(source: nil, broker: SimulatedBroker.Configuration(), fields: LiveLocationFields(), floor: nil)
        }
        if scenario.live?.source == nil, let index = scenario.steps.firstIndex(where: \.followsTheView) {
            throw steps.failure("step \(index + 1) needs the GeoJSON source of the locations: add \"live: {source: ID}\"")
        }
        if let entities = root.member("entities") { scenario.entities = try self.entities(entities) }
        if scenario.entities == nil, let index = scenario.steps.firstIndex(where: \.isEntities) {
            throw steps.failure("step \(index + 1) needs a dynamic-entity source: add \"entities\"")
        }
        if scenario.live != nil && scenario.entities != nil { throw root.failure("a scenario has live data or dynamic entities, not both") }
        if let content = root.member("content") {
            scenario.content = try self.content(content)
            if scenario.cache == .none { throw content.failure("the data manager keeps its content in the cache: it cannot go with cache: none") }
        }
        if scenario.content == nil, let index = scenario.steps.firstIndex(where: \.isContent) {
            throw steps.failure("step \(index + 1) needs a site's content: add \"content\"")
        }
        for expectation in try root.member("expect")?.array() ?? [] { scenario.expectations.append(try self.expectation(expectation, steps: scenario.steps.count)) }
        return scenario
    }

    private func camera(_ field: JSONField, maximumPitch: Double) throws(StyleError) -> CameraOptions {
        var options = CameraOptions()
        if let center = field.member("center") {
            let values = try center.array()
            guard values.count == 2 else { throw center.failure("expected [longitude, latitude]") }
            options.center = LngLat(longitude: try values[0].number(in: -180...180), latitude: try values[1].number(in: -90...90))
        }
        options.zoom = try field.member("zoom")?.number(in: 0...Camera.maximumZoom)
        options.bearing = try field.member("bearing")?.number()
        options.pitch = try field.member("pitch")?.number(in: 0...maximumPitch)
        return options
    }

    private func state(_ field: JSONField) throws(StyleError) -> Map.State {
        let raw = try field.string()
        guard let state = Map.State(rawValue: raw) else { throw field.failure("expected style-loaded, map-loaded or map-idle") }
        return state
    }

    private func eventType(_ field: JSONField) throws(StyleError) -> MapEventType {
        let raw = try field.string()
        guard let type = MapEventType(rawValue: raw) else { throw field.failure("unknown event type \"\(raw)\"") }
        return type
    }

    private func step(_ field: JSONField, maximumPitch: Double) throws(StyleError) -> Scenario.Step {
        if case .string(let word) = field.value {
            switch word {
            case "load": return .load
            case "offline": return .offline
            case "online": return .online
            case "drop-connection": return .dropConnection
            case "stop-broker": return .stopBroker
            case "start-broker": return .startBroker
            case "restart-broker": return .restartBroker
            case "connect-feed": return .connectFeed
            case "disconnect-feed": return .disconnectFeed
            case "purge-all": return .purgeAll
            case "check-content": return .checkContent
            case "refresh-content": return .refreshContent
            default: throw field.failure("unknown step \"\(word)\"")
            }
        }
        let object = try field.object()
        guard object.count == 1, let key = object.keys.first, let value = field.member(key) else { throw field.failure("a step has one key") }
        switch key {
        case "wait":
            if case .string = value.value { return .wait(try state(value), timeout: .seconds(60)) }
            guard let until = value.member("until") else { throw value.failure("missing \"until\"") }
            return .wait(try state(until), timeout: try value.member("timeout")?.duration(atLeast: .milliseconds(1)) ?? .seconds(60))
        case "publish-content": return .publishContent(path(try value.string()))
        case "set-global-state": return .setGlobalState(try value.object())
        case "set-config": return .setConfig(try Self.config(value))
        case "advance": return .advance(try value.duration())
        case "camera": return .camera(try camera(value, maximumPitch: maximumPitch))
        case "subscribe": return .subscribe(try criteria(value))
        case "unsubscribe": return .unsubscribe(try criteria(value))
        case "outage": return .outage(try value.duration(atLeast: .milliseconds(1)))
        case "enable-live-data": return .enableLiveData(try domain(value))
        case "disable-live-data": return .disableLiveData(try domain(value))
        case "set-floor": return .setFloor(try floor(value))
        case "publish": return .publish(try update(value), delay: try value.member("delay")?.duration() ?? .milliseconds(0))
        default: throw field.failure("unknown step \"\(key)\"")
        }
    }

    private func expectation(_ field: JSONField, steps: Int) throws(StyleError) -> Scenario.Expectation {
        let object = try field.object()
        guard object.count == 1, let key = object.keys.first, let value = field.member(key) else { throw field.failure("an expectation has one key") }
        switch key {
        case "happens": return .happens(try eventType(value))
        case "never": return .never(try eventType(value))
        case "within":
            guard let event = value.member("event"), let ms = value.member("ms") else { throw value.failure("expected {event, ms}") }
            return .within(try eventType(event), try ms.duration())
        case "budget":
            var budgets: [LoadBudget] = []
            for (name, _) in try value.object().members {
                let limit = value.member(name)!
                let written = if case .number = limit.value { JSONWriter.string(limit.value) } else { try limit.string() }
                do {
                    budgets.append(try LoadBudget(name: name, limit: written))
                } catch {
                    throw limit.failure(error.message)
                }
            }
            guard !budgets.isEmpty else { throw value.failure("expected {NAME: LIMIT, ...}, as map-idle: 2s or requests.tile: 40") }
            return .budgets(budgets)
        case "no-network-after-step": return .noNetworkAfterStep(try value.integer(in: 1...max(steps, 1)))
        case "no-network-during-step": return .noNetworkDuringStep(try value.integer(in: 1...max(steps, 1)))
        case "count":
            guard let event = value.member("event"), let equals = value.member("equals") else { throw value.failure("expected {event, equals}") }
            return .count(try eventType(event), try equals.integer(in: 0...Int(Int32.max)))
        case "feature":
            guard let source = value.member("source"), let id = value.member("id") else { throw value.failure("expected {source, id, properties, coordinates}") }
            var coordinates: [Double]?
            if let field = value.member("coordinates") {
                let values = try field.array()
                guard values.count == 2 else { throw field.failure("expected [longitude, latitude]") }
                coordinates = [try values[0].number(in: -180...180), try values[1].number(in: -90...90)]
            }
            return .feature(Scenario.FeatureExpectation(source: try source.string(), id: id.value,
                                                        properties: try value.member("properties")?.object() ?? JSONObject(), coordinates: coordinates))
        default: throw field.failure("unknown expectation \"\(key)\"")
        }
    }

    /// A domain type: one topic level.
    private func domain(_ field: JSONField) throws(StyleError) -> String {
        let text = try field.string()
        guard LiveTopic.isLevel(text) else {
            throw field.failure("a domain type is one topic level: not empty, without /, +, # or NUL")
        }
        return text
    }

    /// A floor: a string, or a number as its JSON text (as a feature's floor property is read).
    private func floor(_ field: JSONField) throws(StyleError) -> String {
        if case .number = field.value { return JSONWriter.string(field.value) }
        let text = try field.string()
        guard !text.isEmpty else { throw field.failure("a floor is not empty") }
        return text
    }

    private func criteria(_ field: JSONField) throws(StyleError) -> TopicCriteria {
        let text = try field.string()
        do {
            return try TopicCriteria(parsing: text)
        } catch {
            throw field.failure(error.description)
        }
    }

    private func update(_ field: JSONField) throws(StyleError) -> LiveUpdate {
        for key in try field.object().keys where !["topic", "timestamp", "properties", "id", "delay"].contains(key) {
            throw field.member(key)!.failure("unknown publish key \"\(key)\"")
        }
        guard let topicField = field.member("topic"), let stamp = field.member("timestamp") else { throw field.failure("expected {topic, timestamp, properties, id, delay}") }
        let topic: LiveTopic
        let text = try topicField.string()
        do {
            topic = try LiveTopic(parsing: text)
        } catch {
            throw topicField.failure(error.description)
        }
        guard let timestamp = ISO8601Timestamp.microseconds(try stamp.string()) else { throw stamp.failure("expected an ISO 8601 date and time with a time zone") }
        var properties: [String: String] = [:]
        if let members = field.member("properties") {
            for (name, _) in try members.object().members { properties[name] = try members.member(name)!.string() }
        }
        return LiveUpdate(topic: topic, id: try field.member("id")?.string() ?? topic.location, timestamp: timestamp, properties: properties)
    }

    /// A path relative to the scenario's folder, made absolute.
    private func path(_ path: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: folder).appendingPathComponent(path).standardizedFileURL.path
    }

    private func content(_ field: JSONField) throws(StyleError) -> Scenario.ContentSetup {
        for key in try field.object().keys where !["server", "package", "public-key", "max-age", "require-first-online-check"].contains(key) {
            throw field.member(key)!.failure("unknown content key \"\(key)\"")
        }
        let package = try field.member("package")?.string()
        let publicKey = try field.member("public-key")?.string()
        if (package == nil) != (publicKey == nil) { throw field.failure("package and public-key go together") }
        let server = try field.member("server")?.string()
        return Scenario.ContentSetup(server: server.map(path), package: package.map(path), publicKey: publicKey.map(path),
                                     maximumAge: try field.member("max-age").map { field throws(StyleError) in try field.duration() },
                                     requiresFirstOnlineCheck: try field.member("require-first-online-check")?.bool() ?? false)
    }

    private func entities(_ field: JSONField) throws(StyleError) -> Scenario.EntitiesSetup {
        let known = ["feed", "track-id-field", "time-field", "interval", "speed", "max-observations", "max-observations-per-track", "max-duration",
                     "filter", "bbox", "source", "track-source"]
        for key in try field.object().keys where !known.contains(key) { throw field.member(key)!.failure("unknown entities key \"\(key)\"") }
        guard let feed = field.member("feed"), let trackID = field.member("track-id-field") else { throw field.failure("expected {feed, track-id-field, ...}") }
        let path = try feed.string()
        let absolute = path.hasPrefix("/") ? path : URL(fileURLWithPath: folder).appendingPathComponent(path).standardizedFileURL.path
        let format = DynamicEntityFeedFormat(trackIDField: try trackID.string(), timeField: try field.member("time-field")?.string(),
                                             interval: try field.member("interval")?.duration(atLeast: .milliseconds(1)) ?? .milliseconds(10),
                                             speed: try field.member("speed")?.number(in: 0.000_001...1_000_000) ?? 1)
        let options = DynamicEntityPurgeOptions(maximumObservations: try field.member("max-observations")?.integer(in: 0...Int(Int32.max)) ?? 100_000,
                                                maximumObservationsPerTrack: try field.member("max-observations-per-track")?.integer(in: 0...Int(Int32.max)) ?? 0,
                                                maximumDuration: try field.member("max-duration")?.duration() ?? .milliseconds(0))
        if let filter = field.member("filter") {
            do {
                _ = try DynamicEntityFilter(condition: filter.value, bounds: nil)
            } catch {
                throw filter.failure("\(error)")
            }
        }
        let source = try field.member("source")?.string()
        let trackSource = try field.member("track-source")?.string()
        if trackSource != nil && source == nil { throw field.failure("track-source goes with source") }
        return Scenario.EntitiesSetup(feed: absolute, format: format, options: options, filter: field.member("filter")?.value,
                                      bounds: try field.member("bbox")?.bounds(), binding: source.map { DynamicEntityBinding(sourceID: $0, trackSourceID: trackSource) })
    }

    private func live(_ field: JSONField) throws(StyleError) -> Scenario.LiveSetup {
        for key in try field.object().keys where !["source", "latency", "refuse", "chaos", "redelivery", "floor", "fields"].contains(key) {
            throw field.member(key)!.failure("unknown live key \"\(key)\"")
        }
        var broker = SimulatedBroker.Configuration()
        if let latency = field.member("latency") { broker.latency = try latency.duration() }
        if let redelivery = field.member("redelivery") { broker.redeliveryDelay = try redelivery.duration(atLeast: .milliseconds(1)) }
        for refused in try field.member("refuse")?.array() ?? [] { broker.refused.append(try criteria(refused)) }
        if let chaos = field.member("chaos") {
            broker.chaos = SimulatedBroker.Chaos(dropRate: try chaos.member("drop")?.number(in: 0...1) ?? 0,
                                                 duplicateRate: try chaos.member("duplicate")?.number(in: 0...1) ?? 0,
                                                 maximumExtraDelay: try chaos.member("reorder")?.duration() ?? .milliseconds(0))
        }
        var fields = LiveLocationFields()
        if let mapping = field.member("fields") {
            let pairs = try mapping.object().members.map { name, _ throws(StyleError) in "\(name)=\(try mapping.member(name)!.string())" }
            do {
                fields = try LiveLocationFields(parsing: pairs.joined(separator: ","))
            } catch {
                throw mapping.failure(error.reason)
            }
        }
        return Scenario.LiveSetup(source: try field.member("source")?.string(), broker: broker, fields: fields,
                                  floor: try field.member("floor").map { field throws(StyleError) in try floor(field) })
    }

    private func fault(_ field: JSONField) throws(StyleError) -> FaultRule {
        guard let url = field.member("url") else { throw field.failure("a fault needs \"url\"") }
        let times = try field.member("times")?.integer(in: 1...1_000_000)
        let effect: FaultRule.Effect
        if let status = field.member("status") {
            var headers: [(name: String, value: String)] = []
            for (name, _) in try field.member("headers")?.object().members ?? [] {
                headers.append((name, try field.member("headers")!.member(name)!.string()))
            }
            effect = .status(try status.integer(in: 100...599), headers: headers)
        } else if try field.member("drop")?.bool() == true {
            effect = .dropConnection
        } else if try field.member("truncate")?.bool() == true {
            effect = .truncateBody
        } else if let delay = field.member("delay") {
            effect = .delay(try delay.duration())
        } else {
            throw field.failure("a fault needs one of status, drop, truncate or delay")
        }
        return FaultRule(pattern: URLPattern(try url.string()), effect: effect, times: times)
    }

    /// Config values by import: an object of objects (`{"basemap": {"lightPreset": "dusk"}}`).
    private static func config(_ field: JSONField) throws(StyleError) -> JSONObject {
        let object = try field.object()
        for key in object.keys {
            guard case .object = object[key] else { throw field.member(key)!.failure("config values are given by import: {\"IMPORT\": {\"NAME\": VALUE}} (\"\" for the root style)") }
        }
        return object
    }
}
