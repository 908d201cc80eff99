/// Vertical forms of punctuation, which the SDKs also request for text that may be set vertically
/// (CJK labels along lines rotated with the map, or with `text-writing-mode: vertical`).
enum VerticalPunctuation {
    /// The vertical form of `unit`, if it has one.
    static func vertical(_ unit: UInt16) -> UInt16? {
        table[unit]
    }

    /// Whether the text has a character written upright in vertical text (CJK, kana, hangul, ...).
    static func allowsVerticalWritingMode(_ text: String) -> Bool {
        text.utf16.contains { unit in uprightRanges.contains { $0.contains(unit) } }
    }

    private static let uprightRanges: [ClosedRange<UInt16>] = [
        0x1100...0x11FF, 0x2E80...0x2FDF, 0x2FF0...0x2FFF, 0x3003...0x3007, 0x3011...0x301F, 0x3021...0x303F, 0x3040...0x30FF,
        0x3100...0x31FF, 0x3200...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7AF, 0xF900...0xFAFF,
        0xFE10...0xFE1F, 0xFE30...0xFE4F, 0xFF00...0xFFEF,
    ]

    private static let table: [UInt16: UInt16] = {
        let pairs: [(Character, Character)] = [
            ("!", "︕"), ("#", "＃"), ("$", "＄"), ("%", "％"), ("&", "＆"), ("(", "︵"), (")", "︶"), ("*", "＊"), ("+", "＋"), (",", "︐"),
            ("-", "︲"), (".", "・"), ("/", "／"), (":", "︓"), (";", "︔"), ("<", "︿"), ("=", "＝"), (">", "﹀"), ("?", "︖"), ("@", "＠"),
            ("[", "﹇"), ("\\", "＼"), ("]", "﹈"), ("^", "＾"), ("_", "︳"), ("`", "｀"), ("{", "︷"), ("|", "―"), ("}", "︸"), ("~", "～"),
            ("¢", "￠"), ("£", "￡"), ("¥", "￥"), ("¦", "￤"), ("¬", "￢"), ("¯", "￣"), ("–", "︲"), ("—", "︱"), ("‘", "﹃"), ("’", "﹄"),
            ("“", "﹁"), ("”", "﹂"), ("…", "︙"), ("‧", "・"), ("₩", "￦"), ("、", "︑"), ("。", "︒"), ("〈", "︿"), ("〉", "﹀"), ("《", "︽"),
            ("》", "︾"), ("「", "﹁"), ("」", "﹂"), ("『", "﹃"), ("』", "﹄"), ("【", "︻"), ("】", "︼"), ("〔", "︹"), ("〕", "︺"), ("〖", "︗"),
            ("〗", "︘"), ("！", "︕"), ("（", "︵"), ("）", "︶"), ("，", "︐"), ("－", "︲"), ("．", "・"), ("：", "︓"), ("；", "︔"), ("＜", "︿"),
            ("＞", "﹀"), ("？", "︖"), ("［", "﹇"), ("］", "﹈"), ("＿", "︳"), ("｛", "︷"), ("｜", "―"), ("｝", "︸"), ("｟", "︵"), ("｠", "︶"),
            ("｡", "︒"), ("｢", "﹁"), ("｣", "﹂"),
        ]
        var table: [UInt16: UInt16] = [:]
        for (from, to) in pairs {
            if let key = String(from).utf16.first, let value = String(to).utf16.first { table[key] = value }
        }
        return table
    }()
}
