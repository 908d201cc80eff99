/// The answer to a `LoadOrder`, as a drive loop hands it back to the machine that ordered it.
public struct LoadAnswer: Sendable, Equatable {
    /// What was loaded.
    public var order: LoadOrder
    /// What the backend answered.
    public var response: Response

    /// `response` to `order`.
    public init(_ order: LoadOrder, _ response: Response) {
        self.order = order
        self.response = response
    }
}
