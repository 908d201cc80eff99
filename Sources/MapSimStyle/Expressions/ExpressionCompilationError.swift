/// An expression that did not compile: every problem found, in the reference's order. `code` tells
/// a property value from a filter.
public struct ExpressionCompilationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a compilation error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case invalidValue, invalidFilter
        }

        private let base: Base

        /// A property's value does not compile.
        public static let invalidValue = Code(base: .invalidValue)
        /// A layer's filter does not compile.
        public static let invalidFilter = Code(base: .invalidFilter)
    }

    /// The kind of error.
    public let code: Code
    /// The problems, in the reference's order.
    public let errors: [ExpressionError]

    /// An error of kind `code` made of `errors`.
    public init(_ code: Code, _ errors: [ExpressionError]) {
        self.code = code
        self.errors = errors
    }

    /// Every problem, `key: message`, joined by semicolons.
    public var description: String { errors.map(\.description).joined(separator: "; ") }
}
