import Foundation

/// A collator as the `collator` expression makes it: string comparison in a locale that may ignore
/// case and diacritics, as the reference's `Intl.Collator(locale, {sensitivity, usage: 'search'})`.
///
/// On Linux it is ICU's collation (the ICU inside Foundation, `ICUCollation`), in the locale
/// `CollatorLocale` resolves — the locale's own tailoring, as the reference has it. Elsewhere it is
/// the Unicode root order: base letters first (case and diacritics folded), then diacritics when
/// they matter, then case (lower before upper) when it matters.
public struct ExpressionCollator: Equatable, Sendable {
    public let caseSensitive: Bool
    public let diacriticSensitive: Bool
    public let locale: String?
    /// The locale as resolved.
    let resolution: CollatorLocale

    /// A collator; a locale that is not a well-formed language tag is an evaluation error, as the
    /// reference's RangeError.
    init(caseSensitive: Bool, diacriticSensitive: Bool, locale: String?) throws(ExpressionError) {
        self.caseSensitive = caseSensitive
        self.diacriticSensitive = diacriticSensitive
        self.locale = locale
        resolution = try CollatorLocale(locale)
    }

    /// The reference's name for the strength: `base`, `accent`, `case` or `variant`.
    var sensitivity: String {
        switch (caseSensitive, diacriticSensitive) {
        case (true, true): "variant"
        case (true, false): "case"
        case (false, true): "accent"
        case (false, false): "base"
        }
    }

    /// The locale comparisons are made in, as `resolved-locale` names it.
    var resolvedLocale: String { resolution.resolved }

    /// -1, 0 or 1 as `a` sorts before, with or after `b`.
    func compare(_ a: String, _ b: String) -> Int {
        #if os(Linux)
        let strength: ICUCollation.Strength = switch (caseSensitive, diacriticSensitive) {
        case (true, true): .tertiary
        case (true, false): .primaryWithCase
        case (false, true): .secondary
        case (false, false): .primary
        }
        return ICUCollation.compare(a, b, locale: resolution.searchID, strength: strength)
        #else
        return rootOrder(a, b)
        #endif
    }

    #if !os(Linux)
    /// The Unicode root order, folded as the sensitivity says.
    private func rootOrder(_ a: String, _ b: String) -> Int {
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
    #endif
}
