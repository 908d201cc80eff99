import MapSimJSON
import MapSimStyle

/// What can happen to a map: an API call, an answer from a backend, a timer, a frame.
public enum MapInput: Sendable {
    /// The map is created: the pipeline takes its starting connectivity and offline windows.
    case start
    /// Load the style at this URL.
    case setStyleURL(String)
    /// Load a style from its JSON text; relative URLs resolve against the base URL.
    case setStyleJSON([UInt8], baseURL: String?)
    /// Move the camera.
    case setCamera(CameraOptions)
    /// Resize the view.
    case setViewport(Viewport)
    /// An image was added at run time.
    case addImage(String)
    /// Add a source at run time.
    case addSource(StyleSource)
    /// Remove a source no layer uses.
    case removeSource(String)
    /// Add a layer at run time, below the layer `before` names (on top when nil).
    case addLayer(StyleLayer, before: String?)
    /// Remove a layer.
    case removeLayer(String)
    /// Change features of a GeoJSON source.
    case updateGeoJSONSource(id: String, diff: GeoJSONSourceDiff, dataID: String?)
    /// Go offline (true) or back online (false).
    case setOffline(Bool)
    /// Set global state `name` to a value (nil: back to the style's default).
    case setGlobalState(String, JSONValue?)
    /// Set config `name` of the import `importID` ("" for the root style) to a value (nil: back to
    /// the import's default).
    case setConfig(importID: String, name: String, value: JSONValue?)
    /// Load a resource for a component attached to the map; its first answer comes back as
    /// `MapOutput.fetched`, a failure if none came within `timeout`.
    case fetch(FetchToken, Resource, timeout: SimTime)
    /// A backend answered an attempt.
    case answer(LoadAnswer)
    /// A timer of a request is due (a retry or a refresh).
    case timer(RequestID)
    /// The time a fetch had is over.
    case fetchDeadline(FetchToken, timeout: SimTime)
    /// The worker finished an update of a GeoJSON source.
    case geoJSONUpdateParsed(source: String, token: Int)
    /// The root style's layers reached the workers, some time after its imports loaded.
    case rootLayoutDue(token: Int)
    /// A frame is due.
    case frame
    /// The run's time is over: every request not yet answered is given up, named with `reason`.
    case giveUp(String)
}
