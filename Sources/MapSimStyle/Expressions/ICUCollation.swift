#if os(Linux)
import CICUCollation
import Synchronization

/// ICU's collation and locale services, from the ICU inside Foundation: the locales with collation
/// data, language tags to and from ICU locale ids, and collators opened once per locale and
/// strength and shared (their compare is safe from any thread; opening is what costs).
enum ICUCollation {
    /// A collator's strength as the reference's sensitivity sets it (Intl.Collator in V8).
    enum Strength: Hashable, Sendable {
        /// Base letters only.
        case primary
        /// Base letters and diacritics.
        case secondary
        /// Base letters and case (primary strength with the case level on).
        case primaryWithCase
        /// Everything.
        case tertiary
    }

    private struct Key: Hashable {
        var locale: String
        var strength: Strength
    }

    /// An opened collator; ICU's pointer, which lives as long as the process.
    private struct Opened: @unchecked Sendable {
        var collator: OpaquePointer?
    }

    private static let collators = Mutex<[Key: Opened]>([:])

    /// -1, 0 or 1 as `a` sorts before, with or after `b` in the collation of the ICU locale id
    /// `locale` (with its keywords) at `strength`, canonically equivalent strings being equal.
    static func compare(_ a: String, _ b: String, locale: String, strength: Strength) -> Int {
        let collator = collators.withLock { opened in
            if let held = opened[Key(locale: locale, strength: strength)] { return held }
            var status: Int32 = 0
            let made = Opened(collator: swift_ucol_open(locale, &status))
            if let collator = made.collator {
                swift_ucol_setAttribute(collator, Int32(MAPSIM_UCOL_NORMALIZATION_MODE), Int32(MAPSIM_UCOL_ON), &status)
                switch strength {
                case .primary: swift_ucol_setStrength(collator, Int32(MAPSIM_UCOL_PRIMARY))
                case .secondary: swift_ucol_setStrength(collator, Int32(MAPSIM_UCOL_SECONDARY))
                case .primaryWithCase:
                    swift_ucol_setStrength(collator, Int32(MAPSIM_UCOL_PRIMARY))
                    swift_ucol_setAttribute(collator, Int32(MAPSIM_UCOL_CASE_LEVEL), Int32(MAPSIM_UCOL_ON), &status)
                case .tertiary: swift_ucol_setStrength(collator, Int32(MAPSIM_UCOL_TERTIARY))
                }
            }
            opened[Key(locale: locale, strength: strength)] = made
            return made
        }
        guard let pointer = collator.collator else { return a == b ? 0 : a < b ? -1 : 1 }
        let x = Array(a.utf16)
        let y = Array(b.utf16)
        return Int(swift_ucol_strcoll(pointer, x, Int32(x.count), y, Int32(y.count)).signum())
    }

    /// The locales with collation data, as language tags (`de`, `fr-CA`, `zh-Hant-TW`), and for
    /// those with a script and a region the tag without the script too (`zh-TW`), as V8 lists them.
    static let availableLocales: Set<String> = {
        var tags: Set<String> = []
        for index in 0..<swift_ucol_countAvailable() {
            guard let id = swift_ucol_getAvailable(index), let tag = languageTag(String(cString: id)) else { continue }
            tags.insert(tag)
            let parts = tag.split(separator: "-")
            if parts.count == 3, parts[1].count == 4, parts[2].count == 2 || parts[2].count == 3 {
                tags.insert("\(parts[0])-\(parts[2])")
            }
        }
        return tags
    }()

    /// The ICU locale id of a well-formed language tag (`es-ES-u-co-trad` is
    /// `es_ES@collation=traditional`); nil when ICU cannot read all of it.
    static func localeID(_ tag: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        var parsed: Int32 = 0
        var status: Int32 = 0
        let length = swift_uloc_forLanguageTag(tag, &buffer, Int32(buffer.count), &parsed, &status)
        guard status <= 0, length < buffer.count, Int(parsed) == tag.utf8.count else { return nil }
        return Self.text(buffer)
    }

    /// The canonical language tag of an ICU locale id (deprecated codes replaced: `iw` is `he`).
    static func languageTag(_ id: String) -> String? {
        var canonical = [CChar](repeating: 0, count: 512)
        var status: Int32 = 0
        let length = swift_uloc_canonicalize(id, &canonical, Int32(canonical.count), &status)
        guard status <= 0, length < canonical.count else { return nil }
        var tag = [CChar](repeating: 0, count: 512)
        status = 0
        let tagLength = swift_uloc_toLanguageTag(canonical, &tag, Int32(tag.count), 1, &status)
        guard status <= 0, tagLength < tag.count else { return nil }
        return Self.text(tag)
    }

    /// The text of a NUL-terminated buffer ICU wrote.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The collation types (`phonebk`, `trad`, ... as BCP 47 values) ICU has for `locale`.
    static func collationTypes(of locale: String) -> Set<String> {
        var status: Int32 = 0
        guard let values = swift_ucol_getKeywordValuesForLocale("collation", localeID(locale) ?? locale, 0, &status) else { return [] }
        defer { swift_uenum_close(values) }
        var types: Set<String> = []
        var length: Int32 = 0
        while let value = swift_uenum_next(values, &length, &status) {
            // The ICU names (phonebook, traditional) as language tags name them (phonebk, trad).
            if let tag = languageTag("und@collation=\(String(cString: value))"), let range = tag.range(of: "-co-") {
                types.insert(String(tag[range.upperBound...]))
            }
        }
        return types
    }
}
#endif
