import Foundation
import MapSimJSON

/// An error raised while evaluating an expression, with the reference's message.
struct ExpressionRuntimeError: Error {
    let message: String
}
