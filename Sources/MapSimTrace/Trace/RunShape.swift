import MapSim
import MapSimJSON

/// A run as `RelaxedComparison` sees it: cut at each map-idle, each stretch its milestones in
/// order, what each resource got, and which other events happened, without what varies from run to run.
struct RunShape {
    /// What one resource got in a stretch of the run.
    struct Resource {
        /// The resource's kind.
        var kind: String
        /// Its path below the base.
        var path: String
        /// What each attempt got, in order.
        var answers: [Answer] = []
        /// Whether it was cancelled.
        var cancelled = false

        /// One attempt's answer.
        struct Answer: Equatable {
            var outcome: String
            var size: Int?
        }

        /// Whether its size is compared: not for the style and TileJSONs, which servers rewrite
        /// (their URLs point at the server), but for every other resource and archive range.
        var isSized: Bool { !(kind == "style" || (kind == "source" && !path.contains(" bytes "))) }

        /// The answers as a line says them: `ok 996 B`, `server, ok 996 B`, `cancelled`.
        var outcomes: String {
            guard !answers.isEmpty else { return cancelled ? "cancelled" : "unanswered" }
            return answers.map { answer in answer.size.map { isSized ? "\(answer.outcome) \($0) B" : answer.outcome } ?? answer.outcome }
                .joined(separator: ", ")
        }
    }

    /// The run between two map-idles (the map-idle ends it).
    struct Segment {
        /// The milestones, in order.
        var milestones: [String] = []
        /// What each resource got, in the order first requested.
        var requests: [Resource] = []
        /// Where each resource (kind and path) is in `requests`.
        var requestIndex: [String: Int] = [:]
        /// The other events without their times, each once (how often a retried failure was
        /// reported before the map settled is the network's timing), in the order first seen.
        var events: [Event] = []
        /// The events of `events`.
        var seen: Set<Event> = []
    }

    /// An event as compared: its type and its payload without what varies.
    struct Event: Hashable {
        var type: String
        var key: String
    }

    private(set) var segments = [Segment()]

    /// The shape of `events`, paths named by `naming`; `requestsOnly` keeps the requests in one stretch.
    init(_ events: [MapEvent], naming: ResourcePath, requestsOnly: Bool) {
        for event in events {
            switch event.payload {
            case .renderFrameStarted, .renderFrameFinished:
                continue
            case .resourceRequest(let request):
                record(request, naming: naming)
            case .styleLoaded, .mapLoaded:
                segments[segments.count - 1].milestones.append(event.type.rawValue)
            case .mapIdle:
                segments[segments.count - 1].milestones.append(event.type.rawValue)
                if !requestsOnly { segments.append(Segment()) }
            case .styleDataLoaded(let loaded) where loaded.type == .style:
                segments[segments.count - 1].milestones.append("style-data-loaded (style)")
            default:
                note(Event(type: event.type.rawValue, key: Self.key(event, naming: naming)))
            }
        }
        // A client's recording has no cancellations to compare with: a resource the map gave up on counts only when it got something.
        if requestsOnly {
            for index in segments.indices { segments[index].requests.removeAll { $0.answers.isEmpty } }
        }
        if segments.count > 1 && segments[segments.count - 1].milestones.isEmpty && segments[segments.count - 1].requests.isEmpty
            && segments[segments.count - 1].events.isEmpty {
            segments.removeLast()
        }
    }

    private mutating func record(_ request: ResourceRequest, naming: ResourcePath) {
        let kind = request.request.kind.rawValue
        var path = naming.path(of: request.request.url)
        if let range = request.request.dataRange { path += " bytes \(range.lowerBound)–\(range.upperBound)" }
        var segment = segments[segments.count - 1]
        let index = segment.requestIndex[kind + " " + path] ?? {
            segment.requests.append(Resource(kind: kind, path: path))
            segment.requestIndex[kind + " " + path] = segment.requests.count - 1
            return segment.requests.count - 1
        }()
        if request.cancelled {
            segment.requests[index].cancelled = true
        } else if let response = request.response {
            let answer = Self.answer(response, kind: request.request.kind)
            // A 304 that confirms what the map has is that copy, not another answer; and how often
            // a failing request was retried before the map settled is the network's timing: an
            // answer like the one before it is the same answer.
            let last = segment.requests[index].answers.last
            let confirmsCopy = answer.outcome == "not-modified" && last?.size != nil
            if !confirmsCopy && answer != last { segment.requests[index].answers.append(answer) }
        }
        segments[segments.count - 1] = segment
    }

    /// An answer as the map takes it: a tile that is not there — a 404, a missing file — is no content.
    private static func answer(_ response: Response, kind: MapSim.Resource.Kind) -> Resource.Answer {
        if let error = response.error {
            if error.reason == .notFound && kind == .tile { return .init(outcome: "no-content") }
            return .init(outcome: error.reason.rawValue)
        }
        if response.noContent { return .init(outcome: "no-content") }
        if response.notModified { return .init(outcome: "not-modified") }
        return .init(outcome: "ok", size: response.size)
    }

    private mutating func note(_ event: Event) {
        guard segments[segments.count - 1].seen.insert(event).inserted else { return }
        segments[segments.count - 1].events.append(event)
    }

    /// An event's payload without wall-clock fields and `loaded`, URLs named by their paths.
    static func key(_ event: MapEvent, naming: ResourcePath) -> String {
        var data = event.payload.data
        if case .sourceDataLoaded(let loaded) = event.payload, loaded.type == .tile { data["loaded"] = nil }
        return JSONWriter.string(.object(withoutWallClock(data, naming: naming)))
    }

    /// `object` without `expires`, `modified` and `etag` at any depth, its strings' URLs named by their paths.
    private static func withoutWallClock(_ object: JSONObject, naming: ResourcePath) -> JSONObject {
        var kept = JSONObject()
        for (key, value) in object.members where !["expires", "modified", "etag"].contains(key) {
            switch value {
            case .object(let inner): kept[key] = .object(withoutWallClock(inner, naming: naming))
            case .string(let text): kept[key] = .string(naming.naming(in: text))
            default: kept[key] = value
            }
        }
        return kept
    }
}
