/// Where a part of a style comes from: the root style, or an import nested in others (Mapbox's
/// `imports`). Everything an import declares — sources, layers, sprite images, config — is named
/// in its scope, as Mapbox GL JS names it: `NAME` + U+001F + the import ids from the innermost out
/// (`city␟a2␟a` is the source `city` of import `a2` inside import `a`), so that ids that collide
/// across imports stay distinct.
public struct StyleScope: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The separator of scoped names (U+001F, Mapbox's).
    public static let separator: Character = "\u{1f}"

    /// The import ids from the root's import down to this one; empty for the root style.
    public var path: [String]

    /// The scope of the import at `path`.
    public init(path: [String]) {
        self.path = path
    }

    /// The scope its description names (`a/a2`; empty for the root).
    public init(parsing text: String) {
        path = text.isEmpty ? [] : text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    /// The root style's scope.
    public static let root = StyleScope(path: [])

    /// Whether this is the root style's scope.
    public var isRoot: Bool { path.isEmpty }

    /// The scope of the import `id` of this style.
    public func child(_ id: String) -> StyleScope {
        StyleScope(path: path + [id])
    }

    /// How deep the scope is: 0 for the root, 1 for its imports.
    public var depth: Int { path.count }

    /// `name` in this scope: as written for the root, `name␟innermost␟…␟outermost` for an import.
    public func qualify(_ name: String) -> String {
        isRoot ? name : ([name] + path.reversed()).joined(separator: String(Self.separator))
    }

    /// The name and scope a scoped name was made from.
    public static func split(_ qualified: String) -> (name: String, scope: StyleScope) {
        guard qualified.contains(separator) else { return (qualified, .root) }
        let parts = qualified.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
        return (parts[0], StyleScope(path: parts.dropFirst().reversed()))
    }

    /// A scoped name as messages quote it: `"streets"` for the root's, `"streets" of import a → a2`
    /// for an import's.
    public static func quoted(_ qualified: String) -> String {
        let (name, scope) = split(qualified)
        return scope.isRoot ? "\"\(name)\"" : "\"\(name)\" of import \(scope.chain)"
    }

    /// The import ids joined by `/`, outermost first (`a/a2`); empty for the root.
    public var description: String { path.joined(separator: "/") }

    /// The chain of imports as messages name it: `a → a2`.
    public var chain: String { path.joined(separator: " → ") }

    public static func < (lhs: StyleScope, rhs: StyleScope) -> Bool {
        lhs.path.lexicographicallyPrecedes(rhs.path)
    }
}
