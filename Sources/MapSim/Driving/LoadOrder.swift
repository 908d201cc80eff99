/// One attempt at answering a request, from one backend: what a machine asks a drive loop to load.
public struct LoadOrder: Sendable, Equatable {
    /// The request the attempt answers.
    public var request: RequestID
    /// The attempt.
    public var attempt: AttemptID
    /// Where the answer comes from.
    public var backend: RequestPipeline.Backend
    /// What to load, as this attempt sends it (a network attempt carries the time it was issued).
    public var resource: Resource

    /// An order to load `resource` from `backend`.
    public init(request: RequestID, attempt: AttemptID, backend: RequestPipeline.Backend, resource: Resource) {
        self.request = request
        self.attempt = attempt
        self.backend = backend
        self.resource = resource
    }
}
