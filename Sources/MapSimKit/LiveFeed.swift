import MapSim
import MapSimJSON
import MapSimLive
import MapSimTrace

/// Where `mapsim load --live` takes live data from, and how it drives a loaded map: a real MQTT
/// broker in real time, or a recorded stream (the JSON lines `mapsim live listen --events` writes)
/// replayed on the virtual clock through the simulated broker, so a replay gives the same events
/// every run.
public enum LiveFeed: Sendable {
    /// A broker, subscribed to `criteria`.
    case broker(MQTTLiveSession.Endpoint, criteria: [TopicCriteria])
    /// A recording: its live-update events, at their times, on the simulated broker, subscribed to
    /// `criteria` (with none and no live data following the view: every dataset of the recording, `DATASET/#`).
    case recording([LiveUpdate], times: [SimTime], criteria: [TopicCriteria])

    /// Reads a recording: JSON lines of events, of which the live-update ones are replayed at their
    /// `begin` times. A line that is not an event is an error naming its file and line.
    public static func recording(file path: String, criteria: [TopicCriteria]) throws(LiveFeedError) -> LiveFeed {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: 1 << 30)
        } catch {
            throw LiveFeedError(.invalidRecording, "\(error)", underlying: error)
        }
        var updates: [LiveUpdate] = []
        var times: [SimTime] = []
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() where !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) {
            let place = "\(path):\(index + 1)"
            do {
                guard let object = try JSONParser.parse(Array(line)).objectValue else { throw LiveFeedError(.invalidRecording, "\(place): not a JSON object") }
                let event = try MapEvent(json: object)
                guard case .live(.update(let received)) = event.payload else { continue }
                guard let timestamp = ISO8601Timestamp.microseconds(received.timestamp) else {
                    throw LiveFeedError(.invalidRecording, "\(place): timestamp \(received.timestamp) is not ISO 8601")
                }
                updates.append(LiveUpdate(topic: try LiveTopic(parsing: received.topic), id: received.id, timestamp: timestamp, properties: received.properties))
                times.append(event.begin)
            } catch let failure as LiveFeedError {
                throw failure
            } catch {
                throw LiveFeedError(.invalidRecording, "\(place): \(error)", underlying: error)
            }
        }
        return .recording(updates, times: times, criteria: criteria)
    }

    /// Every dataset of `updates`, as criteria (`DATASET/#`).
    private static func everyDataset(of updates: [LiveUpdate]) -> [TopicCriteria] {
        var all: [TopicCriteria] = []
        for dataset in updates.map(\.topic.dataset) where !all.contains(where: { $0.dataset == dataset }) {
            if let criteria = try? TopicCriteria(parsing: dataset + "/#") { all.append(criteria) }
        }
        return all
    }

    /// Runs the feed on `map` for `duration` (a recording: until its last update and one second more
    /// when nil), or until `count` messages came (when given), applying updates to the GeoJSON source
    /// `source` when given; with `view`, live data follows what the map shows for its domains
    /// (MapsIndoors' `enableLiveData`). Cancelling the task stops a broker feed where it is, with
    /// what came applied.
    public func run(on map: Map, source: String?, for duration: SimTime?, count: Int? = nil, seed: UInt64, view: LiveViewOptions? = nil) async throws(LiveFeedError) {
        let binding = source.map(LiveBinding.init(sourceID:))
        switch self {
        case .recording(let updates, let times, let criteria):
            let session = LiveSession(map: map, binding: binding, seed: seed, fields: view?.fields ?? .init(), floor: view?.floor)
            let domains = view?.domains ?? []
            for criteria in criteria.isEmpty && domains.isEmpty ? Self.everyDataset(of: updates) : criteria { await session.subscribe(criteria) }
            for domain in domains {
                do {
                    try await session.enableLiveData(domain: domain)
                } catch {
                    throw LiveFeedError(.invalidRecording, "--live-domain: \(error)", underlying: error)
                }
            }
            // The map is loaded: what is in view is subscribed now, before the first update.
            await session.advance(by: .zero)
            let start = await session.now
            let end = start + (duration ?? ((times.max() ?? .zero) + .seconds(1)))
            for (update, time) in zip(updates, times) where start + time <= end {
                if await session.run(notAfter: start + time, messages: count) == .messages { return }
                await session.publish(update)
            }
            _ = await session.run(notAfter: end, messages: count)
        case .broker(let endpoint, let criteria):
            try await runBroker(endpoint, criteria: criteria, on: map, binding: binding, for: duration ?? .seconds(60), count: count, seed: seed, view: view)
        }
    }

    /// The broker in real time: the map follows the wall clock from the moment live data starts, and
    /// the live data runs in its loop as a replay does — the view followed, the display layers shown.
    private func runBroker(_ endpoint: MQTTLiveSession.Endpoint, criteria: [TopicCriteria], on map: Map, binding: LiveBinding?,
                           for duration: SimTime, count: Int?, seed: UInt64, view: LiveViewOptions?) async throws(LiveFeedError) {
        let session = LiveSession(map: map, mqtt: endpoint, binding: binding, seed: seed, fields: view?.fields ?? .init(), floor: view?.floor)
        for criteria in criteria { await session.subscribe(criteria) }
        for domain in view?.domains ?? [] {
            do {
                try await session.enableLiveData(domain: domain)
            } catch {
                throw LiveFeedError(.invalidRecording, "--live-domain: \(error)", underlying: error)
            }
        }
        let end = await map.now + duration
        let ended = await session.run(notAfter: end, messages: count)
        await session.close()
        if case .unreachable(let unreachable) = ended {
            throw LiveFeedError(.unreachable, "could not connect to the broker at mqtt://\(endpoint.host):\(endpoint.port): \(unreachable)")
        }
    }
}
