/// A JSON document that is not well formed, with where the problem is.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column (in bytes) of the problem.
    public var column: Int

    public var description: String { "line \(line), column \(column): \(message)" }
}
