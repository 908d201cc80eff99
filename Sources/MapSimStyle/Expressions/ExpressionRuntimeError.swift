import Foundation
import MapSimJSON

/// An error evaluating a constant expression, with the reference's message.
struct ExpressionRuntimeError: Error {
    let message: String
}
