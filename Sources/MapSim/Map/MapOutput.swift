/// What a map asks its actor to do once the drive loop has carried out its loads and timers: every
/// case is something the actor can perform.
public enum MapOutput: Sendable, Equatable {
    /// Send an event to observers, ending now and beginning at `begin` (now when nil).
    case emit(MapEventPayload, begin: SimTime? = nil)
    /// Write a network response to the cache before it is delivered.
    case store(Resource, Response)
    /// A 304 confirmed the cached copy: refresh its expiry and access time only.
    case refreshCache(Resource, Response)
    /// The first answer to a fetch of a component attached to the map.
    case fetched(FetchToken, Response)
    /// An API call cannot be made now, for this reason: the caller is told.
    case refused(LoadingError)
}
