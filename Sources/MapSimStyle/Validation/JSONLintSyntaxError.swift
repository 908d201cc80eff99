/// Describes a JSON syntax error the way `gl-style-validate` does: its JSON reader (jsonlint, a
/// generated LALR parser) reports the tokens it expected, the token it got, the line of the last
/// token it accepted, and a window of the text around the error.
///
/// This runs only after the fast reader has refused a document: it re-reads the text with
/// jsonlint's token rules and walks its grammar, which is small enough to follow by hand:
/// a value; objects of `STRING ':' value` members; arrays of values.
enum JSONLintSyntaxError {
    /// The message and line for the syntax error in `bytes`, or nil when jsonlint would accept them.
    static func describe(_ bytes: [UInt8]) -> (message: String, line: Int)? {
        var reader = Reader(text: Array(String(decoding: bytes, as: UTF8.self).utf16))
        return reader.run()
    }

    /// jsonlint's tokens, by the names its messages use.
    enum Token: String {
        case string = "STRING", number = "NUMBER", null = "NULL", `true` = "TRUE", `false` = "FALSE"
        case eof = "EOF", openBrace = "{", closeBrace = "}", colon = ":", comma = ",", openBracket = "[", closeBracket = "]"
        case invalid = "INVALID"
    }

    /// Where the walk through the grammar is.
    private enum Position {
        /// A value is due; after `[` a `]` may close the array instead.
        case value(afterOpenBracket: Bool)
        case objectStart
        case memberKey
        case afterKey
        case afterScalar(isString: Bool)
        case afterComposite
        case valueDone

        var isObjectStart: Bool {
            if case .objectStart = self { return true }
            return false
        }
    }

    /// What encloses the value being read.
    private enum Container {
        case document, object, array
    }

    private static let valueTokens: [Token] = [.string, .number, .null, .true, .false, .openBrace, .openBracket]
    private static let followTokens: [Token] = [.eof, .closeBrace, .comma, .closeBracket]

    private struct Reader {
        let text: [UInt16]
        var offset = 0
        /// Line breaks read so far, the lexer's count.
        var lexerLines = 0
        /// The lexer's count when the last token was accepted: the line of every message.
        var acceptedLines = 0
        var tokenStart = 0
        var lookahead: Token?

        init(text: [UInt16]) {
            self.text = text
        }

        mutating func run() -> (message: String, line: Int)? {
            var containers: [Container] = [.document]
            var position = Position.value(afterOpenBracket: false)
            while true {
                let token = peek()
                switch position {
                case .value(let afterOpenBracket):
                    if [.string, .number, .null, .true, .false].contains(token) {
                        accept()
                        position = .afterScalar(isString: token == .string)
                    } else if token == .openBrace {
                        accept()
                        containers.append(.object)
                        position = .objectStart
                    } else if token == .openBracket {
                        accept()
                        containers.append(.array)
                        position = .value(afterOpenBracket: true)
                    } else if token == .closeBracket && afterOpenBracket {
                        accept()
                        containers.removeLast()
                        position = .afterComposite
                    } else {
                        return failure(expected: valueTokens + (afterOpenBracket ? [.closeBracket] : []), got: token)
                    }
                case .objectStart, .memberKey:
                    if token == .string {
                        accept()
                        position = .afterKey
                    } else if token == .closeBrace, case .objectStart = position {
                        accept()
                        containers.removeLast()
                        position = .afterComposite
                    } else {
                        return failure(expected: position.isObjectStart ? [.string, .closeBrace] : [.string], got: token)
                    }
                case .afterKey:
                    if token == .colon {
                        accept()
                        position = .value(afterOpenBracket: false)
                    } else {
                        // A string followed by a token that may follow any string is reduced first; then only ':' fits.
                        return failure(expected: followTokens.contains(token) ? [.colon] : [.eof, .closeBrace, .colon, .comma, .closeBracket], got: token)
                    }
                case .afterScalar(let isString):
                    guard followTokens.contains(token) else {
                        let expected: [Token] = isString && token != .colon ? [.eof, .closeBrace, .colon, .comma, .closeBracket] : followTokens
                        return failure(expected: expected, got: token)
                    }
                    position = .valueDone
                case .afterComposite:
                    guard followTokens.contains(token) else { return failure(expected: followTokens, got: token) }
                    position = .valueDone
                case .valueDone:
                    switch (containers.last ?? .document, token) {
                    case (.document, .eof):
                        return nil
                    case (.document, _):
                        return failure(expected: [.eof], got: token)
                    case (.object, .closeBrace), (.array, .closeBracket):
                        accept()
                        containers.removeLast()
                        position = .afterComposite
                    case (.object, .comma):
                        accept()
                        position = .memberKey
                    case (.array, .comma):
                        accept()
                        position = .value(afterOpenBracket: false)
                    case (.object, _):
                        return failure(expected: [.closeBrace, .comma], got: token)
                    case (.array, _):
                        return failure(expected: [.comma, .closeBracket], got: token)
                    }
                }
            }
        }

        private func failure(expected: [Token], got token: Token) -> (message: String, line: Int) {
            let line = acceptedLines + 1
            let expecting = expected.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            return ("Parse error on line \(line):\n\(window())\nExpecting \(expecting), got '\(token.rawValue)'", line)
        }

        /// jsonlint's picture of the error: up to 20 characters before the offending token, the
        /// token and what follows up to 20 characters, and a `^` under the token.
        private func window() -> String {
            func shown(_ range: Range<Int>) -> String {
                String(decoding: text[range], as: UTF16.self).replacingOccurrences(of: "\n", with: "")
            }
            let before = (tokenStart > 20 ? "..." : "") + shown(max(0, tokenStart - 20)..<tokenStart)
            let tokenLength = offset - tokenStart
            let shownEnd = tokenLength < 20 ? min(text.count, tokenStart + 20) : offset
            let after = shown(tokenStart..<min(shownEnd, tokenStart + 20)) + (shownEnd - tokenStart > 20 ? "..." : "")
            let marker = String(repeating: "-", count: before.utf16.count) + "^"
            return before + after + "\n" + marker
        }

        /// Accepts the lookahead token.
        private mutating func accept() {
            lookahead = nil
            acceptedLines = lexerLines
        }

        /// The next token, read once.
        private mutating func peek() -> Token {
            if let lookahead { return lookahead }
            let token = lex()
            lookahead = token
            return token
        }

        // MARK: - Tokens, by jsonlint's rules in their order: the first rule that matches wins.

        private mutating func lex() -> Token {
            skipWhitespace()
            tokenStart = offset
            guard offset < text.count else { return .eof }
            if let end = numberEnd() { offset = end; return .number }
            if let end = stringEnd() { offset = end; return .string }
            let single: [UInt16: Token] = [0x7B: .openBrace, 0x7D: .closeBrace, 0x5B: .openBracket, 0x5D: .closeBracket, 0x2C: .comma, 0x3A: .colon]
            if let token = single[text[offset]] { offset += 1; return token }
            for (word, token) in [("true", Token.true), ("false", .false), ("null", .null)] where matchesWord(word) {
                offset += word.utf16.count
                return token
            }
            offset += 1
            return .invalid
        }

        private mutating func skipWhitespace() {
            while offset < text.count, Self.isWhitespace(text[offset]) {
                if text[offset] == 0x0A || (text[offset] == 0x0D && (offset + 1 == text.count || text[offset + 1] != 0x0A)) {
                    lexerLines += 1
                }
                offset += 1
            }
        }

        /// JavaScript's `\s`.
        private static func isWhitespace(_ unit: UInt16) -> Bool {
            switch unit {
            case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
            default: false
            }
        }

        private static func isDigit(_ unit: UInt16) -> Bool { (0x30...0x39).contains(unit) }

        private func isWordCharacter(at index: Int) -> Bool {
            guard index < text.count else { return false }
            let unit = text[index]
            return Self.isDigit(unit) || (0x41...0x5A).contains(unit) || (0x61...0x7A).contains(unit) || unit == 0x5F
        }

        private func matchesWord(_ word: String) -> Bool {
            let units = Array(word.utf16)
            guard offset + units.count <= text.count, Array(text[offset..<offset + units.count]) == units else { return false }
            return !isWordCharacter(at: offset + units.count)
        }

        /// The end of `-?(0-9|[1-9][0-9]+)(\.[0-9]+)?([eE][-+]?[0-9]+)?\b` at the offset, tried in the
        /// order a backtracking regular expression tries it.
        private func numberEnd() -> Int? {
            var start = offset
            if start < text.count, text[start] == 0x2D { start += 1 }
            guard start < text.count, Self.isDigit(text[start]) else { return nil }
            var digitsEnd = start
            while digitsEnd < text.count, Self.isDigit(text[digitsEnd]) { digitsEnd += 1 }
            var integerEnds = [start + 1]
            if text[start] != 0x30 && digitsEnd - start >= 2 { integerEnds += (start + 2...digitsEnd).reversed() }
            for integerEnd in integerEnds {
                for fractionEnd in optionalPart(from: integerEnd, marker: { $0 == 0x2E }, allowsSign: false) {
                    for exponentEnd in optionalPart(from: fractionEnd, marker: { $0 == 0x65 || $0 == 0x45 }, allowsSign: true)
                    where !isWordCharacter(at: exponentEnd) {
                        return exponentEnd
                    }
                }
            }
            return nil
        }

        /// The ends an optional `marker digits` part may have from `index`, longest first, then none.
        private func optionalPart(from index: Int, marker: (UInt16) -> Bool, allowsSign: Bool) -> [Int] {
            guard index < text.count, marker(text[index]) else { return [index] }
            var digitsStart = index + 1
            if allowsSign, digitsStart < text.count, text[digitsStart] == 0x2B || text[digitsStart] == 0x2D { digitsStart += 1 }
            var end = digitsStart
            while end < text.count, Self.isDigit(text[end]) { end += 1 }
            guard end > digitsStart else { return [index] }
            return (digitsStart + 1...end).reversed() + [index]
        }

        /// The end of a string token at the offset: `"` then characters other than `\`, `"` and
        /// controls, or the escapes `\\ \" \/ \b \f \n \r \t \uXXXX`, then `"`.
        private func stringEnd() -> Int? {
            guard text[offset] == 0x22 else { return nil }
            var index = offset + 1
            while index < text.count {
                let unit = text[index]
                if unit == 0x22 { return index + 1 }
                if unit < 0x20 { return nil }
                if unit == 0x5C {
                    guard index + 1 < text.count else { return nil }
                    let escaped = text[index + 1]
                    if [0x5C, 0x22, 0x62, 0x66, 0x6E, 0x72, 0x74, 0x2F].contains(escaped) {
                        index += 2
                    } else if escaped == 0x75, index + 5 < text.count,
                              text[index + 2...index + 5].allSatisfy({ Self.isDigit($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }) {
                        index += 6
                    } else {
                        return nil
                    }
                } else {
                    index += 1
                }
            }
            return nil
        }
    }
}
