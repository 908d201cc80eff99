/// An error of the budget domain: a `NAME=LIMIT` that names no budget or gives a limit of the
/// wrong form. `message` names the budget and what is wrong; `code` tells the kinds apart.
public struct BudgetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a budget error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case malformed
        }

        private let base: Base

        /// The text is not a budget.
        public static let malformed = Code(base: .malformed)
    }

    /// The kind of error.
    public let code: Code
    /// What is wrong, naming the budget.
    public let message: String

    /// An error of kind `code`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
