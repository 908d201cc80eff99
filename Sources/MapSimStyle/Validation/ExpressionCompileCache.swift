import MapSimJSON
import Synchronization

/// The expressions a validation compiled, by the property they set and their JSON: a large
/// style repeats the same `match` or `interpolate` in layer after layer (the 1.2 MB benchmark style
/// has 5,432 expressions, 1,097 of them different), and each is compiled once. The compiler's result
/// depends only on the expression and the property's spec (and the validator's flavor, fixed for a
/// validation), and its errors are keyed below the expression, so a kept result serves every use.
/// One cache serves a whole validation: the threads that check parts of the layers share it, so
/// that what one compiled the other finds.
final class ExpressionCompileCache: Sendable {
    private struct Key: Hashable {
        /// What the expression sets: a property's name (and section), or a context without a spec.
        let target: String
        /// The expression, compared as its JSON text would be (`JSONValue.isIdentical(to:)`)
        /// without writing the text out.
        let value: JSONValue
        /// The hash of both, worked out before the cache's lock is taken: threads that look up at
        /// once wait for each other only for the table.
        let hash: Int

        init(target: String, value: JSONValue) {
            self.target = target
            self.value = value
            var hasher = Hasher()
            hasher.combine(target)
            value.hashIdentity(into: &hasher)
            hash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.hash == rhs.hash && lhs.target == rhs.target && lhs.value.isIdentical(to: rhs.value)
        }
    }

    private let kept = Mutex<[Key: Result<ParsedExpression, ExpressionCompilationError>]>([:])

    /// The result of compiling `value` for `target`: the one kept, or `compile`'s, kept. Two threads
    /// asking for one expression at once may both compile it; both results are the same.
    func result(for target: String, _ value: JSONValue,
                         compile: () -> Result<ParsedExpression, ExpressionCompilationError>) -> Result<ParsedExpression, ExpressionCompilationError> {
        // A plain value (a number, a colour) costs less to compile than to look up.
        guard case .array = value else { return compile() }
        let key = Key(target: target, value: value)
        if let result = kept.withLock({ $0[key] }) { return result }
        let result = compile()
        kept.withLock { $0[key] = result }
        return result
    }
}
