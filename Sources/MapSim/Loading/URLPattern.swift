import Foundation
import Synchronization

/// A URL pattern where `*` stands for any run of characters, e.g. `*/tiles/10/*`.
public struct URLPattern: Sendable, Equatable, CustomStringConvertible {
    /// The pattern text.
    public var text: String

    /// A pattern.
    public init(_ text: String) {
        self.text = text
    }

    /// Whether the whole of `url` matches.
    public func matches(_ url: String) -> Bool {
        let parts = text.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return url == text }
        guard url.hasPrefix(parts[0]) else { return false }
        var rest = Substring(url.dropFirst(parts[0].count))
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.hasSuffix(parts.last!)
    }

    public var description: String { text }
}
