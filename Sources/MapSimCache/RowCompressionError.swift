/// A stored body marked compressed does not inflate: the row is damaged.
struct RowCompressionError: Error, Sendable {
    /// What zlib said.
    var reason: String
}
