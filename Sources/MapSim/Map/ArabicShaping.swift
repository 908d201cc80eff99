/// The UTF-16 units a label's text is drawn with. Placeholder until MapLibre Native's behaviour is measured.
enum ArabicShaping {
    static func shape(_ text: String) -> [UInt16] {
        Array(text.utf16)
    }
}
