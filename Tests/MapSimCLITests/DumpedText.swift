/// Everything `dump` shows of `value`: every stored value, nested ones too — for comparing two
/// runs of a command made different ways.
func dumpedText(_ value: some Any) -> String {
    var text = ""
    dump(value, to: &text)
    return text
}
