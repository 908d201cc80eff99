import MapSimJSON

/// What a dynamic-entity data source reports into the map's event stream, as ArcGIS names it, in
/// kebab-case like the map's own events:
///
/// | event | payload |
/// |---|---|
/// | `dynamic-entity-observation-received` | `track-id`, `entity-id`, `observation-id` |
/// | `dynamic-entity-observation-purged` | `track-id`, `entity-id`, `observation-id`, `reason` (`count`, `track`, `age`, `purge-all`) |
/// | `dynamic-entity-received` | `track-id`, `entity-id` (its first observation arrived) |
/// | `dynamic-entity-purged` | `track-id`, `entity-id` (its last observation was purged) |
/// | `dynamic-entity-connection-status-changed` | `status`, `previous`, `attempt` (while reconnecting: each attempt is reported), `error` |
///
/// Entity ids count from 1 in the order entities are received: a track id seen again after its
/// entity was purged is a new entity with a new id. Observation ids count from 1 in arrival order.
public enum DynamicEntityEvent: Sendable, Equatable {
    case observationReceived(trackID: String, entityID: Int64, observationID: Int64)
    case observationPurged(trackID: String, entityID: Int64, observationID: Int64, reason: PurgeReason)
    case entityReceived(trackID: String, entityID: Int64)
    case entityPurged(trackID: String, entityID: Int64)
    case connectionStatusChanged(DynamicEntityConnectionStatus, previous: DynamicEntityConnectionStatus, attempt: Int?, error: String?)

    /// Why an observation was purged.
    public enum PurgeReason: String, Sendable, Equatable {
        /// The source held its maximum number of observations.
        case count
        /// Its track held its maximum number of observations.
        case track
        /// It was older than the maximum duration.
        case age
        /// `purgeAll()` emptied the store.
        case purgeAll = "purge-all"
    }

    /// The event type.
    public var type: MapEventType {
        switch self {
        case .observationReceived: .dynamicEntityObservationReceived
        case .observationPurged: .dynamicEntityObservationPurged
        case .entityReceived: .dynamicEntityReceived
        case .entityPurged: .dynamicEntityPurged
        case .connectionStatusChanged: .dynamicEntityConnectionStatusChanged
        }
    }

    /// The payload as an event data object.
    public var data: JSONObject {
        switch self {
        case .observationReceived(let track, let entity, let observation):
            return JSONObject([("track-id", .string(track)), ("entity-id", .number(Double(entity))), ("observation-id", .number(Double(observation)))])
        case .observationPurged(let track, let entity, let observation, let reason):
            return JSONObject([("track-id", .string(track)), ("entity-id", .number(Double(entity))), ("observation-id", .number(Double(observation))),
                        ("reason", .string(reason.rawValue))])
        case .entityReceived(let track, let entity), .entityPurged(let track, let entity):
            return JSONObject([("track-id", .string(track)), ("entity-id", .number(Double(entity)))])
        case .connectionStatusChanged(let status, let previous, let attempt, let error):
            var object = JSONObject([("status", .string(status.rawValue)), ("previous", .string(previous.rawValue))])
            if let attempt { object["attempt"] = .number(Double(attempt)) }
            if let error { object["error"] = .string(error) }
            return object
        }
    }

    /// Reads the payload of an event of `type` from its data object; nil when `type` is not a
    /// dynamic-entity event.
    public init?(type: MapEventType, data: JSONObject) throws(EventPayloadError) {
        func string(_ key: String) throws(EventPayloadError) -> String {
            guard let value = data[key]?.stringValue else { throw EventPayloadError(key: key) }
            return value
        }
        func integer(_ key: String) throws(EventPayloadError) -> Int64 {
            guard let value = data[key]?.numberValue, value == value.rounded(), abs(value) < 9e15 else { throw EventPayloadError(key: key) }
            return Int64(value)
        }
        func status(_ key: String) throws(EventPayloadError) -> DynamicEntityConnectionStatus {
            guard let value = DynamicEntityConnectionStatus(rawValue: try string(key)) else { throw EventPayloadError(key: key) }
            return value
        }
        switch type {
        case .dynamicEntityObservationReceived:
            self = .observationReceived(trackID: try string("track-id"), entityID: try integer("entity-id"), observationID: try integer("observation-id"))
        case .dynamicEntityObservationPurged:
            guard let reason = PurgeReason(rawValue: try string("reason")) else { throw EventPayloadError(key: "reason") }
            self = .observationPurged(trackID: try string("track-id"), entityID: try integer("entity-id"), observationID: try integer("observation-id"), reason: reason)
        case .dynamicEntityReceived: self = .entityReceived(trackID: try string("track-id"), entityID: try integer("entity-id"))
        case .dynamicEntityPurged: self = .entityPurged(trackID: try string("track-id"), entityID: try integer("entity-id"))
        case .dynamicEntityConnectionStatusChanged:
            self = .connectionStatusChanged(try status("status"), previous: try status("previous"),
                                            attempt: data["attempt"] == nil ? nil : Int(try integer("attempt")), error: data["error"] == nil ? nil : try string("error"))
        default: return nil
        }
    }
}
