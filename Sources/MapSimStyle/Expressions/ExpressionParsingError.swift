import MapSimJSON

/// A problem found while parsing an expression: the key of the offending part relative to the
/// expression (`[2]`, `[1][0]`, or empty for the whole) and the reference's message.
struct ExpressionParsingError: Equatable, Sendable {
    var key: String
    var message: String
}
