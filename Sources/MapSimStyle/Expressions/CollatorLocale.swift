/// The locale a `collator` expression compares in, resolved as the style spec's reference resolves
/// it — JavaScript's `Intl.Collator` in V8 (ECMA-402), over ICU:
///
/// - No locale (or an empty one) is the default, `en-US`.
/// - A tag that does not start with a Unicode language id (`de_DE`, `root`, `x-foo`, `en-GB-oed`) is
///   "Incorrect locale information provided"; one ICU cannot read whole (`de-`, a repeated variant or
///   extension) is "Invalid language tag: TAG". Both are evaluation errors, as RangeErrors are there.
/// - Otherwise the tag is canonicalized (case, deprecated codes: `iw` is `he`, `tl` is `fil`) and
///   looked up among the locales with collation data, dropping subtags from the end (`de-CH` finds
///   `de`, `zh-TW` finds itself, `en-GB` finds `en`); nothing found is the default.
/// - The resolved locale keeps the extension keys a collator takes when they apply: `co` (a
///   collation type the locale has), `kf` and `kn`. Comparisons use ICU's search collation of the
///   locale, as the reference asks for `usage: 'search'`.
struct CollatorLocale: Equatable, Sendable {
    /// The locale `resolved-locale` names.
    let resolved: String
    /// The ICU locale id comparisons are made in (search collation, with `kf` / `kn` as keywords).
    let searchID: String

    static let defaultLocale = "en-US"

    /// Resolves `requested`; a tag that is not well-formed is an evaluation error saying so.
    init(_ requested: String?) throws(ExpressionError) {
        guard let requested, !requested.isEmpty else {
            self.init(found: Self.defaultLocale, keywords: [:])
            return
        }
        guard Self.startsWithLanguageID(requested) else { throw ExpressionError(.evaluation, "Incorrect locale information provided") }
        #if os(Linux)
        guard let id = ICUCollation.localeID(requested), let tag = ICUCollation.languageTag(Self.replacingLanguageAliases(id)) else {
            throw ExpressionError(.evaluation, "Invalid language tag: \(requested)")
        }
        let (base, keywords) = Self.split(tag)
        let lookup = keywords["va"].map { "\(base)-u-va-\($0)" } ?? base
        let found = Self.lookup(lookup, in: ICUCollation.availableLocales) ?? Self.lookup(base, in: ICUCollation.availableLocales) ?? Self.defaultLocale
        var kept: [String: String] = [:]
        if let type = keywords["co"], type != "standard", type != "search", ICUCollation.collationTypes(of: found).contains(type) { kept["co"] = type }
        if let value = keywords["kf"], ["upper", "lower", "false"].contains(value) { kept["kf"] = value }
        if let value = keywords["kn"], ["", "true", "false"].contains(value) { kept["kn"] = value == "true" ? "" : value }
        self.init(found: found, keywords: kept)
        #else
        self.init(found: requested, keywords: [:])
        #endif
    }

    private init(found: String, keywords: [String: String]) {
        let (base, own) = Self.split(found)
        let all = own.merging(keywords) { _, new in new }
        resolved = all.isEmpty ? base : base + "-u-" + all.keys.sorted().map { all[$0]!.isEmpty ? $0 : "\($0)-\(all[$0]!)" }.joined(separator: "-")
        #if os(Linux)
        var id = ICUCollation.localeID(found) ?? found
        var icuKeywords = ["collation=search"]
        if let value = keywords["kf"] { icuKeywords.append("colcasefirst=\(value == "false" ? "no" : value)") }
        if let value = keywords["kn"] { icuKeywords.append("colnumeric=\(value == "false" ? "no" : "yes")") }
        id = (id.split(separator: "@", maxSplits: 1).first.map(String.init) ?? id) + "@" + icuKeywords.joined(separator: ";")
        searchID = id
        #else
        searchID = found
        #endif
    }

    /// Whether `tag` starts with a Unicode language id — language, then optional script and region,
    /// then variants, up to the first singleton — as V8 checks before anything else.
    static func startsWithLanguageID(_ tag: String) -> Bool {
        var subtags = tag.split(separator: "-", omittingEmptySubsequences: false).map { Array($0.utf8) }
        if subtags.count > 1, subtags.last?.isEmpty == true { subtags.removeLast() }
        func letters(_ s: [UInt8]) -> Bool { s.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A } }
        func alphanumeric(_ s: [UInt8]) -> Bool { s.allSatisfy { (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) } }
        func digits(_ s: [UInt8]) -> Bool { s.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        func singleton(_ s: [UInt8]) -> Bool { s.count == 1 && alphanumeric(s) }
        guard let language = subtags.first, letters(language), [2, 3, 5, 6, 7, 8].contains(language.count) else { return false }
        var index = 1
        guard index < subtags.count, !singleton(subtags[index]) else { return true }
        if subtags[index].count == 4 && letters(subtags[index]) { index += 1 }
        if index < subtags.count, (subtags[index].count == 2 && letters(subtags[index])) || (subtags[index].count == 3 && digits(subtags[index])) { index += 1 }
        while index < subtags.count {
            let subtag = subtags[index]
            if singleton(subtag) { return true }
            let variant = alphanumeric(subtag) && ((5...8).contains(subtag.count) || (subtag.count == 4 && digits(Array(subtag.prefix(1)))))
            guard variant else { return false }
            index += 1
        }
        return true
    }

    /// The CLDR language aliases ICU's C API leaves alone but V8 replaces.
    private static func replacingLanguageAliases(_ id: String) -> String {
        let parts = id.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        var base = parts[0].split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        let hasScript = base.count > 1 && base[1].count == 4
        switch base.first?.lowercased() {
        case "tl": base[0] = "fil"
        case "cmn": base[0] = "zh"
        case "sh":
            base[0] = "sr"
            if !hasScript { base.insert("Latn", at: 1) }
        default: break
        }
        return base.joined(separator: "_") + (parts.count > 1 ? "@" + parts[1] : "")
    }

    /// A canonical tag's language id (up to its first singleton) and its Unicode extension keywords.
    private static func split(_ tag: String) -> (base: String, keywords: [String: String]) {
        let subtags = tag.split(separator: "-").map(String.init)
        guard let first = subtags.firstIndex(where: { $0.count == 1 }) else { return (tag, [:]) }
        var keywords: [String: String] = [:]
        if let u = subtags.firstIndex(of: "u") {
            var index = u + 1
            while index < subtags.count, subtags[index].count != 1 {
                let key = subtags[index]
                var values: [String] = []
                index += 1
                while index < subtags.count, subtags[index].count > 2 {
                    values.append(subtags[index])
                    index += 1
                }
                if key.count == 2 { keywords[key] = values.joined(separator: "-") }
            }
        }
        return (subtags[..<first].joined(separator: "-"), keywords)
    }

    /// ECMA-402's lookup: `tag`, then `tag` without its last subtag, and so on; nil when none is available.
    private static func lookup(_ tag: String, in available: Set<String>) -> String? {
        var candidate = tag
        while !candidate.isEmpty {
            if available.contains(candidate) { return candidate }
            guard let dash = candidate.lastIndex(of: "-") else { return nil }
            candidate = String(candidate[..<dash])
            // A singleton left at the end goes with the subtag it introduced.
            if let dash = candidate.lastIndex(of: "-"), candidate.distance(from: dash, to: candidate.endIndex) == 2 {
                candidate = String(candidate[..<dash])
            }
        }
        return nil
    }
}
