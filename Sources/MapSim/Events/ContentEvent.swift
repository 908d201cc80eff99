import MapSimJSON

/// What a site's data manager reports into the map's event stream, with Pointr's fields in
/// kebab-case: `content-start {site, is-online-data}` (a check begins), `content-ready {site,
/// is-online-data}` (some data is usable — from a package or a previous version when
/// `is-online-data` is false), `content-complete-all {site, is-successful, is-online-data, errors}`
/// (the check is over; `errors` maps each failed item or the manifest to why).
public enum ContentEvent: Sendable, Equatable {
    case start(site: String, isOnlineData: Bool)
    case ready(site: String, isOnlineData: Bool)
    case completeAll(site: String, isSuccessful: Bool, isOnlineData: Bool, errors: [String: String])

    /// The event type.
    public var type: MapEventType {
        switch self {
        case .start: .contentStart
        case .ready: .contentReady
        case .completeAll: .contentCompleteAll
        }
    }

    /// The payload as an event data object.
    public var data: JSONObject {
        switch self {
        case .start(let site, let online), .ready(let site, let online):
            return JSONObject([("site", .string(site)), ("is-online-data", .bool(online))])
        case .completeAll(let site, let successful, let online, let errors):
            let list = JSONObject(errors.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
            return JSONObject([("site", .string(site)), ("is-successful", .bool(successful)), ("is-online-data", .bool(online)), ("errors", .object(list))])
        }
    }

    /// Reads the payload of an event of `type`; nil when `type` is not a content event.
    public init?(type: MapEventType, data: JSONObject) throws(EventPayloadError) {
        func flag(_ key: String) throws(EventPayloadError) -> Bool {
            guard let value = data[key]?.boolValue else { throw EventPayloadError(key: key) }
            return value
        }
        guard let site = data["site"]?.stringValue else {
            if [.contentStart, .contentReady, .contentCompleteAll].contains(type) { throw EventPayloadError(key: "site") }
            return nil
        }
        switch type {
        case .contentStart: self = .start(site: site, isOnlineData: try flag("is-online-data"))
        case .contentReady: self = .ready(site: site, isOnlineData: try flag("is-online-data"))
        case .contentCompleteAll:
            var errors: [String: String] = [:]
            for (key, value) in data["errors"]?.objectValue?.members ?? [] { errors[key] = value.stringValue ?? "" }
            self = .completeAll(site: site, isSuccessful: try flag("is-successful"), isOnlineData: try flag("is-online-data"), errors: errors)
        default: return nil
        }
    }
}
