import Foundation

/// A collator as the `collator` expression makes it: string comparison that may ignore case and
/// diacritics.
///
/// mapsim compares in the Unicode root order for the scripts it is used with: base letters first
/// (case and diacritics folded), then diacritics when they matter, then case (lower before upper)
/// when it matters, which is what English locales do. `resolved-locale` names that honestly:
/// the requested locale when it is English (`en`, `en-GB`, ...), `en-US` otherwise.
public struct ExpressionCollator: Equatable, Sendable {
    public let caseSensitive: Bool
    public let diacriticSensitive: Bool
    public let locale: String?

    /// The reference's name for the strength: `base`, `accent`, `case` or `variant`.
    var sensitivity: String {
        switch (caseSensitive, diacriticSensitive) {
        case (true, true): "variant"
        case (true, false): "case"
        case (false, true): "accent"
        case (false, false): "base"
        }
    }

    /// The locale comparisons are made in.
    var resolvedLocale: String {
        guard let locale, locale.lowercased() == "en" || locale.lowercased().hasPrefix("en-") else { return "en-US" }
        return locale
    }

    /// -1, 0 or 1 as `a` sorts before, with or after `b`.
    func compare(_ a: String, _ b: String) -> Int {
        let (x, y) = (Self.keys(a), Self.keys(b))
        if let order = Self.order([Array(x.map(\.base).joined())], [Array(y.map(\.base).joined())]) { return order }
        if diacriticSensitive, let order = Self.order(x.map(\.marks), y.map(\.marks)) { return order }
        if caseSensitive, let order = Self.order(x.map { $0.upper ? [1] : [0] }, y.map { $0.upper ? [1] : [0] }) { return order }
        return 0
    }

    /// One character's collation keys: its base letters folded to lower case, its combining marks,
    /// and whether it is upper case.
    private struct Key {
        var base: [UInt32]
        var marks: [UInt32]
        var upper: Bool
    }

    private static func keys(_ text: String) -> [Key] {
        text.map { character in
            let decomposed = String(character).decomposedStringWithCanonicalMapping.unicodeScalars
            var key = Key(base: [], marks: [], upper: false)
            for scalar in decomposed {
                switch scalar.properties.generalCategory {
                case .nonspacingMark, .spacingMark, .enclosingMark:
                    key.marks.append(scalar.value)
                default:
                    key.upper = key.upper || scalar.properties.isUppercase
                    key.base += String(scalar).lowercased().unicodeScalars.map(\.value)
                }
            }
            return key
        }
    }

    /// The order of two key sequences compared character by character, or nil when they are equal.
    private static func order(_ a: [[UInt32]], _ b: [[UInt32]]) -> Int? {
        for (x, y) in zip(a, b) where x != y {
            return x.lexicographicallyPrecedes(y) ? -1 : 1
        }
        return a.count == b.count ? nil : a.count < b.count ? -1 : 1
    }
}
