import MapSimJSON
import Synchronization

/// The expressions a validation compiled, by the property they set and their JSON text: a large
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
        let json: [UInt8]
        /// The hash of both, worked out before the cache's lock is taken: threads that look up at
        /// once wait for each other only for the table.
        let hash: Int

        init(target: String, json: [UInt8]) {
            self.target = target
            self.json = json
            var hasher = Hasher()
            hasher.combine(target)
            // The bytes at once, not one at a time.
            json.withUnsafeBytes { hasher.combine(bytes: $0) }
            hash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.hash == rhs.hash && lhs.target == rhs.target && lhs.json == rhs.json
        }
    }

    private let kept = Mutex<[Key: Result<ParsedExpression, ExpressionCompilationError>]>([:])

    /// The result of compiling `value` for `target`: the one kept, or `compile`'s, kept. Two threads
    /// asking for one expression at once may both compile it; both results are the same.
    func result(for target: String, _ value: JSONValue,
                         compile: () -> Result<ParsedExpression, ExpressionCompilationError>) -> Result<ParsedExpression, ExpressionCompilationError> {
        // A plain value (a number, a colour) costs less to compile than to look up.
        guard case .array = value else { return compile() }
        var json: [UInt8] = []
        JSONWriter.write(value, into: &json)
        let key = Key(target: target, json: json)
        if let result = kept.withLock({ $0[key] }) { return result }
        let result = compile()
        kept.withLock { $0[key] = result }
        return result
    }
}
