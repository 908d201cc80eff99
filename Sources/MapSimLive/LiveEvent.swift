import MapSimJSON

/// What the live-data manager reports, with the kebab-case names and payload keys of the map's own
/// events: `live-state-changed {state, previous}`, `live-subscribed {criteria}`,
/// `live-unsubscribed {criteria}`, `live-subscription-error {criteria, message}`,
/// `live-unsubscription-error {criteria, message}`, `live-error {message}` and
/// `live-update {topic, id, timestamp, properties}`.
public enum LiveEvent: Sendable, Equatable {
    case stateChanged(LiveDataManager.State, previous: LiveDataManager.State)
    case subscribed(TopicCriteria)
    case unsubscribed(TopicCriteria)
    case subscriptionError(TopicCriteria, message: String)
    case unsubscriptionError(TopicCriteria, message: String)
    case error(message: String)
    case update(LiveUpdate)

    /// The event's name.
    public var type: String {
        switch self {
        case .stateChanged: "live-state-changed"
        case .subscribed: "live-subscribed"
        case .unsubscribed: "live-unsubscribed"
        case .subscriptionError: "live-subscription-error"
        case .unsubscriptionError: "live-unsubscription-error"
        case .error: "live-error"
        case .update: "live-update"
        }
    }

    /// The event's payload.
    public var data: JSONValue {
        switch self {
        case .stateChanged(let state, let previous):
            return .object(JSONObject([("state", .string(state.rawValue)), ("previous", .string(previous.rawValue))]))
        case .subscribed(let criteria), .unsubscribed(let criteria):
            return .object(JSONObject([("criteria", .string(criteria.mqttFilter))]))
        case .subscriptionError(let criteria, let message), .unsubscriptionError(let criteria, let message):
            return .object(JSONObject([("criteria", .string(criteria.mqttFilter)), ("message", .string(message))]))
        case .error(let message):
            return .object(JSONObject([("message", .string(message))]))
        case .update(let update):
            let properties = update.properties.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }
            return .object(JSONObject([
                ("topic", .string(update.topic.description)), ("id", .string(update.id)),
                ("timestamp", .string(ISO8601Timestamp.string(update.timestamp))), ("properties", .object(JSONObject(properties))),
            ]))
        }
    }
}
