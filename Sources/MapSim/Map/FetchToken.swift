/// Names one fetch a component attached to a map made through `Map.fetch`, so that its answer can be
/// handed back.
public struct FetchToken: Sendable, Hashable {
    /// The fetch's number, unique within its map.
    public let value: Int

    /// The fetch numbered `value`.
    public init(value: Int) {
        self.value = value
    }
}
