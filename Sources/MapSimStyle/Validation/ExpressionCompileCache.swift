import MapSimJSON
import Synchronization

/// The expressions a validation compiled, by the property they set and their JSON: a large
/// style repeats the same `match` or `interpolate` in layer after layer (the 1.2 MB benchmark style
/// has 5,432 expressions, 1,097 of them different), and each is compiled once. The compiler's result
/// depends only on the expression and the property's spec (and the validator's flavor, fixed for a
/// validation), and its errors are keyed below the expression, so a kept result serves every use.
/// One cache serves a whole validation: the threads that check parts of the layers share it, so
/// that what one compiled the other finds, each through a cache of its own in front of it.
final class ExpressionCompileCache: Sendable {
    /// A compiled expression and what it was compiled from.
    private struct Entry: Sendable {
        /// What the expression sets: a property's section and name, or a context without a spec.
        let scope: String
        let key: String
        /// The expression, compared as its JSON text would be (`JSONValue.isIdentical(to:)`)
        /// without writing the text out.
        let value: JSONValue
        let result: Result<ParsedExpression, ExpressionCompilationError>
    }

    /// The entries by the hash of their target and value. The lock is held only to find or add a
    /// bucket: hashing and comparing, the costly parts, are done outside it, so that the threads
    /// that look up at once hardly wait for each other.
    private let kept = Mutex<[Int: [Entry]]>([:])

    /// The cache of the whole validation that this one, one thread's, stands in front of.
    private let shared: ExpressionCompileCache?

    /// A cache of its own, or one thread's in front of `shared`: what the thread finds there it
    /// keeps with its own copy of the expression, so that its later lookups compare the expression
    /// with values it made. Comparing retains and releases the values compared, and threads that
    /// count references on the same objects take their cache lines from each other at every count.
    init(inFrontOf shared: ExpressionCompileCache? = nil) {
        self.shared = shared
    }

    /// The result of compiling `value` for the property `key` of `scope` (`paint`, `fill-color`),
    /// or for a context without a spec (`filter`, empty): the one kept, or `compile`'s, kept. The two
    /// parts are kept apart, not joined into one name, which would be a string made at every use.
    /// Two threads asking for one expression at once may both compile it; both results are the same.
    func result(for scope: String, _ key: String, _ value: JSONValue,
                compile: () -> Result<ParsedExpression, ExpressionCompilationError>) -> Result<ParsedExpression, ExpressionCompilationError> {
        // A plain value (a number, a colour) costs less to compile than to look up.
        guard case .array = value else { return compile() }
        var hasher = Hasher()
        hasher.combine(scope)
        hasher.combine(key)
        value.hashIdentity(into: &hasher)
        let hash = hasher.finalize()
        if let found = lookUp(scope, key, value, hash: hash) { return found }
        if let found = shared?.lookUp(scope, key, value, hash: hash) {
            keep(Entry(scope: scope, key: key, value: value, result: found), hash: hash)
            return found
        }
        let entry = Entry(scope: scope, key: key, value: value, result: compile())
        keep(entry, hash: hash)
        shared?.keep(entry, hash: hash)
        return entry.result
    }

    private func lookUp(_ scope: String, _ key: String, _ value: JSONValue, hash: Int) -> Result<ParsedExpression, ExpressionCompilationError>? {
        let bucket = kept.withLock { $0[hash] }
        return bucket?.first(where: { $0.key == key && $0.scope == scope && $0.value.isIdentical(to: value) })?.result
    }

    private func keep(_ entry: Entry, hash: Int) {
        kept.withLock { $0[hash, default: []].append(entry) }
    }
}
