/// A JSON document that is not well formed, with where the problem is. `code` tells the kinds apart.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a syntax error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case malformed, tooDeep
        }

        private let base: Base

        /// The text breaks JSON's grammar.
        public static let malformed = Code(base: .malformed)
        /// Arrays and objects are nested deeper than the reader goes.
        public static let tooDeep = Code(base: .tooDeep)
    }

    /// The kind of error.
    public let code: Code
    /// What is wrong.
    public let message: String
    /// The 1-based line of the problem.
    public let line: Int
    /// The 1-based column (in bytes) of the problem.
    public let column: Int

    /// An error of kind `code` at `line` and `column`.
    public init(_ code: Code, _ message: String, line: Int, column: Int) {
        self.code = code
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}
