import MapSimStyle

/// What can happen to a map: an API call, an answer from a backend, a timer, a frame.
public enum MapInput: Sendable {
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
    /// Go offline (true) or back online (false).
    case setOffline(Bool)
    /// A backend answered an attempt of a request.
    case answer(RequestID, AttemptID, Response, from: RequestPipeline.Backend)
    /// A timer of a request is due (a retry or a refresh).
    case timer(RequestID)
    /// The worker finished an update of a GeoJSON source.
    case geoJSONUpdateParsed(source: String, token: Int)
    /// A frame is due.
    case frame
}
