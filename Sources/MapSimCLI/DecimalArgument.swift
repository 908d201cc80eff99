/// A number within an argument, spaces around it allowed (`8.54, 47.37`). Read without Foundation:
/// its trimming is NSString's, whose first use costs a process a scan of every protocol
/// conformance in the binary, a tenth of a `load` that names its centre.
enum DecimalArgument {
    /// The finite number `text` spells, blanks around it aside; nil for anything else.
    static func value(_ text: Substring) -> Double? {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }), let last = text.lastIndex(where: { !$0.isWhitespace }),
              let value = Double(String(text[first...last])), value.isFinite else { return nil }
        return value
    }
}
