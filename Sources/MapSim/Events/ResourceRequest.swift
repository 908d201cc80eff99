/// The payload of resource-request: one request, its response (unless cancelled), and the backend.
public struct ResourceRequest: Sendable, Equatable {
    /// The backend that answered (`data-source`).
    public var dataSource: DataSource
    /// The request (`request`).
    public var request: Resource
    /// The response; nil when the request was cancelled (`response`).
    public var response: Response?
    /// Whether the request was cancelled before it completed (`cancelled`).
    public var cancelled: Bool

    /// A payload.
    public init(dataSource: DataSource, request: Resource, response: Response?, cancelled: Bool) {
        self.dataSource = dataSource
        self.request = request
        self.response = response
        self.cancelled = cancelled
    }
}
