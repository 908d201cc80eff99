import MapSimJSON
import Synchronization

/// The style specification's top-level sections (`$root`, `layer`, `paint_line`…), each read from
/// the reference's text the first time it is asked for. A style's check or load needs the sections
/// of the layer and source types it has: a small style a third of the reference, whose whole
/// reading was most of the work of validating one.
///
/// An instance keeps what it read for its life; threads that share one take turns only to look a
/// section up, never while one is read (two may read the same section, and one reading is kept).
final class StyleSpecSections: Sendable {
    /// The reference's text, and where each section's value lies in it, found once per process.
    private static let text = Array(StyleSpecReference.json.utf8)
    private static let index = SectionIndex(text)

    private let read = Mutex<[String: JSONValue]>([:])

    /// The reference's section names, in its order.
    static var names: [String] { index.names }

    /// The section `name`; nil when the reference has none of that name.
    subscript(name: String) -> JSONValue? {
        if let section = read.withLock({ $0[name] }) { return section }
        guard let range = Self.index.ranges[name], let section = try? JSONParser.parse(Self.text, document: range) else { return nil }
        return read.withLock { read in
            if let first = read[name] { return first }
            read[name] = section
            return section
        }
    }

    /// Reads every section not read yet.
    func readAll() {
        for name in Self.index.names { _ = self[name] }
    }

    /// The whole reference read at once, apart from any instance's sections (what Mapbox's patches
    /// apply to: one reading of it costs less than reading it a section at a time).
    static func readWhole() -> JSONObject {
        (try? JSONParser.parse(text).objectValue) ?? JSONObject()
    }
}

/// Where each member of a JSON object's text lies: the object must be well formed (the reference
/// is generated); a text that is not reads as no sections.
private struct SectionIndex: Sendable {
    private(set) var names: [String] = []
    private(set) var ranges: [String: Range<Int>] = [:]

    init(_ text: [UInt8]) {
        var cursor = 0
        func skipBlanks() {
            while cursor < text.count, text[cursor] == 0x20 || text[cursor] == 0x0A || text[cursor] == 0x0D || text[cursor] == 0x09 { cursor += 1 }
        }
        /// Moves past the string that starts at `cursor`; false when it is not closed.
        func skipString() -> Bool {
            cursor += 1
            while cursor < text.count {
                switch text[cursor] {
                case UInt8(ascii: "\\"): cursor += 2
                case UInt8(ascii: "\""): cursor += 1; return true
                default: cursor += 1
                }
            }
            return false
        }
        /// Moves past the value that starts at `cursor`, to the `,` or `}` after it at depth 0.
        func skipValue() -> Bool {
            var depth = 0
            while cursor < text.count {
                switch text[cursor] {
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return true }
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 0 { return true }
                default: break
                }
                cursor += 1
            }
            return false
        }
        skipBlanks()
        guard cursor < text.count, text[cursor] == UInt8(ascii: "{") else { return }
        cursor += 1
        while true {
            skipBlanks()
            guard cursor < text.count, text[cursor] == UInt8(ascii: "\"") else { return }
            let keyStart = cursor + 1
            guard skipString() else { return }
            // The reference's keys have no escapes: the key is the text between its quotes.
            let name = String(decoding: text[keyStart..<(cursor - 1)], as: UTF8.self)
            skipBlanks()
            guard cursor < text.count, text[cursor] == UInt8(ascii: ":") else { return }
            cursor += 1
            skipBlanks()
            let valueStart = cursor
            guard skipValue() else { return }
            if ranges.updateValue(valueStart..<cursor, forKey: name) == nil { names.append(name) }
            guard text[cursor] == UInt8(ascii: ",") else { return }
            cursor += 1
        }
    }
}
