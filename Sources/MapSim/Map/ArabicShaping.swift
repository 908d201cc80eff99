/// Arabic letters replaced by their contextual presentation forms, as MapLibre Native shapes label
/// text (ICU's letter shaping, logical order) before it works out which glyphs to request: a letter
/// takes its isolated, final, initial or medial form from its neighbours, lam followed by alef
/// becomes one ligature, and harakat take their spacing forms. Text without Arabic is unchanged.
enum ArabicShaping {
    /// Whether `text` has Arabic letters to shape.
    static func needsShaping(_ text: String) -> Bool {
        text.utf16.contains { (0x0600...0x06FF).contains($0) }
    }

    /// The UTF-16 units of `text` after shaping.
    static func shape(_ text: String) -> [UInt16] {
        let units = Array(text.utf16)
        guard needsShaping(text) else { return units }
        var result: [UInt16] = []
        result.reserveCapacity(units.count)
        var index = 0
        while index < units.count {
            let unit = units[index]
            if isTransparent(unit) {
                let medial = joinsForward(units, before: index) && joinsBackward(units, after: index)
                result.append(harakatForm(unit, medial: medial))
                index += 1
                continue
            }
            guard let letter = letters[unit] else {
                result.append(unit)
                index += 1
                continue
            }
            let joinsPrevious = joinsForward(units, before: index)
            // Lam followed by an alef is written as one ligature.
            if unit == 0x0644, let next = nextLetter(units, after: index), let ligature = lamAlef[units[next]] {
                result.append(ligature + (joinsPrevious ? 1 : 0))
                index = next + 1
                continue
            }
            let joinsNext = letter.forms == 4 && joinsBackward(units, after: index)
            let form: UInt16
            switch (joinsPrevious, joinsNext) {
            case (true, true): form = 3
            case (false, true): form = 2
            case (true, false): form = letter.forms > 1 ? 1 : 0
            case (false, false): form = 0
            }
            result.append(letter.isolated == 0 ? unit : letter.isolated + form)
            index += 1
        }
        return result
    }

    private struct Letter {
        /// The isolated form (0 for a letter that only joins, like tatweel), followed by final, initial, medial.
        var isolated: UInt16
        /// 1 (does not join), 2 (joins to the right only) or 4 (joins both ways).
        var forms: UInt16
    }

    private static func isTransparent(_ unit: UInt16) -> Bool {
        (0x064B...0x065F).contains(unit) || unit == 0x0670 || (0x06D6...0x06ED).contains(unit)
    }

    /// The next non-transparent unit after `index`, if it is a letter.
    private static func nextLetter(_ units: [UInt16], after index: Int) -> Int? {
        var next = index + 1
        while next < units.count, isTransparent(units[next]) { next += 1 }
        return next < units.count && letters[units[next]] != nil ? next : nil
    }

    /// Whether the letter before `index` (skipping harakat) joins towards it.
    private static func joinsForward(_ units: [UInt16], before index: Int) -> Bool {
        var previous = index - 1
        while previous >= 0, isTransparent(units[previous]) { previous -= 1 }
        guard previous >= 0, let letter = letters[units[previous]] else { return false }
        return letter.forms == 4
    }

    /// Whether the letter after `index` (skipping harakat) joins back towards it.
    private static func joinsBackward(_ units: [UInt16], after index: Int) -> Bool {
        guard let next = nextLetter(units, after: index), let letter = letters[units[next]] else { return false }
        return letter.forms > 1
    }

    private static func harakatForm(_ unit: UInt16, medial: Bool) -> UInt16 {
        guard (0x064B...0x0652).contains(unit) else { return unit }
        let positions: [UInt16] = [0x0, 0x2, 0x4, 0x6, 0x8, 0xA, 0xC, 0xE]
        let position = positions[Int(unit - 0x064B)]
        // Tanween forms have no medial variant.
        return 0xFE70 + position + (medial && unit >= 0x064E ? 1 : 0)
    }

    /// Lam-alef ligatures by the alef that follows lam: isolated form, then final.
    private static let lamAlef: [UInt16: UInt16] = [0x0622: 0xFEF5, 0x0623: 0xFEF7, 0x0625: 0xFEF9, 0x0627: 0xFEFB]

    private static let letters: [UInt16: Letter] = {
        var table: [UInt16: Letter] = [0x0621: Letter(isolated: 0xFE80, forms: 1), 0x0640: Letter(isolated: 0, forms: 4)]
        let basic: [(UInt16, UInt16, UInt16)] = [
            (0x0622, 0xFE81, 2), (0x0623, 0xFE83, 2), (0x0624, 0xFE85, 2), (0x0625, 0xFE87, 2), (0x0626, 0xFE89, 4), (0x0627, 0xFE8D, 2),
            (0x0628, 0xFE8F, 4), (0x0629, 0xFE93, 2), (0x062A, 0xFE95, 4), (0x062B, 0xFE99, 4), (0x062C, 0xFE9D, 4), (0x062D, 0xFEA1, 4),
            (0x062E, 0xFEA5, 4), (0x062F, 0xFEA9, 2), (0x0630, 0xFEAB, 2), (0x0631, 0xFEAD, 2), (0x0632, 0xFEAF, 2), (0x0633, 0xFEB1, 4),
            (0x0634, 0xFEB5, 4), (0x0635, 0xFEB9, 4), (0x0636, 0xFEBD, 4), (0x0637, 0xFEC1, 4), (0x0638, 0xFEC5, 4), (0x0639, 0xFEC9, 4),
            (0x063A, 0xFECD, 4), (0x0641, 0xFED1, 4), (0x0642, 0xFED5, 4), (0x0643, 0xFED9, 4), (0x0644, 0xFEDD, 4), (0x0645, 0xFEE1, 4),
            (0x0646, 0xFEE5, 4), (0x0647, 0xFEE9, 4), (0x0648, 0xFEED, 2), (0x0649, 0xFEEF, 2), (0x064A, 0xFEF1, 4),
            // Letters of Persian and Urdu, in the Presentation Forms-A block.
            (0x0671, 0xFB50, 2), (0x0679, 0xFB66, 4), (0x067E, 0xFB56, 4), (0x0686, 0xFB7A, 4), (0x0688, 0xFB88, 2), (0x0691, 0xFB8C, 2),
            (0x0698, 0xFB8A, 2), (0x06A9, 0xFB8E, 4), (0x06AF, 0xFB92, 4), (0x06BA, 0xFB9E, 2), (0x06BE, 0xFBAA, 4), (0x06C1, 0xFBA6, 4),
            (0x06CC, 0xFBFC, 4), (0x06D2, 0xFBAE, 2),
        ]
        for (unit, isolated, forms) in basic { table[unit] = Letter(isolated: isolated, forms: forms) }
        return table
    }()
}
