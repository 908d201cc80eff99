/// Numbers read and written as JavaScript reads and writes them, because the expression language's
/// reference is JavaScript: `Number("0x1f")`, `String(1e21)`, `String(0.000001)` must give what a
/// style author sees in a browser.
enum JavaScriptNumber {
    /// JavaScript's `Number(text)`: NaN when the text is not a number; an empty text is 0.
    static func parse(_ text: String) -> Double {
        // The common case — a plain decimal number, nothing around it — without building strings.
        // Only digits, signs, points and exponents: no space, no radix prefix, no Infinity.
        let utf8 = text.utf8
        let isPlain = utf8.allSatisfy { byte in
            switch byte {
            case 0x30...0x39, 0x2B, 0x2D, 0x2E, 0x45, 0x65: true
            default: false
            }
        }
        if !utf8.isEmpty, isPlain {
            return isDecimalLiteral(Array(utf8)) ? (Double(text) ?? .nan) : .nan
        }
        let trimmed = Substring(text).drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        let body = String(trimmed)
        if body.isEmpty { return 0 }
        switch body {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        let lower = body.lowercased()
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) {
            let digits = lower.dropFirst(2)
            guard !digits.isEmpty else { return .nan }
            var value = 0.0
            for character in digits {
                guard let digit = character.hexDigitValue, digit < radix else { return .nan }
                value = value * Double(radix) + Double(digit)
            }
            return value
        }
        guard isDecimalLiteral(Array(body.utf8)) else { return .nan }
        return Double(body) ?? .nan
    }

    /// JavaScript's `String(n)`: the shortest digits that read back as `n`, in plain notation from
    /// 1e-7 (exclusive) to 1e21 (exclusive), in exponent notation (`1e+21`, `1.5e-7`) outside it.
    static func string(_ n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n == 0 { return "0" }
        if n.isInfinite { return n < 0 ? "-Infinity" : "Infinity" }
        if n < 0 { return "-" + string(-n) }
        if n < 1e15, n == n.rounded(.down) { return String(Int64(n)) }
        let (digits, exponent) = shortestDigits(n)
        let k = digits.count
        if k <= exponent && exponent <= 21 {
            return digits + String(repeating: "0", count: exponent - k)
        }
        if 0 < exponent && exponent <= 21 {
            let split = digits.index(digits.startIndex, offsetBy: exponent)
            return digits[..<split] + "." + digits[split...]
        }
        if -6 < exponent && exponent <= 0 {
            return "0." + String(repeating: "0", count: -exponent) + digits
        }
        let power = exponent - 1
        let sign = power < 0 ? "-" : "+"
        let mantissa = k == 1 ? digits : digits.prefix(1) + "." + digits.dropFirst()
        return "\(mantissa)e\(sign)\(abs(power))"
    }

    /// The shortest decimal digits of a positive finite `n` (no leading or trailing zeros) and the
    /// exponent `e` such that `n` is `0.digits × 10^e`.
    static func shortestDigits(_ n: Double) -> (String, Int) {
        let text = "\(n)"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        var integerPart = mantissa
        var fraction: Substring = ""
        if let dot = mantissa.firstIndex(of: ".") {
            integerPart = mantissa[..<dot]
            fraction = mantissa[mantissa.index(after: dot)...]
        }
        var digits = String(integerPart) + fraction
        var pointPosition = integerPart.count + exponent
        while digits.first == "0" {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        return (digits, pointPosition)
    }

    private static func isSpace(_ character: Character) -> Bool {
        character.isWhitespace || character == "\u{FEFF}"
    }

    /// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`
    private static func isDecimalLiteral(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
        var count = digits()
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            count += digits()
        }
        guard count > 0 else { return false }
        if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
            index += 1
            if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }
}
