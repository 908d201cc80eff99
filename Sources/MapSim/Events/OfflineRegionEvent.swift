import MapSimJSON

/// What an offline region download reports into the event stream, as MapLibre Native's
/// `OfflineRegionObserver` reports it: `offline-region-status-changed {region-id, download-state,
/// completed-resource-count, …, complete}` after every resource, `offline-region-response-error
/// {region-id, url, kind, reason, message}` once for each resource that could not be downloaded,
/// and `offline-region-tile-limit-exceeded {region-id, limit, message}` when the `mapbox://` tile
/// count limit stops the download.
public enum OfflineRegionEvent: Sendable, Equatable {
    case statusChanged(region: Int64, OfflineRegionStatus)
    case responseError(region: Int64, url: String, kind: Resource.Kind, Response.Failure)
    case tileLimitExceeded(region: Int64, limit: Int)

    /// The event type.
    public var type: MapEventType {
        switch self {
        case .statusChanged: .offlineRegionStatusChanged
        case .responseError: .offlineRegionResponseError
        case .tileLimitExceeded: .offlineRegionTileLimitExceeded
        }
    }

    /// MapLibre's message when the limit of `limit` `mapbox://` tiles stops a download.
    public static func tileLimitMessage(_ limit: Int) -> String {
        "Mapbox tile count limit exceeded: reached the limit of \(limit) offline mapbox:// tiles"
    }

    /// The payload as an event data object.
    public var data: JSONObject {
        switch self {
        case .statusChanged(let region, let status):
            return JSONObject([("region-id", .number(Double(region)))] + status.json.members)
        case .responseError(let region, let url, let kind, let failure):
            return JSONObject([("region-id", .number(Double(region))), ("url", .string(url)), ("kind", .string(kind.rawValue)),
                               ("reason", .string(failure.reason.rawValue)), ("message", .string(failure.message))])
        case .tileLimitExceeded(let region, let limit):
            return JSONObject([("region-id", .number(Double(region))), ("limit", .number(Double(limit))),
                               ("message", .string(Self.tileLimitMessage(limit)))])
        }
    }

    /// Reads the payload of an event of `type`; nil when `type` is not an offline-region event.
    public init?(type: MapEventType, data: JSONObject) throws(EventPayloadError) {
        guard [.offlineRegionStatusChanged, .offlineRegionResponseError, .offlineRegionTileLimitExceeded].contains(type) else { return nil }
        guard case .number(let id)? = data["region-id"], id == id.rounded(), abs(id) < 9e15 else { throw EventPayloadError(key: "region-id") }
        let region = Int64(id)
        func text(_ key: String) throws(EventPayloadError) -> String {
            guard let value = data[key]?.stringValue else { throw EventPayloadError(key: key) }
            return value
        }
        switch type {
        case .offlineRegionStatusChanged:
            guard let status = OfflineRegionStatus(json: data) else { throw EventPayloadError(key: "download-state") }
            self = .statusChanged(region: region, status)
        case .offlineRegionResponseError:
            guard let kind = Resource.Kind(rawValue: try text("kind")) else { throw EventPayloadError(key: "kind") }
            guard let reason = Response.Failure.Reason(rawValue: try text("reason")) else { throw EventPayloadError(key: "reason") }
            self = .responseError(region: region, url: try text("url"), kind: kind, Response.Failure(reason: reason, message: try text("message")))
        default:
            guard case .number(let limit)? = data["limit"], limit >= 0, limit < 9e15, limit == limit.rounded() else { throw EventPayloadError(key: "limit") }
            self = .tileLimitExceeded(region: region, limit: Int(limit))
        }
    }
}
