/// An expression that cannot be parsed, converted or evaluated, with the reference's message and
/// where in the expression (`[2][1]`, empty for the whole). `code` tells the kinds apart.
public struct ExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of an expression error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case parse, evaluation, legacyFunction
        }

        private let base: Base

        /// The expression does not parse or type-check.
        public static let parse = Code(base: .parse)
        /// Evaluating the expression raised the reference's runtime error.
        public static let evaluation = Code(base: .evaluation)
        /// A legacy function cannot be converted into an expression.
        public static let legacyFunction = Code(base: .legacyFunction)
    }

    /// The kind of error.
    public let code: Code
    /// Where in the expression, empty for the whole.
    public let key: String
    /// The reference's message.
    public let message: String

    /// An error of kind `code` at `key`.
    public init(_ code: Code, key: String = "", _ message: String) {
        self.code = code
        self.key = key
        self.message = message
    }

    /// `key: message`, or the message alone for the whole expression.
    public var description: String { key.isEmpty ? message : "\(key): \(message)" }
}
