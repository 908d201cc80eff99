/// Formats numbers as `number-format` does (JavaScript's `Intl.NumberFormat`): decimal, currency
/// or unit style, with minimum and maximum fraction digits, rounding half away from zero on the
/// number's shortest decimal form.
///
/// Locales: English (`en`, `en-*`, and the default) with `,` grouping and `.` decimals; German
/// (`de*`: `.` and `,`, currency after the number) and French (`fr*`: narrow no-break space and
/// `,`, currency after). Other locales are formatted as `en-US`.
struct LocaleNumberFormat {
    var locale: String?
    var currency: String?
    var unit: String?
    var minimumFractionDigits: Double?
    var maximumFractionDigits: Double?

    private struct Symbols {
        var group: String
        var decimal: String
        var currencyAfter: Bool
    }

    private var symbols: Symbols {
        let language = (locale ?? "en").lowercased().prefix(2)
        switch language {
        case "de": return Symbols(group: ".", decimal: ",", currencyAfter: true)
        case "fr": return Symbols(group: "\u{202F}", decimal: ",", currencyAfter: true)
        default: return Symbols(group: ",", decimal: ".", currencyAfter: false)
        }
    }

    func string(_ value: Double) -> String {
        let symbols = symbols
        let currencyCode = currency?.uppercased()
        let defaultDigits = currencyCode.map { Self.zeroDigitCurrencies.contains($0) ? 0 : 2 }
        let minimum = minimumFractionDigits.map { Int(max(0, min(100, $0))) }
        let maximum = maximumFractionDigits.map { Int(max(0, min(100, $0))) }
        let minFraction = minimum ?? min(defaultDigits ?? 0, maximum ?? Int.max)
        let maxFraction = max(maximum ?? max(defaultDigits ?? 3, minFraction), minFraction)
        var body: String
        if value.isNaN {
            body = "NaN"
        } else if value.isInfinite {
            body = "∞"
        } else {
            body = Self.digits(abs(value), minFraction: minFraction, maxFraction: maxFraction, symbols: symbols)
        }
        let negative = value < 0
        if let currencyCode {
            let symbol = Self.currencySymbols[currencyCode] ?? currencyCode + "\u{00A0}"
            if symbols.currencyAfter {
                body += "\u{00A0}" + symbol.trimmingSuffixSpace
            } else {
                body = symbol + body
            }
        } else if let unit {
            body += Self.unitSuffixes[unit] ?? " \(unit)"
        }
        return negative ? "-" + body : body
    }

    /// The digits of a non-negative finite number, rounded and grouped.
    private static func digits(_ value: Double, minFraction: Int, maxFraction: Int, symbols: Symbols) -> String {
        var integer: [UInt8] = [0]
        var fraction: [UInt8] = []
        if value != 0 {
            let (text, point) = JavaScriptNumber.shortestDigits(value)
            let digits = text.utf8.map { $0 - 0x30 }
            if point <= 0 {
                fraction = Array(repeating: 0, count: -point) + digits
            } else if point >= digits.count {
                integer = digits + Array(repeating: 0, count: point - digits.count)
            } else {
                integer = Array(digits[..<point])
                fraction = Array(digits[point...])
            }
        }
        if fraction.count > maxFraction {
            let roundUp = fraction[maxFraction] >= 5
            fraction = Array(fraction[..<maxFraction])
            if roundUp {
                var all = integer + fraction
                var index = all.count - 1
                while index >= 0 {
                    if all[index] == 9 {
                        all[index] = 0
                        index -= 1
                    } else {
                        all[index] += 1
                        break
                    }
                }
                if index < 0 { all.insert(1, at: 0) }
                integer = Array(all[..<(all.count - fraction.count)])
                fraction = Array(all[(all.count - fraction.count)...])
            }
        }
        while fraction.count > minFraction, fraction.last == 0 { fraction.removeLast() }
        while fraction.count < minFraction { fraction.append(0) }
        var grouped = ""
        for (index, digit) in integer.enumerated() {
            if index > 0, (integer.count - index) % 3 == 0 { grouped += symbols.group }
            grouped.append(Character(Unicode.Scalar(digit + 0x30)))
        }
        if fraction.isEmpty { return grouped }
        return grouped + symbols.decimal + String(decoding: fraction.map { $0 + 0x30 }, as: UTF8.self)
    }

    private static let zeroDigitCurrencies: Set<String> = ["JPY", "KRW", "VND", "CLP", "ISK", "UGX", "XAF", "XOF", "PYG", "HUF", "TWD"]

    private static let currencySymbols: [String: String] = [
        "USD": "$", "EUR": "€", "JPY": "¥", "GBP": "£", "CNY": "CN¥", "INR": "₹", "KRW": "₩", "CAD": "CA$", "AUD": "A$",
        "HKD": "HK$", "NZD": "NZ$", "MXN": "MX$", "BRL": "R$", "ILS": "₪", "VND": "₫", "TWD": "NT$", "XAF": "FCFA", "PHP": "₱",
    ]

    /// Units in their short English form, with the space (or none) that goes before them.
    private static let unitSuffixes: [String: String] = [
        "meter": " m", "kilometer": " km", "centimeter": " cm", "millimeter": " mm", "mile": " mi", "foot": " ft", "inch": " in",
        "yard": " yd", "kilogram": " kg", "gram": " g", "pound": " lb", "ounce": " oz", "liter": " L", "milliliter": " mL",
        "celsius": "°C", "fahrenheit": "°F", "degree": " deg", "percent": "%", "byte": " byte", "kilobyte": " kB", "megabyte": " MB",
        "gigabyte": " GB", "terabyte": " TB", "second": " sec", "minute": " min", "hour": " hr", "day": " day", "week": " wk",
        "kilometer-per-hour": " km/h", "mile-per-hour": " mph", "meter-per-second": " m/s", "acre": " ac", "hectare": " ha",
    ]
}

private extension String {
    /// The text without a trailing no-break space.
    var trimmingSuffixSpace: String {
        hasSuffix("\u{00A0}") ? String(dropLast()) : self
    }
}
