/// What the map's state machines ask for — the one vocabulary of the load sequence, the request
/// pipeline and the render model.
///
/// `MapMachine` routes the actions that one machine addresses to another (a request from the load
/// sequence goes to the pipeline, a delivery from the pipeline goes to the load sequence, an
/// invalidation goes to the render model) and returns the rest, which are I/O, to the `Map` actor.
public enum MapAction: Sendable, Equatable {
    /// The load sequence wants `resource` (to the pipeline).
    case request(RequestID, Resource)
    /// The load sequence no longer wants a request (to the pipeline).
    case cancelRequest(RequestID)
    /// A response for a request (to the load sequence). `final` is false when more may follow: a
    /// cached copy before its revalidation, or an error that will be retried.
    case deliver(RequestID, Response, final: Bool)
    /// Something visible changed: a frame is needed (to the render model).
    case invalidate
    /// Start loading `resource` from `backend`; its answer comes back as `MapInput.answer` (I/O).
    case load(RequestID, AttemptID, RequestPipeline.Backend, Resource)
    /// Stop an attempt that is no longer wanted (I/O).
    case cancelLoad(AttemptID)
    /// Write a network response to the cache before it is delivered (I/O).
    case store(Resource, Response)
    /// A 304 confirmed the cached copy: refresh its expiry and access time only (I/O).
    case refreshCache(Resource, Response)
    /// Feed `MapInput.timer` for this request at this time (to the scheduler).
    case scheduleTimer(RequestID, at: SimTime)
    /// Feed `MapInput.geoJSONUpdateParsed` at this time: the worker is done with an update (to the scheduler).
    case scheduleGeoJSONUpdate(source: String, token: Int, at: SimTime)
    /// Feed `MapInput.frame` at this time (to the scheduler).
    case scheduleFrame(at: SimTime)
    /// The first answer to a fetch of a component attached to the map (to the actor, which hands it over).
    case fetched(RequestID, Response)
    /// Send an event to observers, ending now and beginning at `begin` (now when nil).
    case emit(MapEventPayload, begin: SimTime? = nil)
}
