import Foundation
import MapSim

/// Compares the requests of two runs when one of them recorded nothing but requests — a `mapsim
/// serve` recording of a real client — with the other, a map's load of the same style and camera:
/// each request as its kind, its path below the style's folder (percent-decoded, so that a load of
/// the style file compares with a client of the server), its outcome and, except for the style and
/// TileJSONs the server rewrites, its size. Requests compare as multisets (a real client's order is
/// its own); cancelled requests are left out.
struct RequestComparison {
    private(set) var differences: [TraceDiff.Difference] = []

    /// Whether `events` are a recording of requests only (no milestone, no frame), as `mapsim serve` writes.
    static func isRequestsOnly(_ events: [MapEvent]) -> Bool {
        !events.isEmpty && events.allSatisfy { if case .resourceRequest = $0.payload { true } else { false } }
    }

    init(expected: [MapEvent], actual: [MapEvent]) {
        var remaining = Self.requests(actual)
        var missing: [String: Int] = [:]
        for (key, count) in Self.requests(expected) {
            let other = remaining.removeValue(forKey: key) ?? 0
            if count > other { missing[key] = count - other }
            if other > count { remaining[key] = other - count }
        }
        for (key, count) in missing.sorted(by: { $0.key < $1.key }) {
            differences.append(.init(index: 0, detail: "request missing\(count > 1 ? " \(count)×" : ""): \(key)"))
        }
        for (key, count) in remaining.sorted(by: { $0.key < $1.key }) {
            differences.append(.init(index: 0, detail: "request unexpected\(count > 1 ? " \(count)×" : ""): \(key)"))
        }
    }

    /// The requests of a run, as `KIND PATH OUTCOME[ SIZE]`, counted.
    static func requests(_ events: [MapEvent]) -> [String: Int] {
        let requests = events.compactMap { event -> ResourceRequest? in
            guard case .resourceRequest(let request) = event.payload, !request.cancelled else { return nil }
            return request
        }
        let styleURL = requests.first { $0.request.kind == .style }?.request.url
        let folder = styleURL.map { String($0[...($0.lastIndex(of: "/") ?? $0.startIndex)]) } ?? ""
        var counted: [String: Int] = [:]
        for request in requests {
            let url = request.request.url
            let below = !folder.isEmpty && url.hasPrefix(folder) ? String(url.dropFirst(folder.count)) : url
            let path = below.removingPercentEncoding ?? below
            var key = "\(request.request.kind.rawValue) \(path) \(outcome(request))"
            if let response = request.response, response.error == nil, !response.notModified, !response.noContent,
               request.request.kind != .style, request.request.kind != .source {
                key += " \(response.size) B"
            }
            counted[key, default: 0] += 1
        }
        return counted
    }

    /// A request's outcome in words both a map and a server give: a tile that is not there is no
    /// content (a map takes a 404 so), an error is its reason.
    static func outcome(_ request: ResourceRequest) -> String {
        guard let response = request.response else { return "unanswered" }
        if let error = response.error {
            return error.reason == .notFound && request.request.kind == .tile ? "no-content" : error.reason.rawValue
        }
        if response.noContent { return "no-content" }
        return response.notModified ? "not-modified" : "ok"
    }
}
