/// A stored body marked compressed does not inflate: the row is damaged.
struct RowCompressionError: Error, Sendable {
    /// The kind of a row compression error.
    struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case damaged
        }

        private let base: Base

        /// The row's body does not inflate.
        static let damaged = Code(base: .damaged)
    }

    /// The kind of error.
    let code = Code.damaged
    /// What zlib said.
    var reason: String
}
