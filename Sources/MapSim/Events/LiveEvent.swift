import MapSimJSON

/// What live data reports into the map's event stream, with kebab-case names and payload keys like the
/// map's own events:
///
/// | event | payload |
/// |---|---|
/// | `live-state-changed` | `state`, `previous` (`closed`, `connecting`, `connected`, `disconnecting`) |
/// | `live-subscribed`, `live-unsubscribed` | `criteria` (the MQTT filter) |
/// | `live-subscription-error`, `live-unsubscription-error` | `criteria`, `message` |
/// | `live-error` | `message` |
/// | `live-update` | `topic`, `id`, `timestamp`, `properties` |
/// | `live-locations-updated` | `domain`, `ids`: the locations whose state in a live-data-enabled domain changed, once per change applied to the map (MapsIndoors' `willUpdateLocationsOnMap`) |
public enum LiveEvent: Sendable, Equatable {
    case stateChanged(LiveConnectionState, previous: LiveConnectionState)
    case subscribed(criteria: String)
    case unsubscribed(criteria: String)
    case subscriptionError(criteria: String, message: String)
    case unsubscriptionError(criteria: String, message: String)
    case error(message: String)
    case update(LiveUpdateReceived)
    case locationsUpdated(domain: String, ids: [String])

    /// The event type.
    public var type: MapEventType {
        switch self {
        case .stateChanged: .liveStateChanged
        case .subscribed: .liveSubscribed
        case .unsubscribed: .liveUnsubscribed
        case .subscriptionError: .liveSubscriptionError
        case .unsubscriptionError: .liveUnsubscriptionError
        case .error: .liveError
        case .update: .liveUpdate
        case .locationsUpdated: .liveLocationsUpdated
        }
    }

    /// The payload as an event data object.
    public var data: JSONObject {
        switch self {
        case .stateChanged(let state, let previous):
            JSONObject([("state", .string(state.rawValue)), ("previous", .string(previous.rawValue))])
        case .subscribed(let criteria), .unsubscribed(let criteria):
            JSONObject([("criteria", .string(criteria))])
        case .subscriptionError(let criteria, let message), .unsubscriptionError(let criteria, let message):
            JSONObject([("criteria", .string(criteria)), ("message", .string(message))])
        case .error(let message):
            JSONObject([("message", .string(message))])
        case .update(let update):
            JSONObject([
                ("topic", .string(update.topic)), ("id", .string(update.id)), ("timestamp", .string(update.timestamp)),
                ("properties", .object(JSONObject(update.properties.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))),
            ])
        case .locationsUpdated(let domain, let ids):
            JSONObject([("domain", .string(domain)), ("ids", .array(ids.map(JSONValue.string)))])
        }
    }

    /// Reads the payload of an event of `type` from its data object; nil when `type` is not a live event.
    public init?(type: MapEventType, data: JSONObject) throws(EventPayloadError) {
        func string(_ key: String) throws(EventPayloadError) -> String {
            guard let value = data[key]?.stringValue else { throw EventPayloadError(key: key) }
            return value
        }
        func state(_ key: String) throws(EventPayloadError) -> LiveConnectionState {
            guard let value = LiveConnectionState(rawValue: try string(key)) else { throw EventPayloadError(key: key) }
            return value
        }
        switch type {
        case .liveStateChanged: self = .stateChanged(try state("state"), previous: try state("previous"))
        case .liveSubscribed: self = .subscribed(criteria: try string("criteria"))
        case .liveUnsubscribed: self = .unsubscribed(criteria: try string("criteria"))
        case .liveSubscriptionError: self = .subscriptionError(criteria: try string("criteria"), message: try string("message"))
        case .liveUnsubscriptionError: self = .unsubscriptionError(criteria: try string("criteria"), message: try string("message"))
        case .liveError: self = .error(message: try string("message"))
        case .liveUpdate:
            guard let members = data["properties"]?.objectValue?.members else { throw EventPayloadError(key: "properties") }
            var properties: [String: String] = [:]
            for (name, value) in members {
                guard let text = value.stringValue else { throw EventPayloadError(key: "properties.\(name)") }
                properties[name] = text
            }
            self = .update(LiveUpdateReceived(topic: try string("topic"), id: try string("id"), timestamp: try string("timestamp"), properties: properties))
        case .liveLocationsUpdated:
            guard let values = data["ids"]?.arrayValue else { throw EventPayloadError(key: "ids") }
            var ids: [String] = []
            for value in values {
                guard let id = value.stringValue else { throw EventPayloadError(key: "ids") }
                ids.append(id)
            }
            self = .locationsUpdated(domain: try string("domain"), ids: ids)
        default: return nil
        }
    }
}
